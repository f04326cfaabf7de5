// epcc/delay.cpp — the delay every test wraps in its directive, its
// calibration to a time, and the timing of a loop against a reference
// (the parts EPCC keeps in common.c).
#include <algorithm>
#include <cmath>
#include <utility>
#include <vector>

#include "epcc/epcc.hpp"
#include "epcc/timed_loop.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"

namespace ulibc::epcc {

namespace {

constexpr int kSamples = 5;        // a median of five survives two preempted samples
constexpr double kSampleUs = 200;  // each sample averages this much of calls
constexpr std::int64_t kMaxCalls = 1 << 20;
constexpr std::int64_t kMaxLength = std::int64_t{1} << 34;  // seconds of delay: the calibration gives up there
constexpr int kConfirmingPasses = 3;

using harness::Timer;

}  // namespace

// Out of line, so that a call costs the same from every file; the chain of
// float additions cannot be shortened (no -ffast-math: addition is not
// associative), and handing the sum to an empty asm keeps it from being dropped.
[[gnu::noinline]] void delay(std::int64_t length) {
  float a = 0;
  for (std::int64_t i = 0; i < length; ++i) a += static_cast<float>(i);
  asm volatile("" : : "m"(a));
}

double delay_time_us(std::int64_t length) {
  // One call first, to size the samples: short delays are timed in bulk
  // because the clock itself costs tens of nanoseconds.
  const Timer once;
  delay(length);
  const double one_us = std::max(once.seconds() * 1e6, 0.01);
  const auto calls = std::clamp(static_cast<std::int64_t>(kSampleUs / one_us), std::int64_t{1}, kMaxCalls);
  std::vector<double> samples;
  for (int s = 0; s < kSamples; ++s) {
    const Timer timer;
    for (std::int64_t c = 0; c < calls; ++c) delay(length);
    samples.push_back(timer.seconds() * 1e6 / static_cast<double>(calls));
  }
  return harness::median(samples);
}

std::int64_t calibrate_delay(double target_us) {
  // Double the length until a call takes the target, then interpolate in the
  // last doubling: a call costs a fixed entry plus a time per addition, so
  // the time is linear in the length there.
  std::int64_t lo = 0, hi = 1;
  double t_lo = 0, t_hi = delay_time_us(hi);
  while (t_hi < target_us && hi < kMaxLength) {
    lo = hi;
    t_lo = t_hi;
    hi *= 2;
    t_hi = delay_time_us(hi);
  }
  if (lo == 0) return hi;       // the shortest delay already takes the target
  if (t_hi <= t_lo) return hi;  // noise inverted the bracket: the upper end is the safe side
  const double fraction = std::clamp((target_us - t_lo) / (t_hi - t_lo), 0.0, 1.0);
  return lo + std::llround(fraction * static_cast<double>(hi - lo));
}

namespace detail {

Timing time_loop(const TimedLoop& loop, const Repetition& rep) {
  Tally tally;
  auto pass = [&](std::int64_t n) {
    const Timer timer;
    const std::int64_t counted = loop.run(n);
    const double us = timer.seconds() * 1e6;
    tally.counted += counted;
    if (loop.expected) tally.expected += loop.expected(n);
    return us;
  };
  // EPCC's inner-rep calibration: double until a pass takes the target time.
  // Here the fastest of a few passes must reach it, since a preempted pass
  // would stop the doubling early and leave each outer rep a handful of
  // noisy inner reps; those passes double as the warm-up EPCC discards.
  auto reaches_target = [&](std::int64_t n) {
    for (int c = 0; c < kConfirmingPasses; ++c)
      if (pass(n) < rep.test_time_us) return false;
    return true;
  };
  std::int64_t n = std::max<std::int64_t>(1, loop.reps_multiple);
  while (!reaches_target(n) && n * 2 <= rep.max_inner_reps) n *= 2;

  Timing timing{.inner_reps = n};
  for (int k = 0; k < rep.outer_reps; ++k) timing.us_per_rep.push_back(pass(n) / static_cast<double>(n));
  if (loop.expected) timing.tally = tally;
  return timing;
}

Overhead measure_overhead(std::string name, const TimedLoop& test, const Timing& reference, const Repetition& rep) {
  const Timing timing = time_loop(test, rep);
  Overhead o{.name = std::move(name),
             .inner_reps = timing.inner_reps,
             .reference_us = harness::mean(reference.us_per_rep),
             .tally = timing.tally};
  // Each pass against the reference's mean, as EPCC subtracts the means;
  // the interval then covers the test's spread, the larger by far.
  for (double us : timing.us_per_rep) o.us.push_back(us - o.reference_us);
  return o;
}

}  // namespace detail

}  // namespace ulibc::epcc
