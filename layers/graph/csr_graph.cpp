// graph/csr_graph.cpp — the CSR graph's shape checks.
#include "graph/csr_graph.hpp"

#include <fmt/format.h>

#include "graph/csr_offsets.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {

CsrGraph::CsrGraph(std::vector<EdgeIndex> offsets, std::vector<Vertex> neighbours)
    : offsets_(std::move(offsets)), neighbours_(std::move(neighbours)) {
  check_csr_offsets("CSR graph", offsets_, neighbours_.size(), "neighbours");
  const Vertex n = vertices();
  for (std::size_t i = 0; i < neighbours_.size(); ++i)
    if (neighbours_[i] < 0 || neighbours_[i] >= n)
      throw input_error(
          fmt::format("CSR graph: neighbour {} at position {} is not a vertex (0..{})", neighbours_[i], i, n - 1));
}

}  // namespace ulibc::graph
