// sweep_test.cpp — the harness: order of runs, the team's placement during a
// run and its release afterwards, errors kept per run, and the choice of the
// best policy. A probe kernel reports where its threads were allowed to run.
#include "harness/sweep.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <functional>
#include <map>
#include <stdexcept>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "ulibc/affinity.hpp"

namespace ulibc::harness {
namespace {

using ulibc::testing::expect_input_error;

// Records each thread's mask as the run sees it; reports a "speed" chosen per policy.
class ProbeKernel : public BenchKernel {
 public:
  std::map<std::string, double> speed_by_policy;
  std::function<void(int thread)> inside;  // runs on every team member, after the masks are read
  std::vector<std::vector<CpuSet>> masks;  // per run, per thread
  std::vector<bool> bound;

  std::string name() const override { return "probe"; }
  std::string description() const override { return "test probe"; }
  void add_options(Options&) override {}
  void prepare(const Topology&, int, bool) override {}
  nlohmann::ordered_json parameters() const override { return nlohmann::ordered_json::object(); }
  std::string headline() const override { return "speed"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    std::vector<CpuSet> seen(static_cast<std::size_t>(ctx.threads()));
#pragma omp parallel num_threads(ctx.threads())
    {
      seen[static_cast<std::size_t>(omp_get_thread_num())] = current_affinity();
      if (inside) inside(omp_get_thread_num());
    }
    masks.push_back(seen);
    bound.push_back(ctx.bound);
    const double speed =
        speed_by_policy.count(ctx.map.policy().name()) ? speed_by_policy[ctx.map.policy().name()] : 1.0;
    return {RunResult{.measurements = {Measurement{.name = "speed", .unit = "op/s", .value = speed}}, .valid = true}};
  }
};

class Sweep : public ::testing::Test {
 protected:
  void SetUp() override {
    if (topo.usable().count() < 2) GTEST_SKIP() << "needs two usable processors";
  }
  const Topology topo = Topology::load();
  Progress quiet{"probe", 0, false};
};

TEST_F(Sweep, RunsEveryPolicyAtEveryThreadCountThreadsOutermost) {
  ProbeKernel probe;
  const SweepPlan plan{.policies = {Policy(PolicyKind::none), Policy(PolicyKind::compact)}, .threads = {1, 2}};
  const auto records = run_sweep(probe, topo, plan, quiet);
  ASSERT_EQ(records.size(), 4u);
  const std::vector<std::pair<std::string, int>> expected = {{"none", 1}, {"compact", 1}, {"none", 2}, {"compact", 2}};
  for (std::size_t i = 0; i < records.size(); ++i) {
    EXPECT_EQ(records[i].policy, expected[i].first);
    EXPECT_EQ(records[i].threads, expected[i].second);
    EXPECT_TRUE(records[i].valid());
  }
}

TEST_F(Sweep, TeamRunsOnItsMappingAndIsReleasedAfterwards) {
  ProbeKernel probe;
  const CpuSet own = current_affinity();
  const SweepPlan plan{.policies = {Policy(PolicyKind::scatter), Policy(PolicyKind::none)}, .threads = {2}};
  const auto records = run_sweep(probe, topo, plan, quiet);
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 2);
  ASSERT_EQ(probe.masks.size(), 2u);
  EXPECT_TRUE(probe.bound[0]);
  for (int t = 0; t < 2; ++t) EXPECT_EQ(probe.masks[0][static_cast<std::size_t>(t)], CpuSet{map[t].proc}) << t;
  EXPECT_EQ(records[0].cpus.size(), 2u);
  // Policy none after a bound run: the same pool threads, each back on the process's mask.
  EXPECT_FALSE(probe.bound[1]);
  for (const CpuSet& mask : probe.masks[1]) EXPECT_EQ(mask, own);
  EXPECT_EQ(current_affinity(), own);
}

TEST_F(Sweep, AThreadThatMovesInvalidatesTheRun) {
  ProbeKernel probe;
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 2);
  probe.inside = [&](int thread) {
    if (thread == 1) bind_current_thread(map[0].proc);
  };
  const auto records = run_sweep(probe, topo, {.policies = {Policy(PolicyKind::scatter)}, .threads = {2}}, quiet);
  EXPECT_FALSE(records[0].valid());
  EXPECT_NE(records[0].drift.find("thread 1"), std::string::npos) << records[0].drift;
}

TEST_F(Sweep, AKernelErrorIsKeptAndTheSweepGoesOn) {
  // The first run throws (outside any parallel region, where an escaping exception would terminate).
  class Throwing : public ProbeKernel {
   public:
    int runs = 0;
    std::vector<RunResult> run(const RunContext& ctx) override {
      if (runs++ == 0) throw std::runtime_error("out of luck");
      return ProbeKernel::run(ctx);
    }
  } throwing;
  const auto records = run_sweep(throwing, topo, {.policies = {Policy(PolicyKind::compact)}, .threads = {1, 2}}, quiet);
  ASSERT_EQ(records.size(), 2u);
  EXPECT_EQ(records[0].error, "out of luck");
  EXPECT_FALSE(records[0].valid());
  EXPECT_TRUE(records[1].valid());
  EXPECT_EQ(current_affinity(), affinity_before_binding());
}

RunRecord record_with(const std::string& policy, double speed, Better better, bool valid = true) {
  Measurement m{.name = "speed", .unit = "x", .better = better, .value = speed};
  return RunRecord{.policy = policy, .threads = 4, .results = {RunResult{.measurements = {m}, .valid = valid}}};
}

TEST(ChooseBest, PicksTheFastestAndMeasuresTheMargin) {
  const std::vector<RunRecord> records = {record_with("scatter", 100, Better::higher),
                                          record_with("compact", 125, Better::higher),
                                          record_with("compact+", 110, Better::higher)};
  TuneChoice c{.threads = 4, .runs = {0, 1, 2}};
  choose_best(c, records, "speed");
  EXPECT_EQ(c.best, "compact");
  EXPECT_EQ(c.runner_up, "compact+");
  EXPECT_NEAR(c.margin, 125.0 / 110.0 - 1, 1e-12);
}

TEST(ChooseBest, LowerIsBetterForOverheads) {
  const std::vector<RunRecord> records = {record_with("scatter", 2.0, Better::lower),
                                          record_with("compact", 1.0, Better::lower)};
  TuneChoice c{.threads = 4, .runs = {0, 1}};
  choose_best(c, records, "speed");
  EXPECT_EQ(c.best, "compact");
  EXPECT_NEAR(c.margin, 1.0, 1e-12);  // the runner-up takes twice as long
}

TEST(ChooseBest, FailedRunsAreNotCandidates) {
  const std::vector<RunRecord> records = {record_with("scatter", 900, Better::higher, false),
                                          record_with("compact", 100, Better::higher)};
  TuneChoice c{.threads = 4, .runs = {0, 1}};
  choose_best(c, records, "speed");
  EXPECT_EQ(c.best, "compact");
  EXPECT_EQ(c.runner_up, "");
  ASSERT_EQ(c.notes.size(), 1u);
  EXPECT_NE(c.notes[0].find("scatter failed"), std::string::npos);

  TuneChoice none_valid{.threads = 4, .runs = {0}};
  EXPECT_THROW(choose_best(none_valid, records, "speed"), Error);
}

TEST_F(Sweep, TuneMeasuresEachDistinctPlacementOnce) {
  ProbeKernel probe;
  std::vector<RunRecord> records;
  // One thread: every candidate puts it on the first usable processor.
  const TuneChoice c = tune(probe, topo, 1, quiet, records);
  EXPECT_EQ(records.size(), 1u);
  EXPECT_EQ(c.runs, std::vector<std::size_t>{0});
  EXPECT_EQ(c.best, "scatter");
  EXPECT_EQ(c.notes.size(), 2u);
}

TEST(HeadlineOf, TakesTheBestVariant) {
  RunRecord run{.policy = "scatter", .threads = 2};
  run.results = {RunResult{.variant = "a", .measurements = {{.name = "speed", .value = 3}}, .valid = true},
                 RunResult{.variant = "b", .measurements = {{.name = "speed", .value = 5}}, .valid = true}};
  EXPECT_EQ(headline_of(run, "speed").value, 5);
  EXPECT_THROW(headline_of(run, "other"), Error);
}

TEST(ThreadCounts, RefusesNothingAndTheAbsurd) {
  testing::FakeMachine m{.cores_per_package = 2};
  const Topology topo = testing::load_fake(m);
  expect_input_error([&] { check_thread_counts({0}, topo); }, "--threads 0");
  expect_input_error([&] { check_thread_counts({-3}, topo); }, "--threads -3");
  expect_input_error([&] { check_thread_counts({1, 17}, topo); }, "--threads 17");
  expect_input_error([&] { check_thread_counts({}, topo); }, "no thread count");
  EXPECT_NO_THROW(check_thread_counts({1, 2, 16}, topo));
}

TEST(ThreadCounts, DefaultDoublesUpToEveryProcessor) {
  EXPECT_EQ(default_thread_counts(testing::load_fake({.cores_per_package = 1})), std::vector<int>{1});
  EXPECT_EQ(default_thread_counts(testing::load_fake({.cores_per_package = 6})), (std::vector<int>{1, 2, 4, 6}));
  EXPECT_EQ(default_thread_counts(testing::load_fake({.packages = 2, .cores_per_package = 4})),
            (std::vector<int>{1, 2, 4, 8}));
}

}  // namespace
}  // namespace ulibc::harness
