// binding/thread_binding.cpp — binding the calling thread (the paper's
// set_affinity / clear_affinity) over the OS layer's per-thread record, and
// the OS layer's errnos turned into Errors that say what was refused.
#include <cerrno>
#include <cstring>
#include <string>

#include "binding/affinity_calls.hpp"
#include "os/affinity.hpp"
#include "os/process.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc {

namespace {

void check_id(int proc) {
  if (proc < 0 || proc > CpuSet::kMaxId)
    throw input_error("processor " + std::to_string(proc) + " is outside 0.." + std::to_string(CpuSet::kMaxId));
}

// `what` names the target ("processor 3", "processors 0-3"); EINVAL is the kernel refusing the set.
void check(int err, const std::string& what) {
  if (err == 0) return;
  if (err == EINVAL)
    throw input_error("cannot bind to " + what +
                      ": the kernel refused it (offline, or outside the process's allowed processors " +
                      affinity_before_binding().to_list() + ")");
  throw system_error("sched_setaffinity(" + what + "): " + std::strerror(err));
}

std::string processors(const CpuSet& cpus) {
  if (cpus.empty()) throw input_error("cannot bind to an empty processor set");
  return "processors " + cpus.to_list();
}

CpuSet checked_mask(int err, const CpuSet& mask) {
  if (err) throw system_error(std::string("sched_getaffinity: ") + std::strerror(err));
  return mask;
}

}  // namespace

namespace detail {

CpuSet thread_affinity() {
  CpuSet mask;
  return checked_mask(os::thread_affinity(mask), mask);
}

void set_affinity(const CpuSet& cpus) {
  const std::string what = processors(cpus);
  check(os::set_current_affinity(cpus), what);
}

void bind_other_thread(pthread_t thread, int proc) {
  check_id(proc);
  check(os::bind_thread(thread, CpuSet{proc}), "processor " + std::to_string(proc));
}

void restore_thread() {
  bool restored = false;
  if (const int err = os::restore_current_thread(restored))
    throw system_error(std::string("restoring the thread's mask: ") + std::strerror(err));
}

}  // namespace detail

void bind_current_thread(int proc) {
  check_id(proc);
  check(os::bind_current_thread(CpuSet{proc}), "processor " + std::to_string(proc));
}

void bind_current_thread(const CpuSet& cpus) {
  const std::string what = processors(cpus);
  check(os::bind_current_thread(cpus), what);
}

void bind_current_thread(const Placement& place) {
  if (place.proc >= 0) bind_current_thread(place.proc);  // policy none: nothing to bind
}

void restore_affinity() { detail::restore_thread(); }

CpuSet current_affinity() { return detail::thread_affinity(); }

CpuSet affinity_before_binding() {
  CpuSet mask;
  return checked_mask(os::affinity_before_binding(mask), mask);
}

int current_processor() { return os::current_cpu().value_or(-1); }

}  // namespace ulibc
