// mapping/mapping.cpp — the thread → processor table of a policy.
#include "ulibc/mapping.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <tuple>

#include "mapping/ranked.hpp"
#include "ulibc/error.hpp"

namespace ulibc {

namespace detail {

std::vector<Ranked> rank_usable(const Topology& topo) {
  // Processor::core numbers cores in (package, core_id) order, so ordering by
  // it within a node is the core rank of ulibc/mapping.hpp.
  std::map<int, std::map<int, int>> core_rank;  // node → machine-wide core → rank in the node
  for (const auto& p : topo.processors())
    if (p.usable()) core_rank[p.node][p.core] = 0;
  std::map<int, int> node_rank;
  for (auto& [node, cores] : core_rank) {
    const int r = static_cast<int>(node_rank.size());
    node_rank[node] = r;
    int c = 0;
    for (auto& [core, rank] : cores) rank = c++;
  }
  std::map<int, int> smt_seen;  // core → usable processors ranked so far
  std::vector<Ranked> out;
  for (const auto& p : topo.processors())  // ascending ids: SMT ranks follow processor ids
    if (p.usable()) out.push_back({&p, node_rank[p.node], core_rank[p.node][p.core], smt_seen[p.core]++});
  return out;
}

std::vector<Ranked> order_by_policy(const Topology& topo, const Policy& policy) {
  std::vector<Ranked> r = rank_usable(topo);
  if (r.empty()) throw input_error("no usable processor: online ∩ allowed is empty in " + topo.fsroot());
  auto by = [&](auto key) {
    std::stable_sort(r.begin(), r.end(), [&](const Ranked& a, const Ranked& b) { return key(a) < key(b); });
  };
  switch (policy.kind()) {
    case PolicyKind::scatter:
      by([](const Ranked& x) { return std::tie(x.smt_rank, x.core_rank, x.node_rank); });
      break;
    case PolicyKind::compact:
      by([](const Ranked& x) { return std::tie(x.node_rank, x.smt_rank, x.core_rank); });
      break;
    case PolicyKind::compact_plus:
      by([](const Ranked& x) { return std::tie(x.smt_rank, x.node_rank, x.core_rank); });
      break;
    case PolicyKind::list: {
      std::vector<Ranked> listed;
      for (int id : policy.order()) {
        auto it = std::find_if(r.begin(), r.end(), [&](const Ranked& x) { return x.p->id == id; });
        if (it == r.end())
          throw input_error("policy " + policy.name() + ": processor " + std::to_string(id) +
                            " is not usable (online and allowed: " + topo.usable().to_list() + ")");
        listed.push_back(*it);
      }
      return listed;
    }
    case PolicyKind::none:
      break;
  }
  return r;
}

}  // namespace detail

Mapping Mapping::build(const Topology& topo, const Policy& policy, int threads) {
  if (threads < 1 || threads > kMaxThreads)
    throw input_error("thread count " + std::to_string(threads) + " is outside 1.." + std::to_string(kMaxThreads));
  Mapping m;
  m.policy_ = policy;
  m.threads_.resize(static_cast<std::size_t>(threads));
  if (policy.kind() == PolicyKind::none) {
    for (int t = 0; t < threads; ++t) m.threads_[t] = Placement{.thread = t, .ordcore = t};
    m.threads_per_node_ = {threads};
    m.node_ids_ = {-1};
    return m;
  }
  const std::vector<detail::Ranked> order = detail::order_by_policy(topo, policy);
  std::set<int> nodes;
  std::map<int, int> uses;  // processor → threads on it
  for (int t = 0; t < threads; ++t) {
    const detail::Ranked& r = order[static_cast<std::size_t>(t) % order.size()];
    const Processor& p = *r.p;
    m.threads_[t] = Placement{.thread = t,
                              .proc = p.id,
                              .node = p.node,
                              .package = p.package,
                              .core_id = p.core_id,
                              .core_index = r.core_rank,
                              .smt = r.smt_rank};
    nodes.insert(p.node);
    if (++uses[p.id] > 1) m.oversubscribed_ = true;
  }
  m.node_ids_.assign(nodes.begin(), nodes.end());
  m.threads_per_node_.assign(m.node_ids_.size(), 0);
  for (auto& pl : m.threads_) {
    pl.node_index =
        static_cast<int>(std::lower_bound(m.node_ids_.begin(), m.node_ids_.end(), pl.node) - m.node_ids_.begin());
    pl.ordcore = m.threads_per_node_[pl.node_index]++;
  }
  return m;
}

int Mapping::max_cores_per_node() const {
  std::map<int, std::set<int>> cores;
  for (const auto& p : threads_) cores[p.node_index].insert(p.core_index);
  std::size_t most = 0;
  for (auto& [n, s] : cores) most = std::max(most, s.size());
  return policy_.kind() == PolicyKind::none ? 0 : static_cast<int>(most);
}

int Mapping::max_threads_per_core() const {
  if (policy_.kind() == PolicyKind::none) return 0;
  std::map<std::pair<int, int>, std::set<int>> procs;  // distinct processors per core
  for (const auto& p : threads_) procs[{p.node_index, p.core_index}].insert(p.proc);
  std::size_t most = 0;
  for (auto& [c, s] : procs) most = std::max(most, s.size());
  return static_cast<int>(most);
}

}  // namespace ulibc
