// capi/c_api.cpp — the C API over one process-wide, immutable State.
//
// Readers load the current State with one atomic read and never lock. A
// setter builds a new State and publishes it; old States are kept alive for
// the life of the process, because a reader on another thread may still hold
// one (they are small and replaced rarely).
#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "ulibc.hpp"
#include "ulibc/ulibc.h"

namespace {

struct State {
  ulibc::Topology topo;
  ulibc::Mapping map;
  std::string policy_name;
};

std::atomic<const State*> g_current{nullptr};
std::mutex g_mutex;  // serialises setters and owns every State ever published
std::vector<std::unique_ptr<State>>& states() {
  static std::vector<std::unique_ptr<State>> all;
  return all;
}
thread_local std::string t_last_error;

const State* publish(ulibc::Topology topo, const ulibc::Policy& policy, int threads) {
  auto s = std::make_unique<State>(State{std::move(topo), {}, policy.name()});
  s->map = ulibc::Mapping::build(s->topo, policy, threads);
  const State* raw = s.get();
  states().push_back(std::move(s));
  g_current.store(raw, std::memory_order_release);
  return raw;
}

const State* build(const char* fsroot, const char* policy, int nthreads) {
  if (nthreads < 0) throw ulibc::input_error("thread count " + std::to_string(nthreads) + " is negative");
  ulibc::Topology topo = ulibc::Topology::load(fsroot ? fsroot : "", ulibc::Detail::placement);
  const ulibc::Policy p = policy ? ulibc::Policy::parse(policy) : ulibc::policy_from_env();
  const int n = nthreads > 0 ? nthreads : ulibc::threads_from_env(topo);
  return publish(std::move(topo), p, n);
}

const State& current() {
  if (const State* s = g_current.load(std::memory_order_acquire)) return *s;
  std::lock_guard lock(g_mutex);
  if (const State* s = g_current.load(std::memory_order_acquire)) return *s;
  return *build(nullptr, nullptr, 0);
}

template <class F>
auto guarded(F f, decltype(f()) on_error) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    t_last_error = e.what();
  } catch (...) {
    t_last_error = "unknown error";
  }
  return on_error;
}

const ulibc::Placement& placement(int tid) {
  const State& s = current();
  if (tid < 0 || tid >= s.map.size())
    throw ulibc::input_error("thread " + std::to_string(tid) + " is outside 0.." + std::to_string(s.map.size() - 1));
  return s.map[tid];
}

ulibc::Policy policy_of(int policy) {
  switch (policy) {
    case ULIBC_SCATTER: return ulibc::Policy(ulibc::PolicyKind::scatter);
    case ULIBC_COMPACT: return ulibc::Policy(ulibc::PolicyKind::compact);
    case ULIBC_COMPACT_PLUS: return ulibc::Policy(ulibc::PolicyKind::compact_plus);
    case ULIBC_NONE: return ulibc::Policy(ulibc::PolicyKind::none);
  }
  throw ulibc::input_error("unknown policy " + std::to_string(policy) +
                           "; accepted: ULIBC_SCATTER, ULIBC_COMPACT, ULIBC_COMPACT_PLUS, ULIBC_NONE");
}

// Rebuilds the mapping on the current topology.
int remap(const ulibc::Policy* policy, int nthreads) {
  if (nthreads < 0) throw ulibc::input_error("thread count " + std::to_string(nthreads) + " is negative");
  const State& old = current();
  std::lock_guard lock(g_mutex);
  publish(old.topo, policy ? *policy : old.map.policy(), nthreads > 0 ? nthreads : old.map.size());
  return 0;
}

}  // namespace

extern "C" {

int ulibc_init(void) {
  return guarded([] { std::lock_guard lock(g_mutex); build(nullptr, nullptr, 0); return 0; }, -1);
}

int ulibc_init_with(const char* fsroot, const char* policy, int nthreads) {
  return guarded([&] { std::lock_guard lock(g_mutex); build(fsroot, policy, nthreads); return 0; }, -1);
}

const char* ulibc_last_error(void) { return t_last_error.c_str(); }

int ulibc_set_affinity_policy(int policy) {
  return guarded([&] { const auto p = policy_of(policy); return remap(&p, 0); }, -1);
}

int ulibc_set_mapping(const char* policy, int nthreads) {
  return guarded([&] {
    if (!policy) return remap(nullptr, nthreads);
    const auto p = ulibc::Policy::parse(policy);
    return remap(&p, nthreads);
  }, -1);
}

const char* ulibc_get_policy_name(void) {
  return guarded([] { return current().policy_name.c_str(); }, static_cast<const char*>(nullptr));
}

int ulibc_get_num_threads(void) { return guarded([] { return current().map.size(); }, -1); }
int ulibc_get_num_procs(void) { return guarded([] { return current().topo.usable().count(); }, -1); }
int ulibc_get_num_nodes(void) { return guarded([] { return static_cast<int>(current().topo.nodes().size()); }, -1); }
int ulibc_get_online_numa_nodes(void) { return guarded([] { return current().map.nodes_used(); }, -1); }

int ulibc_get_numa_online_cores(int node_index) {
  return guarded([&] {
    const auto& per_node = current().map.threads_per_node();
    if (node_index < 0 || node_index >= static_cast<int>(per_node.size()))
      throw ulibc::input_error("node index " + std::to_string(node_index) + " is outside 0.." +
                               std::to_string(per_node.size() - 1));
    return per_node[static_cast<std::size_t>(node_index)];
  }, -1);
}

int ulibc_get_numa_procid(int tid) { return guarded([&] { return placement(tid).proc; }, -1); }
int ulibc_get_numa_nodeid(int tid) { return guarded([&] { return placement(tid).node_index; }, -1); }
int ulibc_get_numa_node_osid(int tid) { return guarded([&] { return placement(tid).node; }, -1); }
int ulibc_get_numa_packageid(int tid) { return guarded([&] { return placement(tid).package; }, -1); }
int ulibc_get_numa_coreid(int tid) { return guarded([&] { return placement(tid).core_id; }, -1); }
int ulibc_get_numa_smtid(int tid) { return guarded([&] { return placement(tid).smt; }, -1); }
int ulibc_get_numa_ordcoreid(int tid) { return guarded([&] { return placement(tid).ordcore; }, -1); }

}  // extern "C"
