// harness/sweep.hpp — running a kernel under every policy and thread count.
//
// For each thread count and policy the harness builds the mapping, binds the
// OpenMP team to it (bind_openmp_team), runs the kernel, checks that every
// thread is still where it was put, and unbinds the team, so that the next
// run (policy none in particular) starts from the process's own mask.
#pragma once
#include <functional>
#include <string>
#include <vector>

#include "harness/bench_kernel.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc::harness {

struct SweepPlan {
  std::vector<Policy> policies;  // run in this order at each thread count
  std::vector<int> threads;
};

// One kernel run under one policy and thread count.
struct RunRecord {
  std::string policy;  // Policy::name()
  int threads = 0;
  std::vector<int> cpus;  // processor of each thread right after binding; empty when not bound
  std::string not_bound;  // why the team ran unbound under a binding policy (OpenMP's variables respected)
  std::string drift;      // a thread found off its processor after the run: the run measured something else
  std::string error;      // what the kernel threw; the sweep goes on, so earlier runs are not lost
  double seconds = 0;     // wall time of the run, checks included
  std::vector<RunResult> results;
  bool valid() const;  // ran, every result's check passed, and the placement held
};

// The headline figure of a run: the best of its variants' headline measurement.
// Error(system) when the kernel did not report the headline it names.
const Measurement& headline_of(const RunRecord& run, const std::string& headline);

// The choice of --policy best at one thread count.
struct TuneChoice {
  int threads = 0;
  std::vector<std::size_t> runs;   // indices, into the records, of the candidate runs
  std::string best;                // its policy name
  std::string runner_up;           // "" when there was a single distinct placement
  double margin = 0;               // how much better the best is than the runner-up (0.031 = 3.1%)
  std::vector<std::string> notes;  // "compact gives the same placement as scatter: measured once"
};

// Reports progress on stderr once a sweep has run for a few seconds, so short
// sweeps (tests, --quick) stay quiet and long ones say how far they are.
class Progress {
 public:
  Progress(std::string kernel, int total_runs, bool enabled = true);
  void finished(const RunRecord& run);

 private:
  std::string kernel_;
  int total_;
  int done_ = 0;
  bool enabled_;
  double start_;
};

// Runs plan.policies × plan.threads, thread counts outermost; records come
// back in that order, each reported to `progress` as it completes.
std::vector<RunRecord> run_sweep(BenchKernel& kernel, const Topology& topo, const SweepPlan& plan, Progress& progress);

// Ranks the valid runs of choice.runs by the headline measurement and fills
// in best, runner_up and margin; failed candidates get a note. Error(system)
// when none passed its checks.
void choose_best(TuneChoice& choice, const std::vector<RunRecord>& records, const std::string& headline);

// The policies --policy best chooses among.
std::vector<Policy> tuning_candidates();

// --policy best at `threads`: runs each candidate whose placement differs from
// those already run, appends the records to `records`, and says which won by
// the kernel's headline measurement.
TuneChoice tune(BenchKernel& kernel, const Topology& topo, int threads, Progress& progress,
                std::vector<RunRecord>& records);

// Thread counts a sweep accepts: at least 1, at most kMaxOversubscription per
// usable processor (beyond that a benchmark measures only the scheduler).
inline constexpr int kMaxOversubscription = 8;
void check_thread_counts(const std::vector<int>& threads, const Topology& topo);
// 1, 2, 4, … up to the usable processors, and that count itself.
std::vector<int> default_thread_counts(const Topology& topo);

}  // namespace ulibc::harness
