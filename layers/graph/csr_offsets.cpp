// graph/csr_offsets.cpp — the row starts' shape check.
#include "graph/csr_offsets.hpp"

#include <fmt/format.h>

#include "ulibc/error.hpp"

namespace ulibc::graph {

void check_csr_offsets(std::string_view what, const std::vector<EdgeIndex>& offsets, std::size_t entries,
                       std::string_view entry_name) {
  if (offsets.empty() || offsets.front() != 0)
    throw input_error(fmt::format("{}: the offsets must start with 0", what));
  if (static_cast<std::int64_t>(offsets.size() - 1) > kMaxVertices)
    throw input_error(
        fmt::format("{}: {} vertices, more than the {} that 32-bit ids allow", what, offsets.size() - 1, kMaxVertices));
  if (offsets.back() != static_cast<EdgeIndex>(entries))
    throw input_error(
        fmt::format("{}: the offsets end at {} but there are {} {}", what, offsets.back(), entries, entry_name));
  for (std::size_t v = 0; v + 1 < offsets.size(); ++v)
    if (offsets[v + 1] < offsets[v]) throw input_error(fmt::format("{}: the offsets decrease at vertex {}", what, v));
}

}  // namespace ulibc::graph
