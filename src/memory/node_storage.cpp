// memory/node_storage.cpp — NodeArray's storage: one mapping whose node parts
// are each bound to their node.
#include <limits>
#include <numeric>
#include <string>
#include <vector>

#include "ulibc/error.hpp"
#include "ulibc/node_array.hpp"

namespace ulibc {

NodePartition NodeStorage::layout(const Mapping& map, std::size_t count, std::size_t elem_size, PageKind pages,
                                  std::span<const std::size_t> node_begins) {
  if (count == 0) throw input_error("a node array needs at least one element (n = 0)");
  if (elem_size == 0) throw input_error("a node array's elements cannot have size 0");
  if (count > std::numeric_limits<std::size_t>::max() / elem_size)
    throw input_error("a node array of " + std::to_string(count) + " elements of " + std::to_string(elem_size) +
                      " bytes does not fit in the address space");
  // The fewest elements that fill whole pages: node parts then start on a
  // page, the unit in which memory can be bound to a node.
  const std::size_t page = page_granule(pages);
  const std::size_t align = page / std::gcd(page, elem_size);
  return node_begins.empty() ? NodePartition(map, count, align) : NodePartition(map, count, node_begins, align);
}

NodeStorage::NodeStorage(const Topology& topo, const Mapping& map, std::size_t count, std::size_t elem_size,
                         PageKind pages, std::span<const std::size_t> node_begins)
    : partition_(layout(map, count, elem_size, pages, node_begins)) {
  // Under policy none threads run anywhere: binding would only pin memory
  // away from them, so first touch decides.
  const bool bound = map.policy().kind() != PolicyKind::none;
  std::vector<MemPart> parts;
  for (int k = 0; k < partition_.nodes(); ++k)
    parts.push_back({.bytes = partition_.node_range(k).size() * elem_size, .node = bound ? map.node_ids()[k] : -1});
  buffer_ = allocate_parts(topo, parts, {.pages = pages});
}

}  // namespace ulibc
