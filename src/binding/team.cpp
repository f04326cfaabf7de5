// binding/team.cpp — binding a whole team by a mapping: an OpenMP team,
// running std::threads, or a team ULIBC starts itself (run_team).
#include <atomic>
#include <cstdio>
#include <exception>
#include <mutex>
#include <string>
#include <vector>

#include "binding/affinity_calls.hpp"
#include "config/environment.hpp"
#include "os/affinity.hpp"
#include "os/process.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc {

namespace {

void warn_once(const std::string& reason) {
  static std::once_flag once;
  std::call_once(once, [&] { std::fprintf(stderr, "ulibc: %s\n", reason.c_str()); });
}

// Why bind_openmp_team leaves binding alone, or "" when it binds.
std::string reason_not_to_bind(const Mapping& map, OutsideRule rule) {
  if (map.policy().kind() == PolicyKind::none) return "policy none: threads are not bound";
  if (rule == OutsideRule::override_it) return "";
  std::string vars;
  for (const auto& v : config::openmp_binding_settings()) vars += (vars.empty() ? "" : ", ") + v;
  if (vars.empty()) return "";
  return vars + " set: leaving thread binding to the OpenMP runtime (ULIBC_OUTSIDE_BINDING=override binds anyway)";
}

}  // namespace

std::vector<std::string> TeamBinding::mismatches(const Mapping& map) const {
  std::vector<std::string> out;
  for (const Placement& p : map.threads()) {
    const auto t = static_cast<std::size_t>(p.thread);
    const int cpu = t < cpus.size() ? cpus[t] : -1;
    if (p.proc >= 0 && cpu != p.proc)
      out.push_back("thread " + std::to_string(p.thread) + " on processor " + std::to_string(cpu) + ", mapped to " +
                    std::to_string(p.proc));
  }
  return out;
}

void check_openmp_team_size(int nthreads, int team_size) {
  if (team_size != nthreads)
    throw input_error("the OpenMP runtime gave " + std::to_string(team_size) + " threads, the mapping has " +
                      std::to_string(nthreads) + " (OMP_THREAD_LIMIT or OMP_DYNAMIC?)");
}

namespace detail {

TeamBinding start_openmp_binding(const Mapping& map, OutsideRule rule) {
  TeamBinding binding;
  binding.reason = reason_not_to_bind(map, rule);
  binding.bound = binding.reason.empty();
  if (!binding.bound && map.policy().kind() != PolicyKind::none) warn_once(binding.reason);
  binding.cpus.assign(static_cast<std::size_t>(map.size()), -1);
  return binding;
}

std::string bind_openmp_member(const Mapping& map, int thread, TeamBinding& binding) {
  std::string error;
  try {
    if (binding.bound) bind_current_thread(map[thread]);
  } catch (const std::exception& e) {
    error = e.what();
  }
  binding.cpus[thread] = os::current_cpu().value_or(-1);
  return error;
}

void finish_openmp_binding(const Mapping& map, int team_size, const std::vector<std::string>& errors) {
  check_openmp_team_size(map.size(), team_size);
  for (std::size_t t = 0; t < errors.size(); ++t)
    if (!errors[t].empty()) throw input_error("OpenMP thread " + std::to_string(t) + ": " + errors[t]);
}

}  // namespace detail

void bind_threads(const Mapping& map, std::span<std::thread> threads) {
  if (threads.size() != static_cast<std::size_t>(map.size()))
    throw input_error("bind_threads: " + std::to_string(threads.size()) + " threads for a mapping of " +
                      std::to_string(map.size()));
  for (const Placement& p : map.threads())
    if (p.proc >= 0) detail::bind_other_thread(threads[p.thread].native_handle(), p.proc);
}

void run_team(const Mapping& map, const std::function<void(const Placement&)>& body) {
  const int n = map.size();
  std::vector<std::exception_ptr> errors(static_cast<std::size_t>(n));
  auto work = [&](int t) {
    try {
      bind_current_thread(map[t]);
      body(map[t]);
    } catch (...) {
      errors[t] = std::current_exception();
    }
  };
  // Nobody starts the body until the whole team exists: a body that waits
  // for the others (a barrier) must not hang when a thread cannot start.
  enum : int { kWait, kGo, kAbort };
  std::atomic<int> start{kWait};
  auto worker = [&](int t) {
    start.wait(kWait, std::memory_order_acquire);
    if (start.load(std::memory_order_acquire) == kGo) work(t);
  };
  // The caller binds only after the others are started, so they inherit its
  // mask as it was, not its own processor.
  const bool caller_had_record = os::has_binding_record();
  const CpuSet caller_mask = detail::thread_affinity();
  {
    std::vector<std::jthread> others;
    others.reserve(static_cast<std::size_t>(n - 1));
    try {
      for (int t = 1; t < n; ++t) others.emplace_back(worker, t);
      start.store(kGo, std::memory_order_release);
    } catch (...) {
      errors[0] = std::current_exception();
      start.store(kAbort, std::memory_order_release);
    }
    start.notify_all();
    if (start.load(std::memory_order_relaxed) == kGo) work(0);
  }  // joins
  if (caller_had_record)
    detail::set_affinity(caller_mask);
  else
    detail::restore_thread();
  for (const auto& e : errors)
    if (e) std::rethrow_exception(e);
}

}  // namespace ulibc
