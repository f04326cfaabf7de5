// capi/state.cpp — the process-wide, immutable State behind the C API.
//
// Readers load the current State with one atomic read and never lock. A
// setter builds a new State and publishes it; old States are kept alive for
// the life of the process, because a reader on another thread may still hold
// one (they are small and replaced rarely).
#include "capi/state.hpp"

#include <atomic>
#include <memory>
#include <mutex>
#include <vector>

#include "ulibc/error.hpp"
#include "ulibc/rank_share.hpp"

namespace ulibc::capi {

namespace {

std::atomic<const State*> g_current{nullptr};
std::mutex g_mutex;  // serialises setters and owns every State ever published
std::vector<std::unique_ptr<State>>& states() {
  static std::vector<std::unique_ptr<State>> all;
  return all;
}
thread_local std::string t_last_error;

void check_threads(int nthreads) {
  if (nthreads < 0) throw input_error("thread count " + std::to_string(nthreads) + " is negative");
}

const State* publish(Topology topo, const Policy& policy, int threads) {
  auto s = std::make_unique<State>(State{std::move(topo), {}, policy.name()});
  s->map = Mapping::build(s->topo, policy, threads);
  const State* raw = s.get();
  states().push_back(std::move(s));
  g_current.store(raw, std::memory_order_release);
  return raw;
}

// Caller holds g_mutex.
const State* build(const char* fsroot, const char* policy, int nthreads) {
  check_threads(nthreads);
  const Policy p = policy ? Policy::parse(policy) : policy_from_env();
  // One of several processes an MPI launcher started on this machine: its threads go inside its share.
  Topology topo = launcher_view(Topology::load(fsroot ? fsroot : "", Detail::placement), p).topo;
  const int n = nthreads > 0 ? nthreads : threads_from_env(topo);
  return publish(std::move(topo), p, n);
}

}  // namespace

const State& current() {
  if (const State* s = g_current.load(std::memory_order_acquire)) return *s;
  std::lock_guard lock(g_mutex);
  if (const State* s = g_current.load(std::memory_order_acquire)) return *s;
  return *build(nullptr, nullptr, 0);
}

void rebuild(const char* fsroot, const char* policy, int nthreads) {
  std::lock_guard lock(g_mutex);
  build(fsroot, policy, nthreads);
}

void remap(const Policy* policy, int nthreads) {
  check_threads(nthreads);
  const State& old = current();
  std::lock_guard lock(g_mutex);
  publish(old.topo, policy ? *policy : old.map.policy(), nthreads > 0 ? nthreads : old.map.size());
}

const Placement& placement(int tid) {
  const State& s = current();
  if (tid < 0 || tid >= s.map.size())
    throw input_error("thread " + std::to_string(tid) + " is outside 0.." + std::to_string(s.map.size() - 1));
  return s.map[tid];
}

void set_last_error(const char* message) { t_last_error = message; }
const char* last_error() { return t_last_error.c_str(); }

}  // namespace ulibc::capi
