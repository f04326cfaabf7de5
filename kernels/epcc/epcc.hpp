// epcc/epcc.hpp — EPCC's OpenMP overhead microbenchmarks (syncbench and
// schedbench, version 3), with ULIBC's NumaBarrier beside OpenMP's barrier.
//
// The method (Bull, Reid and Mc Donnell): a reference loop runs a calibrated
// delay with no directive; a test loop runs the same delay under a directive.
// Each loop repeats its body `inner reps` times, a count doubled until one
// pass takes the target test time; then `outer reps` passes are timed. A
// pass's overhead is its time per inner rep minus the reference's mean time
// per inner rep; the benchmark (epcc_bench.hpp) reports the mean over the
// passes with a 95% confidence interval, in microseconds and in cycles.
//
// Beyond timing, the loops count what they did (REDUCTION's sum, ATOMIC's,
// CRITICAL's and LOCK's counters, SINGLE's executions, the iterations of the
// scheduled loops), so a run is valid only when every count is exact: the
// check is verify.hpp. The timing of one loop, which every test shares, is
// internal (timed_loop.hpp).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc::epcc {

// ---- delay.cpp: the delay every test wraps in its directive, and its calibration.

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

// One directive's overhead: a test loop timed against a reference.
struct Overhead {
  std::string name;  // "BARRIER", "DYNAMIC 4"
  std::int64_t inner_reps = 0;
  double reference_us = 0;  // the reference's mean time per inner rep
  std::vector<double> us;   // overhead per inner rep, one per outer repetition
  std::optional<Tally> tally;
};

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

}  // namespace ulibc::epcc
