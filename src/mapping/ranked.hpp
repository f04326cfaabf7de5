// mapping/ranked.hpp — the dense ranks of the usable processors and a policy's order of them (internal).
//
// Shared by the mapping table (mapping.cpp) and the ranks' shares of a machine (rank_share.cpp), so that both
// read the same order.
#pragma once
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc::detail {

// A usable processor with its three dense ranks (ulibc/mapping.hpp).
struct Ranked {
  const Processor* p;
  int node_rank;
  int core_rank;
  int smt_rank;
};

// The usable processors in ascending id order, ranked.
std::vector<Ranked> rank_usable(const Topology& topo);
// The usable processors in the policy's order (none: ascending ids). Error(input) when none is usable, or when a
// list names a processor that is not.
std::vector<Ranked> order_by_policy(const Topology& topo, const Policy& policy);

}  // namespace ulibc::detail
