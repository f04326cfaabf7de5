// epcc/epcc_bench.cpp — `ulibc bench epcc`: EPCC's overheads as a kernel of
// the harness. Options are resolved in prepare (which also calibrates the delays,
// once, so that every policy and thread count runs the same delay); a run
// measures the chosen groups on the bound team and checks their counts.
#include "epcc/epcc_bench.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <optional>
#include <set>

#include "epcc/epcc.hpp"
#include "epcc/verify.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::epcc {

namespace {

using harness::BenchKernel;
using harness::Measurement;
using harness::RunContext;
using harness::RunResult;

// EPCC v3: syncbench's delay, schedbench's delay and iterations per thread,
// and both programs' repetitions.
constexpr double kSyncDelayUs = 0.1;
constexpr double kScheduleDelayUs = 15;
constexpr int kItersPerThread = 128;
constexpr int kOuterReps = 20;
constexpr double kTestTimeUs = 1000;
const std::vector<int> kChunks{1, 2, 4, 8, 16, 32, 64, 128};
// --quick: one run at 2 threads in well under a second.
constexpr int kQuickOuterReps = 5;
constexpr double kQuickTestTimeUs = 100;
constexpr int kQuickItersPerThread = 8;
const std::vector<int> kQuickChunks{1, 128};
// A delay past this measures only itself, and its calibration takes seconds.
constexpr double kMaxDelayUs = 1e5;

Measurement to_measurement(const Overhead& o, double cycles_per_us) {
  Measurement m = harness::measurement_of(o.name, "us", harness::Better::lower, o.us, harness::Summary::mean);
  if (cycles_per_us > 0) m.also.emplace_back("cycles", m.value * cycles_per_us);
  return m;
}

double checked_time(const std::optional<double>& given, double fallback, const char* option) {
  const double us = given.value_or(fallback);
  if (!(us > 0 && std::isfinite(us)))
    throw input_error(fmt::format("{} {}: a time in microseconds above 0 is needed", option, us));
  return us;
}

double checked_delay(const std::optional<double>& given, double fallback, const char* option) {
  const double us = checked_time(given, fallback, option);
  if (us > kMaxDelayUs)
    throw input_error(fmt::format("{} {}: delays up to {} us are measured", option, us, kMaxDelayUs));
  return us;
}

class EpccBench final : public BenchKernel {
 public:
  std::string name() const override { return "epcc"; }
  std::string description() const override { return kBenchSummary; }
  void add_options(harness::Options& options) override;
  void prepare(const Topology& topo, int max_threads, bool quick) override;
  nlohmann::ordered_json parameters() const override;
  // OpenMP's barrier is what ULIBC's is measured against; without the
  // synchronisation group the plain static schedule stands in.
  std::string headline() const override { return schedule_ && !sync_ ? "STATIC" : "BARRIER"; }
  std::vector<RunResult> run(const RunContext& ctx) override;

 private:
  void resolve_tests();

  // As given on the command line; empty when not given.
  std::optional<double> delay_us_, schedule_delay_us_, test_time_us_;
  std::optional<int> iters_per_thread_, outer_reps_;
  std::vector<std::string> tests_;
  std::vector<int> chunks_;
  // Resolved by prepare.
  bool sync_ = true, schedule_ = true;
  Repetition rep_;
  Schedules schedules_;
  double delay_time_us_ = kSyncDelayUs, schedule_delay_time_us_ = kScheduleDelayUs;
  std::int64_t delay_length_ = 0;
  double delay_measured_us_ = 0, schedule_delay_measured_us_ = 0;
  double cycles_per_us_ = 0;
  nlohmann::ordered_json inner_reps_ = nlohmann::ordered_json::object();  // of the latest run per placement
};

void EpccBench::add_options(harness::Options& options) {
  options.add("--delay-time", delay_us_, "Delay in the synchronisation tests, us (default 0.1)");
  options.add("--schedule-delay-time", schedule_delay_us_,
              "Delay per iteration in the scheduling tests, us (default 15)");
  options.add("--iters-per-thread", iters_per_thread_,
              "Loop iterations per thread in the scheduling tests (default 128)");
  options.add("--outer-reps", outer_reps_, "Timed repetitions of each test (default 20)");
  options.add("--test-time", test_time_us_, "Target time of one repetition, us (default 1000)");
  options.add("--tests", tests_, "Test groups: sync, schedule (default both)").list();
  options.add("--chunks", chunks_, "Chunk sizes of the scheduling tests (default 1,2,4,...,128)").list();
}

void EpccBench::resolve_tests() {
  if (tests_.empty()) return;
  sync_ = schedule_ = false;
  for (const std::string& t : tests_) {
    if (t == "sync")
      sync_ = true;
    else if (t == "schedule")
      schedule_ = true;
    else
      throw input_error(fmt::format("--tests {}: the groups are sync and schedule", t));
  }
}

void EpccBench::prepare(const Topology& /*topo*/, int /*max_threads*/, bool quick) {
  resolve_tests();
  rep_.outer_reps = outer_reps_.value_or(quick ? kQuickOuterReps : kOuterReps);
  if (rep_.outer_reps < 2)
    throw input_error(fmt::format("--outer-reps {}: at least 2 are needed for a confidence interval", rep_.outer_reps));
  rep_.test_time_us = checked_time(test_time_us_, quick ? kQuickTestTimeUs : kTestTimeUs, "--test-time");
  delay_time_us_ = checked_delay(delay_us_, kSyncDelayUs, "--delay-time");
  schedule_delay_time_us_ = checked_delay(schedule_delay_us_, kScheduleDelayUs, "--schedule-delay-time");
  schedules_.iters_per_thread = iters_per_thread_.value_or(quick ? kQuickItersPerThread : kItersPerThread);
  if (schedules_.iters_per_thread < 1)
    throw input_error(fmt::format("--iters-per-thread {}: at least 1 is needed", schedules_.iters_per_thread));
  const std::vector<int>& chunks = !chunks_.empty() ? chunks_ : quick ? kQuickChunks : kChunks;
  for (int c : chunks)
    if (c < 1) throw input_error(fmt::format("--chunks {}: chunk sizes must be at least 1", c));
  const std::set<int> distinct(chunks.begin(), chunks.end());
  schedules_.chunks.assign(distinct.begin(), distinct.end());

  // Calibrated once, before any team is bound, so every run delays alike.
  if (sync_) {
    delay_length_ = calibrate_delay(delay_time_us_);
    delay_measured_us_ = delay_time_us(delay_length_);
  }
  if (schedule_) {
    schedules_.delay_length = calibrate_delay(schedule_delay_time_us_);
    schedule_delay_measured_us_ = delay_time_us(schedules_.delay_length);
  }
  cycles_per_us_ = harness::cycles_per_microsecond();  // measured now: its 20 ms sleep must not fall in a run
}

nlohmann::ordered_json EpccBench::parameters() const {
  nlohmann::ordered_json p;
  p["tests"] = nlohmann::ordered_json::array();
  if (sync_) {
    p["tests"].push_back("sync");
    p["delay_time_us"] = delay_time_us_;
    p["delay_length"] = delay_length_;
    p["delay_measured_us"] = delay_measured_us_;
  }
  if (schedule_) {
    p["tests"].push_back("schedule");
    p["schedule_delay_time_us"] = schedule_delay_time_us_;
    p["schedule_delay_length"] = schedules_.delay_length;
    p["schedule_delay_measured_us"] = schedule_delay_measured_us_;
    p["iters_per_thread"] = schedules_.iters_per_thread;
    p["chunks"] = schedules_.chunks;
  }
  p["outer_reps"] = rep_.outer_reps;
  p["test_time_us"] = rep_.test_time_us;
  p["cycles_per_microsecond"] = cycles_per_us_;
  p["inner_reps"] = inner_reps_;
  return p;
}

std::vector<RunResult> EpccBench::run(const RunContext& ctx) {
  const int n = ctx.threads();
  // NumaBarrier waits for n arrivals and the shared-out tests divide by n:
  // a smaller team (OMP_THREAD_LIMIT, OMP_DYNAMIC) would hang or miscount.
  int team = 0;
#pragma omp parallel num_threads(n)
#pragma omp single
  team = omp_get_num_threads();
  ulibc::check_openmp_team_size(n, team);

  std::vector<Overhead> overheads;
  if (sync_) overheads = sync_overheads(ctx.map, delay_length_, rep_);
  if (schedule_)
    for (auto& o : schedule_overheads(n, schedules_, rep_)) overheads.push_back(std::move(o));

  RunResult result;
  nlohmann::ordered_json reps;
  for (const Overhead& o : overheads) {
    result.measurements.push_back(to_measurement(o, cycles_per_us_));
    reps[o.name] = o.inner_reps;
  }
  const Check verdict = check_overheads(overheads);
  result.valid = verdict.valid;
  result.check = verdict.message;
  inner_reps_[fmt::format("{}, {} thread{}", ctx.map.policy().name(), n, n == 1 ? "" : "s")] = std::move(reps);
  return {std::move(result)};
}

}  // namespace

std::unique_ptr<BenchKernel> make_bench() { return std::make_unique<EpccBench>(); }

}  // namespace ulibc::epcc
