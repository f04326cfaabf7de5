// epcc/timed_loop.hpp — the timing of one loop against a reference, which every EPCC test shares (internal).
//
// EPCC's common.c: the inner reps calibrated to the test time, the outer reps
// timed, the overhead taken against the reference's mean. The tests of
// sync_overheads.cpp and schedule_overheads.cpp are loops handed to these.
#pragma once
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "epcc/epcc.hpp"

namespace ulibc::epcc::detail {

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

// The one routine every test goes through.
Overhead measure_overhead(std::string name, const TimedLoop& test, const Timing& reference, const Repetition& rep);

}  // namespace ulibc::epcc::detail
