// sssp/placed_graph.cpp — copying a graph into placed memory.
#include "sssp/placed_graph.hpp"

#include <cstring>

namespace ulibc::sssp::detail {
namespace {

std::size_t offsets_bytes(const graph::WeightedGraph& g) { return g.offsets().size() * sizeof(graph::EdgeIndex); }
// allocate_* refuses 0 bytes: a graph without arcs still gets a page.
std::size_t arcs_bytes(const graph::WeightedGraph& g) {
  return std::max<std::size_t>(1, g.arcs().size() * sizeof(graph::Arc));
}

}  // namespace

PlacedGraph::PlacedGraph(const graph::WeightedGraph& g, const Topology& topo, int node, PageKind pages)
    : offsets_(allocate_on_node(topo, offsets_bytes(g), nearest_memory_node(topo, node), {.pages = pages})),
      arcs_(allocate_on_node(topo, arcs_bytes(g), nearest_memory_node(topo, node), {.pages = pages})) {
  copy(g);
}

PlacedGraph::PlacedGraph(const graph::WeightedGraph& g, const Topology& topo, const NodeSet& nodes, PageKind pages)
    : offsets_(allocate_interleaved(topo, offsets_bytes(g), nodes, {.pages = pages})),
      arcs_(allocate_interleaved(topo, arcs_bytes(g), nodes, {.pages = pages})) {
  copy(g);
}

void PlacedGraph::copy(const graph::WeightedGraph& g) {
  std::memcpy(offsets_.data(), g.offsets().data(), offsets_bytes(g));
  if (!g.arcs().empty()) std::memcpy(arcs_.data(), g.arcs().data(), g.arcs().size() * sizeof(graph::Arc));
  view_ = {g.vertices(), static_cast<const graph::EdgeIndex*>(offsets_.data()),
           static_cast<const graph::Arc*>(arcs_.data())};
}

std::string PlacedGraph::note() const { return !arcs_.note().empty() ? arcs_.note() : offsets_.note(); }

}  // namespace ulibc::sssp::detail
