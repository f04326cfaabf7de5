// epcc_test.cpp — the EPCC kernel: its delay, its timing method, its runs
// and its own check. Nothing here asserts speed: the tests share two cores
// with others and run under sanitizers, so timings are only checked for
// direction and, loosely, for scale.
#include "epcc/epcc.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "epcc/epcc_bench.hpp"
#include "epcc/timed_loop.hpp"
#include "epcc/verify.hpp"
#include "expect_error.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::harness {
namespace {

using ulibc::testing::expect_input_error;

std::vector<std::string> sync_names() {
  return {"PARALLEL", "FOR",         "PARALLEL FOR", "BARRIER",   "SINGLE",
          "CRITICAL", "LOCK/UNLOCK", "ATOMIC",       "REDUCTION", "ULIBC BARRIER"};
}

std::vector<std::string> schedule_names(const std::vector<int>& chunks) {
  std::vector<std::string> names{"STATIC"};
  for (const char* kind : {"STATIC", "DYNAMIC", "GUIDED"})
    for (int c : chunks) names.push_back(std::string(kind) + " " + std::to_string(c));
  return names;
}

std::vector<std::string> names_of(const RunResult& r) {
  std::vector<std::string> names;
  for (const Measurement& m : r.measurements) names.push_back(m.name);
  return names;
}

// A kernel parsed from `args` and prepared in quick mode for `threads`.
std::unique_ptr<BenchKernel> quick_kernel(const Topology& topo, const std::string& args = "", int threads = 2) {
  auto kernel = epcc::make_bench();
  ulibc::harness::parse_options([&](ulibc::harness::Options& o) { kernel->add_options(o); }, args);
  kernel->prepare(topo, threads, true);
  return kernel;
}

void expect_sound(const RunResult& r, int outer_reps) {
  EXPECT_TRUE(r.valid) << r.check;
  EXPECT_EQ(r.variant, "");
  EXPECT_NE(r.check.find("counters exact"), std::string::npos) << r.check;
  for (const Measurement& m : r.measurements) {
    SCOPED_TRACE(m.name);
    EXPECT_EQ(m.unit, "us");
    EXPECT_EQ(m.better, Better::lower);
    ASSERT_EQ(m.reps.size(), static_cast<std::size_t>(outer_reps));
    EXPECT_DOUBLE_EQ(m.value, mean(m.reps));
    EXPECT_TRUE(std::isfinite(m.ci95));
    EXPECT_GE(m.ci95, 0);
    if (cycles_per_microsecond() > 0) {
      ASSERT_EQ(m.also.size(), 1u);
      EXPECT_EQ(m.also[0].first, "cycles");
      EXPECT_DOUBLE_EQ(m.also[0].second, m.value * cycles_per_microsecond());
    }
  }
}

// ---- the delay

TEST(EpccDelay, IsNotOptimisedAway) {
  // 256 times the additions must take several times longer, whatever the noise.
  EXPECT_GT(epcc::delay_time_us(1 << 18), 8 * epcc::delay_time_us(1 << 10));
}

TEST(EpccDelay, CalibrationFollowsTheTarget) {
  const std::int64_t short_length = epcc::calibrate_delay(1.0);
  const std::int64_t long_length = epcc::calibrate_delay(10.0);
  EXPECT_GE(short_length, 1);
  EXPECT_GT(long_length, 2 * short_length);
  const double measured = epcc::delay_time_us(long_length);
  EXPECT_GT(measured, 10.0 / 5);
  EXPECT_LT(measured, 10.0 * 5);
}

TEST(EpccDelay, TinyTargetsGiveTheShortestDelay) { EXPECT_EQ(epcc::calibrate_delay(1e-9), 1); }

// ---- the timing method

TEST(EpccTiming, InnerRepsDoubleFromTheMultipleUpToTheCap) {
  int passes = 0;
  const epcc::detail::TimedLoop empty{.run =
                                          [&](std::int64_t reps) {
                                            ++passes;
                                            return reps;
                                          },
                                      .expected = [](std::int64_t reps) { return reps; },
                                      .reps_multiple = 3};
  // An empty loop never reaches a day's target: only the cap stops the doubling.
  const epcc::detail::Timing t =
      epcc::detail::time_loop(empty, {.outer_reps = 4, .test_time_us = 86400e6, .max_inner_reps = 3 << 10});
  EXPECT_EQ(t.inner_reps, 3 << 10);
  EXPECT_EQ(t.us_per_rep.size(), 4u);
  EXPECT_EQ(passes, 11 + 4);  // 3·2^0 … 3·2^10, then the outer reps
  ASSERT_TRUE(t.tally.has_value());
  EXPECT_TRUE(t.tally->exact());
}

TEST(EpccTiming, OverheadIsEachPassAgainstTheReferenceMean) {
  const epcc::detail::TimedLoop slow{.run = [](std::int64_t reps) {
    epcc::delay(reps * 2000);
    return std::int64_t{0};
  }};
  const epcc::detail::Timing reference{.inner_reps = 1, .us_per_rep = {1e-3, 3e-3}};
  const epcc::Overhead o =
      epcc::detail::measure_overhead("SLOW", slow, reference, {.outer_reps = 3, .test_time_us = 50});
  EXPECT_EQ(o.name, "SLOW");
  EXPECT_DOUBLE_EQ(o.reference_us, 2e-3);
  EXPECT_EQ(o.us.size(), 3u);
  EXPECT_GE(o.inner_reps, 1);
  EXPECT_FALSE(o.tally.has_value());  // counts nothing: no tally to check
}

// ---- the check

TEST(EpccCheck, FindsAWrongCountAndANonFiniteOverhead) {
  const Topology topo = Topology::load();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::none), 1);
  std::vector<epcc::Overhead> overheads =
      epcc::sync_overheads(map, epcc::calibrate_delay(0.1), {.outer_reps = 2, .test_time_us = 20});
  const epcc::Check good = epcc::check_overheads(overheads);
  EXPECT_TRUE(good.valid) << good.message;
  EXPECT_EQ(good.message, "counters exact in 6 tests; 10 overheads finite");

  auto critical = std::find_if(overheads.begin(), overheads.end(), [](const auto& o) { return o.name == "CRITICAL"; });
  ASSERT_NE(critical, overheads.end());
  ASSERT_TRUE(critical->tally.has_value());
  critical->tally->counted -= 1;  // one lost update, as a broken critical section would lose it
  const epcc::Check miscounted = epcc::check_overheads(overheads);
  EXPECT_FALSE(miscounted.valid);
  EXPECT_NE(miscounted.message.find("CRITICAL counted"), std::string::npos) << miscounted.message;

  critical->tally->counted += 1;
  overheads.front().us.back() = std::numeric_limits<double>::quiet_NaN();
  const epcc::Check nan = epcc::check_overheads(overheads);
  EXPECT_FALSE(nan.valid);
  EXPECT_EQ(nan.message, "PARALLEL overhead not finite");
}

// ---- the kernel

TEST(EpccBench, DescribesItself) {
  auto kernel = quick_kernel(Topology::load());
  EXPECT_EQ(kernel->name(), "epcc");
  EXPECT_EQ(kernel->headline(), "BARRIER");
  const auto p = kernel->parameters();
  EXPECT_EQ(p["outer_reps"], 5);
  EXPECT_EQ(p["test_time_us"], 100.0);
  EXPECT_EQ(p["chunks"], nlohmann::ordered_json({1, 128}));
  EXPECT_EQ(p["delay_time_us"], 0.1);
  EXPECT_GE(p["delay_length"].get<std::int64_t>(), 1);
  EXPECT_GE(p["schedule_delay_length"].get<std::int64_t>(), p["delay_length"].get<std::int64_t>());
}

TEST(EpccBench, ExplicitOptionsWinOverQuick) {
  auto kernel = quick_kernel(Topology::load(), "--outer-reps 3 --test-time 50 --chunks 8,2,8 --iters-per-thread 4");
  const auto p = kernel->parameters();
  EXPECT_EQ(p["outer_reps"], 3);
  EXPECT_EQ(p["test_time_us"], 50.0);
  EXPECT_EQ(p["chunks"], nlohmann::ordered_json({2, 8}));
  EXPECT_EQ(p["iters_per_thread"], 4);
}

TEST(EpccBench, RefusesBadOptions) {
  const Topology topo = Topology::load();
  expect_input_error([&] { quick_kernel(topo, "--outer-reps 1"); }, "--outer-reps 1");
  expect_input_error([&] { quick_kernel(topo, "--test-time 0"); }, "--test-time 0");
  expect_input_error([&] { quick_kernel(topo, "--delay-time -1"); }, "--delay-time -1");
  expect_input_error([&] { quick_kernel(topo, "--schedule-delay-time 1e9"); }, "--schedule-delay-time");
  expect_input_error([&] { quick_kernel(topo, "--chunks 4,0"); }, "--chunks 0");
  expect_input_error([&] { quick_kernel(topo, "--iters-per-thread 0"); }, "--iters-per-thread 0");
  expect_input_error([&] { quick_kernel(topo, "--tests sync,locks"); }, "--tests locks");
}

TEST(EpccBench, OneUnboundThread) {
  const Topology topo = Topology::load();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::none), 1);
  auto kernel = quick_kernel(topo, "", 1);
  const auto results = kernel->run({.topo = topo, .map = map, .bound = false});
  ASSERT_EQ(results.size(), 1u);
  std::vector<std::string> expected = sync_names();
  for (const auto& name : schedule_names({1, 128})) expected.push_back(name);
  EXPECT_EQ(names_of(results[0]), expected);
  expect_sound(results[0], 5);
  EXPECT_TRUE(kernel->parameters()["inner_reps"].contains("none, 1 thread"));
}

TEST(EpccBench, TwoThreadsBoundByScatter) {
  const Topology topo = Topology::load();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 2);
  auto kernel = quick_kernel(topo);
  std::vector<RunResult> results;
  {
    const ScopedOpenMPTeam team(map);
    results = kernel->run({.topo = topo, .map = map, .bound = team.bound()});
  }
  ASSERT_EQ(results.size(), 1u);
  std::vector<std::string> expected = sync_names();
  for (const auto& name : schedule_names({1, 128})) expected.push_back(name);
  EXPECT_EQ(names_of(results[0]), expected);
  expect_sound(results[0], 5);
}

TEST(EpccBench, OnlyTheGroupsAndChunksAsked) {
  const Topology topo = Topology::load();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::none), 2);
  auto kernel = quick_kernel(topo, "--tests schedule --chunks 4,1 --outer-reps 2");
  EXPECT_EQ(kernel->headline(), "STATIC");
  const auto results = kernel->run({.topo = topo, .map = map, .bound = false});
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(names_of(results[0]), schedule_names({1, 4}));
  expect_sound(results[0], 2);
  EXPECT_EQ(results[0].check, "counters exact in 7 tests; 7 overheads finite");
}

}  // namespace
}  // namespace ulibc::harness
