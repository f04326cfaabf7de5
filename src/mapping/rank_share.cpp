// mapping/rank_share.cpp — the processors each of the processes that share a machine takes.
#include "ulibc/rank_share.hpp"

#include <algorithm>
#include <map>
#include <string>
#include <tuple>

#include "config/environment.hpp"
#include "mapping/ranked.hpp"
#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

namespace ulibc {

namespace {

using detail::Ranked;

// A usable core: its node's rank, its rank in the node, its usable processors.
struct Core {
  int node_rank = 0;
  int core_rank = 0;
  CpuSet cpus;
};

// The usable cores, node by node and in core order within a node.
std::vector<Core> usable_cores(const Topology& topo) {
  std::map<std::pair<int, int>, Core> cores;
  for (const Ranked& r : detail::rank_usable(topo)) {
    Core& c = cores[{r.node_rank, r.core_rank}];
    c.node_rank = r.node_rank;
    c.core_rank = r.core_rank;
    c.cpus.set(r.p->id);
  }
  std::vector<Core> out;
  for (auto& [key, core] : cores) out.push_back(core);
  return out;
}

// The cores grouped by node, in node order.
using NodeCores = std::vector<std::vector<Core>>;
NodeCores by_node(const std::vector<Core>& cores) {
  NodeCores nodes(cores.empty() ? 0 : static_cast<std::size_t>(cores.back().node_rank) + 1);
  for (const Core& c : cores) nodes[c.node_rank].push_back(c);
  return nodes;
}

// The union of items [share.begin, share.end) of a list of sets.
template <typename Item, typename CpusOf>
CpuSet union_of(const std::vector<Item>& items, Range share, CpusOf cpus_of) {
  CpuSet out;
  for (std::size_t i = share.begin; i < share.end; ++i) out = out | cpus_of(items[i]);
  return out;
}

CpuSet cpus_of_core(const Core& c) { return c.cpus; }

// Rule 1: each rank nodes/K whole nodes.
std::vector<CpuSet> whole_nodes(const NodeCores& nodes, int ranks) {
  const std::size_t per_rank = nodes.size() / static_cast<std::size_t>(ranks);
  std::vector<CpuSet> out(static_cast<std::size_t>(ranks));
  for (std::size_t n = 0; n < nodes.size(); ++n)
    for (const Core& c : nodes[n]) out[n / per_rank] = out[n / per_rank] | c.cpus;
  return out;
}

// Rule 2, when every node has a core for each of its K/nodes ranks: each node's cores split evenly among them.
bool nodes_hold(const NodeCores& nodes, int ranks) {
  const std::size_t per_node = static_cast<std::size_t>(ranks) / nodes.size();
  return std::all_of(nodes.begin(), nodes.end(), [&](const auto& mine) { return mine.size() >= per_node; });
}
std::vector<CpuSet> split_nodes(const NodeCores& nodes, int ranks) {
  const std::size_t per_node = static_cast<std::size_t>(ranks) / nodes.size();
  std::vector<CpuSet> out;
  for (const std::vector<Core>& mine : nodes)
    for (std::size_t i = 0; i < per_node; ++i)
      out.push_back(union_of(mine, even_share(Range{0, mine.size()}, i, per_node), cpus_of_core));
  return out;
}

// Rule 3: the cores in the policy's order, in K runs of whole cores.
std::vector<CpuSet> split_cores(std::vector<Core> cores, const Policy& policy, int ranks) {
  if (policy.kind() == PolicyKind::scatter)
    std::stable_sort(cores.begin(), cores.end(), [](const Core& a, const Core& b) {
      return std::tie(a.core_rank, a.node_rank) < std::tie(b.core_rank, b.node_rank);
    });
  std::vector<CpuSet> out;
  const auto k = static_cast<std::size_t>(ranks);
  for (std::size_t r = 0; r < k; ++r)
    out.push_back(union_of(cores, even_share(Range{0, cores.size()}, r, k), cpus_of_core));
  return out;
}

// The order rules 4 and 5 split: the policy's, compact's for none (which still needs shares to hand out).
std::vector<Ranked> processor_order(const Topology& topo, const Policy& policy) {
  return detail::order_by_policy(topo, policy.kind() == PolicyKind::none ? Policy(PolicyKind::compact) : policy);
}

// Rules 4 and 5: the processors in order, in K runs, or one each in turn.
std::vector<CpuSet> split_processors(const std::vector<Ranked>& order, int ranks) {
  const auto k = static_cast<std::size_t>(ranks);
  const auto cpus_of = [](const Ranked& x) { return CpuSet{x.p->id}; };
  std::vector<CpuSet> out;
  for (std::size_t r = 0; r < k; ++r)
    out.push_back(k <= order.size() ? union_of(order, even_share(Range{0, order.size()}, r, k), cpus_of)
                                    : cpus_of(order[r % order.size()]));
  return out;
}

}  // namespace

RankShares rank_shares(const Topology& topo, const Policy& policy, int ranks) {
  if (ranks < 1 || ranks > Mapping::kMaxThreads)
    throw input_error("rank count " + std::to_string(ranks) + " is outside 1.." + std::to_string(Mapping::kMaxThreads));
  const std::vector<Core> cores = usable_cores(topo);
  if (cores.empty()) throw input_error("no usable processor: online ∩ allowed is empty in " + topo.fsroot());
  const NodeCores nodes = by_node(cores);
  const auto node_count = static_cast<int>(nodes.size());
  if (policy.kind() != PolicyKind::list) {  // a list is its own order: no nodes or cores to respect
    if (node_count % ranks == 0) return {whole_nodes(nodes, ranks), 1};
    if (ranks % node_count == 0 && nodes_hold(nodes, ranks)) return {split_nodes(nodes, ranks), 2};
    if (ranks <= static_cast<int>(cores.size())) return {split_cores(cores, policy, ranks), 3};
  }
  const std::vector<Ranked> order = processor_order(topo, policy);
  return {split_processors(order, ranks), ranks <= static_cast<int>(order.size()) ? 4 : 5};
}

std::optional<LocalRank> launcher_local_rank() {
  const auto found = config::launcher_local_rank();
  if (!found) return std::nullopt;
  return LocalRank{.rank = found->first, .ranks = found->second};
}

const char* RankShares::rule_name() const {
  static const char* const names[] = {
      "", "whole nodes", "nodes split by cores", "runs of whole cores", "runs of processors", "processors shared"};
  return names[rule];
}

Topology rank_view(const Topology& topo, const Policy& policy, LocalRank me) {
  return topo.restricted_to(rank_shares(topo, policy, me.ranks).cpus.at(static_cast<std::size_t>(me.rank)));
}

ProcessView launcher_view(const Topology& topo, const Policy& policy) {
  const std::optional<LocalRank> me = launcher_local_rank();
  if (!me || policy.kind() == PolicyKind::none) return {topo, std::nullopt};
  return {rank_view(topo, policy, *me), me};
}

}  // namespace ulibc
