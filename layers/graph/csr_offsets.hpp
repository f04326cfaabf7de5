// graph/csr_offsets.hpp — the shape every CSR row-start array must have,
// checked once for both graph types (graph/csr_graph.hpp, graph/weighted_graph.hpp),
// whoever made the arrays (a builder, a file).
#pragma once
#include <cstddef>
#include <string_view>
#include <vector>

#include "graph/edge_list.hpp"

namespace ulibc::graph {

// Error(input) "<what>: ..." unless offsets has 1..kMaxVertices+1 entries,
// starts with 0, never decreases and ends at `entries` (the length of the
// array it indexes, whose elements are called `entry_name` in the message).
void check_csr_offsets(std::string_view what, const std::vector<EdgeIndex>& offsets, std::size_t entries,
                       std::string_view entry_name);

}  // namespace ulibc::graph
