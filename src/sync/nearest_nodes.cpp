// sync/nearest_nodes.cpp — the order in which a thread of one node looks at the other nodes: nearest first.
#include "sync/nearest_nodes.hpp"

#include <algorithm>

namespace ulibc::detail {

namespace {

std::vector<int> index_order(int k, int nodes) {
  std::vector<int> out;
  for (int i = 1; i < nodes; ++i) out.push_back((k + i) % nodes);
  return out;
}

bool has_distances(const Topology& topo, const Mapping& map) {
  if (map.policy().kind() == PolicyKind::none) return false;
  for (int from : map.node_ids())
    for (int to : map.node_ids())
      if (topo.distance(from, to) < 0) return false;
  return true;
}

}  // namespace

std::vector<std::vector<int>> nodes_nearest_first(const Topology& topo, const Mapping& map) {
  const int nodes = map.nodes_used();
  const bool by_distance = has_distances(topo, map);
  const auto& ids = map.node_ids();
  std::vector<std::vector<int>> out;
  for (int k = 0; k < nodes; ++k) {
    std::vector<int> order = index_order(k, nodes);
    const auto dist = [&](int j) { return topo.distance(ids[k], ids[j]); };
    if (by_distance) std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return dist(a) < dist(b); });
    out.push_back(std::move(order));
  }
  return out;
}

}  // namespace ulibc::detail
