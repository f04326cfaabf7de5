// ulibc/affinity.hpp — binding threads to processors by a mapping.
//
// The first time ULIBC binds a thread it remembers the mask the thread had;
// restore_affinity() puts that mask back (the paper's clear_affinity). A
// thread created by an already-bound thread inherits the narrow mask, so bind
// the team (bind_openmp_team, run_team) before binding its master by hand.
#pragma once
#ifdef _OPENMP
#include <omp.h>
#endif

#include <functional>
#include <span>
#include <string>
#include <thread>
#include <vector>

#include "ulibc/cpuset.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc {

// Binds the calling thread to one processor / a set of processors. Throws
// Error(input) naming the processor when it is outside 0..CpuSet::kMaxId or
// the kernel refuses it (offline, or outside the process's cpuset).
void bind_current_thread(int proc);
void bind_current_thread(const CpuSet& cpus);
// Binds the calling thread to its mapping entry; nothing under policy none.
void bind_current_thread(const Placement& place);

// Puts back the mask the calling thread had before ULIBC first bound it.
// Does nothing for a thread ULIBC never bound.
void restore_affinity();

CpuSet current_affinity();         // the calling thread's mask now
CpuSet affinity_before_binding();  // its mask before ULIBC bound it (now, if never)
int current_processor();           // sched_getcpu(), -1 where unsupported

// Binding set from outside ULIBC: OpenMP's binding variables and
// a process mask narrower than the online processors (taskset, a cpuset).
struct OutsideBinding {
  std::vector<std::string> variables;  // "OMP_PROC_BIND=close", … as set
  CpuSet process_mask;                 // affinity_before_binding()
  bool narrowed = false;               // process_mask misses online processors
  bool any() const { return !variables.empty() || narrowed; }
  std::string describe() const;  // one line, "" when nothing is set
};
OutsideBinding detect_outside_binding(const Topology& topo);

// What ULIBC does when OpenMP's binding variables are set: respect them
// (leave team binding to the OpenMP runtime, the default) or override them.
// A narrowed process mask is always respected: the topology's allowed set
// already excludes what the process may not use. ULIBC_OUTSIDE_BINDING=
// respect|override chooses; a malformed value is Error(input).
enum class OutsideRule { respect, override_it };
OutsideRule outside_rule_from_env();

// The result of binding a team: whether it was bound, why not, and where each
// thread ran right after binding (sched_getcpu), by thread id.
struct TeamBinding {
  bool bound = false;
  std::string reason;  // why not bound ("" when bound)
  std::vector<int> cpus;
  // Threads whose processor differs from the mapping ("thread 3 on 5, mapped to 4").
  std::vector<std::string> mismatches(const Mapping& map) const;
};

namespace detail {
// The pieces of bind_openmp_team that need no OpenMP (so libulibc does not
// depend on one runtime): the decision, each member's binding, the checks.
TeamBinding start_openmp_binding(const Mapping& map, OutsideRule rule);
std::string bind_openmp_member(const Mapping& map, int thread, TeamBinding& binding);  // "" or the error
void finish_openmp_binding(const Mapping& map, int team_size, const std::vector<std::string>& errors);
}  // namespace detail

// Error(input) naming both counts when an OpenMP region got `team_size` threads where `nthreads` were asked
// for (OMP_THREAD_LIMIT, OMP_DYNAMIC): call it first thing in a region whose work is split by thread number.
void check_openmp_team_size(int nthreads, int team_size);

#ifdef _OPENMP
// Opens an OpenMP parallel region of map.size() threads in which each thread
// binds itself to its entry. OpenMP runtimes keep their threads for later
// regions of the same size, so those run bound too. Under policy none, or
// when OpenMP binding variables are set and the rule is respect, nothing is
// bound and `reason` says why (once also on stderr: never silently). Error
// when the runtime gives fewer threads (OMP_THREAD_LIMIT) or a bind fails.
// Inline, so it is compiled with the program's own OpenMP runtime.
inline TeamBinding bind_openmp_team(const Mapping& map, OutsideRule rule = outside_rule_from_env()) {
  TeamBinding binding = detail::start_openmp_binding(map, rule);
  std::vector<std::string> errors(static_cast<std::size_t>(map.size()));
  int team = 0;
#pragma omp parallel num_threads(map.size())
  {
    const int t = omp_get_thread_num();
    if (t == 0) team = omp_get_num_threads();
    errors[t] = detail::bind_openmp_member(map, t, binding);
  }
  detail::finish_openmp_binding(map, team, errors);
  return binding;
}

// Undoes bind_openmp_team for a team of `threads`: each member puts back the
// mask it had before ULIBC bound it. Call it with the size the team was bound
// at, before a team of another size (or policy none) runs, since the runtime's
// idle threads would otherwise keep their old processors.
inline void restore_openmp_team(int threads) {
#pragma omp parallel num_threads(threads)
  restore_affinity();
}

// bind_openmp_team for the length of a scope: the team is bound when the
// guard is made and, if it was, given back its masks (restore_openmp_team)
// when the guard goes, on every way out of the scope, exceptions included.
class ScopedOpenMPTeam {
 public:
  explicit ScopedOpenMPTeam(const Mapping& map, OutsideRule rule = outside_rule_from_env())
      : threads_(map.size()), binding_(bind_openmp_team(map, rule)) {}
  ~ScopedOpenMPTeam() {
    if (binding_.bound) restore_openmp_team(threads_);
  }
  ScopedOpenMPTeam(const ScopedOpenMPTeam&) = delete;
  ScopedOpenMPTeam& operator=(const ScopedOpenMPTeam&) = delete;

  const TeamBinding& binding() const { return binding_; }
  bool bound() const { return binding_.bound; }

 private:
  int threads_;
  TeamBinding binding_;
};
#endif

// Binds running std::threads: threads[t] to map[t] (threads.size() must equal map.size()).
void bind_threads(const Mapping& map, std::span<std::thread> threads);

// Runs body(place) on map.size() threads, each bound to its entry before the
// call: the caller is thread 0, the others are new std::threads. Restores the
// caller's mask afterwards. The first exception thrown by a body is rethrown
// after every thread has finished.
void run_team(const Mapping& map, const std::function<void(const Placement&)>& body);

}  // namespace ulibc
