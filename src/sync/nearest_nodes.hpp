// sync/nearest_nodes.hpp — the order in which a thread of one node looks at the other nodes: nearest first.
#pragma once
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc::detail {

// By node index (the mapping's dense node ranks): the other nodes, nearest first by the topology's distances;
// ties, and machines without distances, in index order after the node itself (k+1, k+2, … wrapping round), so
// that the threads of different nodes start on different neighbours.
std::vector<std::vector<int>> nodes_nearest_first(const Topology& topo, const Mapping& map);

}  // namespace ulibc::detail
