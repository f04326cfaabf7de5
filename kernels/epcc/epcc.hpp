// epcc/epcc.hpp — EPCC's OpenMP overhead microbenchmarks (syncbench and
// schedbench, version 3), with ULIBC's NumaBarrier beside OpenMP's barrier.
//
// The method (Bull, Reid and Mc Donnell): a reference loop runs a calibrated
// delay with no directive; a test loop runs the same delay under a directive.
// Each loop repeats its body `inner reps` times, a count doubled until one
// pass takes the target test time; then `outer reps` passes are timed. A
// pass's overhead is its time per inner rep minus the reference's mean time
// per inner rep; the kernel reports the mean over the passes with a 95%
// confidence interval, in microseconds and in cycles.
//
// Beyond timing, the loops count what they did (REDUCTION's sum, ATOMIC's,
// CRITICAL's and LOCK's counters, SINGLE's executions, the iterations of the
// scheduled loops), so a run is valid only when every count is exact.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/bench_kernel.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc::harness {

// `ulibc bench epcc`: the synchronisation and scheduling overheads.
std::unique_ptr<BenchKernel> make_epcc_bench();

namespace epcc {

// ---- delay.cpp: the delay, and the calibrated repetition every test shares.

// `length` dependent floating-point additions; never optimised away.
void delay(std::int64_t length);
// Median time of one delay(length) call, in microseconds.
double delay_time_us(std::int64_t length);
// The length whose delay takes about target_us (at least 1).
std::int64_t calibrate_delay(double target_us);

struct Repetition {
  int outer_reps = 20;
  double test_time_us = 1000;             // one pass of the inner reps takes about this
  std::int64_t max_inner_reps = 1 << 24;  // so a loop the compiler emptied cannot double forever
};

// What a loop counted against what a correct run counts.
struct Tally {
  std::int64_t counted = 0;
  std::int64_t expected = 0;
  bool exact() const { return counted == expected; }
};

// One reference or test loop. run(n) performs n inner repetitions on the
// calling (master) thread's team and returns what it counted; expected(n)
// is that count in a correct run, empty when the loop counts nothing.
struct TimedLoop {
  std::function<std::int64_t(std::int64_t)> run;
  std::function<std::int64_t(std::int64_t)> expected;
  std::int64_t reps_multiple = 1;  // inner reps stay a multiple of this (loops dividing them among threads)
};

struct Timing {
  std::int64_t inner_reps = 0;
  std::vector<double> us_per_rep;  // one per outer repetition
  std::optional<Tally> tally;      // over every pass, calibration included; empty when the loop counts nothing
};
// Doubles the inner reps, from reps_multiple, until three passes in a row
// take the test time (or the cap is reached), then times the outer reps.
Timing time_loop(const TimedLoop& loop, const Repetition& rep);

// One directive's overhead: a test loop timed against a reference.
struct Overhead {
  std::string name;  // "BARRIER", "DYNAMIC 4"
  std::int64_t inner_reps = 0;
  double reference_us = 0;  // the reference's mean time per inner rep
  std::vector<double> us;   // overhead per inner rep, one per outer repetition
  std::optional<Tally> tally;
};
// The one routine every test goes through.
Overhead measure_overhead(std::string name, const TimedLoop& test, const Timing& reference, const Repetition& rep);

// ---- sync_overheads.cpp: PARALLEL, FOR, PARALLEL FOR, BARRIER, SINGLE,
// CRITICAL, LOCK/UNLOCK, ATOMIC, REDUCTION and ULIBC BARRIER (a NumaBarrier
// grouped by the mapping's nodes), on a team of map.size() threads.
std::vector<Overhead> sync_overheads(const Mapping& map, std::int64_t delay_length, const Repetition& rep);

// ---- schedule_overheads.cpp: STATIC, then STATIC/DYNAMIC/GUIDED per chunk.
struct Schedules {
  std::int64_t delay_length = 1;
  int iters_per_thread = 128;
  std::vector<int> chunks;
};
std::vector<Overhead> schedule_overheads(int threads, const Schedules& schedules, const Repetition& rep);

// ---- epcc_bench.cpp: the run's own check.
struct Verdict {
  bool valid = false;
  std::string line;  // "counters exact in 23 tests; 34 overheads finite", or what failed
};
// Every tally exact and every overhead finite.
Verdict check_overheads(std::span<const Overhead> overheads);

}  // namespace epcc
}  // namespace ulibc::harness
