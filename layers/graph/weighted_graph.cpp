// graph/weighted_graph.cpp — the CSR's shape checks and the counting sort
// from an arc list.
#include "graph/weighted_graph.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "graph/csr_offsets.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {

WeightedGraph::WeightedGraph(std::vector<EdgeIndex> offsets, std::vector<Arc> arcs)
    : offsets_(std::move(offsets)), arcs_(std::move(arcs)) {
  check_csr_offsets("weighted graph", offsets_, arcs_.size(), "arcs");
  const Vertex n = vertices();
  for (std::size_t i = 0; i < arcs_.size(); ++i)
    if (arcs_[i].head < 0 || arcs_[i].head >= n)
      throw input_error(
          fmt::format("weighted graph: arc {} heads to {}, not a vertex (0..{})", i, arcs_[i].head, n - 1));
  if (!arcs_.empty()) {
    const auto [lo, hi] =
        std::minmax_element(arcs_.begin(), arcs_.end(), [](const Arc& a, const Arc& b) { return a.weight < b.weight; });
    min_weight_ = lo->weight;
    max_weight_ = hi->weight;
  }
}

WeightedGraph build_weighted(const ArcList& list) {
  if (list.vertices < 0 || list.vertices > kMaxVertices)
    throw input_error(fmt::format("arc list: {} vertices, outside 0..{}", list.vertices, kMaxVertices));
  const auto n = static_cast<std::size_t>(list.vertices);
  std::vector<EdgeIndex> offsets(n + 1, 0);
  for (std::size_t i = 0; i < list.arcs.size(); ++i) {
    const WeightedArc& a = list.arcs[i];
    if (a.tail < 0 || a.tail >= list.vertices || a.head < 0 || a.head >= list.vertices)
      throw input_error(fmt::format("arc list: arc {} ({} -> {}) names a vertex outside 0..{}", i, a.tail, a.head,
                                    list.vertices - 1));
    ++offsets[static_cast<std::size_t>(a.tail) + 1];
  }
  for (std::size_t v = 0; v < n; ++v) offsets[v + 1] += offsets[v];
  // A stable counting sort by tail: each tail's arcs keep the list's order.
  // offsets[v] serves as v's cursor and ends at v+1's start, so one shift
  // puts the starts back: no second array of n entries.
  std::vector<Arc> arcs(list.arcs.size());
  for (const WeightedArc& a : list.arcs) arcs[offsets[a.tail]++] = {a.head, a.weight};
  for (std::size_t v = n; v > 0; --v) offsets[v] = offsets[v - 1];
  offsets[0] = 0;
  return WeightedGraph(std::move(offsets), std::move(arcs));
}

ArcList arc_list(const WeightedGraph& g) {
  ArcList list{.vertices = g.vertices(), .arcs = {}};
  list.arcs.reserve(static_cast<std::size_t>(g.arc_count()));
  for (Vertex v = 0; v < g.vertices(); ++v)
    for (const Arc& a : g.out(v)) list.arcs.push_back({v, a.head, a.weight});
  return list;
}

}  // namespace ulibc::graph
