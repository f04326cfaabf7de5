// graph/csr_graph.cpp — the CSR graph's shape checks.
#include "graph/csr_graph.hpp"

#include <fmt/format.h>

#include "ulibc/error.hpp"

namespace ulibc::graph {

CsrGraph::CsrGraph(std::vector<EdgeIndex> offsets, std::vector<Vertex> neighbours)
    : offsets_(std::move(offsets)), neighbours_(std::move(neighbours)) {
  if (offsets_.empty() || offsets_.front() != 0)
    throw input_error("CSR graph: the offsets must start with 0");
  if (static_cast<std::int64_t>(offsets_.size() - 1) > kMaxVertices)
    throw input_error(fmt::format("CSR graph: {} vertices, more than the {} that 32-bit ids allow",
                                  offsets_.size() - 1, kMaxVertices));
  if (offsets_.back() != static_cast<EdgeIndex>(neighbours_.size()))
    throw input_error(fmt::format("CSR graph: the offsets end at {} but there are {} neighbours", offsets_.back(),
                                  neighbours_.size()));
  for (std::size_t v = 0; v + 1 < offsets_.size(); ++v)
    if (offsets_[v + 1] < offsets_[v])
      throw input_error(fmt::format("CSR graph: the offsets decrease at vertex {}", v));
  const Vertex n = vertices();
  for (std::size_t i = 0; i < neighbours_.size(); ++i)
    if (neighbours_[i] < 0 || neighbours_[i] >= n)
      throw input_error(fmt::format("CSR graph: neighbour {} at position {} is not a vertex (0..{})", neighbours_[i],
                                    i, n - 1));
}

}  // namespace ulibc::graph
