// heat/heat_bench.cpp — `ulibc bench heat`: time steps of the 2-D heat equation under each scheduler, with the
// steals each step took (ADWS gives a worker the same rows every step; random stealing moves them), every run's
// grid checked against the scheme's exact solution.
#include "heat/heat_bench.hpp"

#include <fmt/format.h>

#include <optional>

#include "harness/memory_check.hpp"
#include "harness/schedulers.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "heat/heat.hpp"
#include "heat/verify.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::heat {

namespace {

using harness::Better;
using harness::RunResult;

constexpr std::size_t kDefaultSide = 4096, kQuickSide = 256;
constexpr int kDefaultSteps = 50, kQuickSteps = 10;
constexpr int kDefaultReps = 3, kQuickReps = 2;

class HeatBench final : public harness::BenchKernel {
 public:
  std::string name() const override { return "heat"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--rows", rows_option_, fmt::format("Grid rows, boundary included (default {})", kDefaultSide));
    options.add("--cols", cols_option_, fmt::format("Grid columns (default {})", kDefaultSide));
    options.add("--steps", steps_option_, fmt::format("Time steps per run (default {})", kDefaultSteps));
    options.add("--grain", grain_, "Rows per leaf task").show_default();
    options.add("--reps", reps_option_, fmt::format("Runs per scheduler (default {})", kDefaultReps));
    options.add("--scheduler", schedulers_text_, harness::kSchedulerListHelp);
  }

  void prepare(const Topology&, int, bool quick) override {
    problem_.rows = rows_option_.value_or(quick ? kQuickSide : kDefaultSide);
    problem_.cols = cols_option_.value_or(quick ? kQuickSide : kDefaultSide);
    steps_ = steps_option_.value_or(quick ? kQuickSteps : kDefaultSteps);
    reps_ = reps_option_.value_or(quick ? kQuickReps : kDefaultReps);
    if (problem_.rows < 3 || problem_.cols < 3)
      throw input_error(fmt::format("--rows {} --cols {}: at least 3 each", problem_.rows, problem_.cols));
    if (steps_ < 1) throw input_error(fmt::format("--steps {}: at least 1", steps_));
    if (grain_ < 1) throw input_error("--grain 0: a leaf holds at least one row");
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least 1", reps_));
    schedulers_ = harness::scheduler_list(schedulers_text_);
    const std::uint64_t bytes = harness::saturating_mul(harness::saturating_mul(problem_.rows, problem_.cols), 8);
    harness::require_memory(
        harness::saturating_mul(2, bytes),
        fmt::format("heat's two grids of {} x {} (2 x {})", problem_.rows, problem_.cols, ulibc::format_bytes(bytes)));
  }

  nlohmann::ordered_json parameters() const override {
    return {{"rows", problem_.rows},
            {"cols", problem_.cols},
            {"steps", steps_},
            {"grain", grain_},
            {"rx", problem_.rx},
            {"ry", problem_.ry},
            {"reps", reps_},
            {"schedulers", schedulers_text_},
            {"total_bytes", 2 * problem_.rows * problem_.cols * sizeof(double)}};
  }

  std::string headline() const override { return "step"; }

  std::vector<RunResult> run(const harness::RunContext& ctx) override {
    return harness::run_per_scheduler(
        ctx, schedulers_, [&](tasks::Runtime& rt) { return measure(rt); }, true);
  }

 private:
  RunResult measure(tasks::Runtime& rt) const {
    std::vector<double> step_ms, steals;
    Check verdict{true, ""};
    for (int r = 0; r < reps_ && verdict.valid; ++r) {
      Grids g(problem_);
      rt.run([&] { initialise(g, grain_); });
      rt.reset_statistics();
      harness::Timer t;
      rt.run([&] { heat::run(g, steps_, grain_); });
      step_ms.push_back(t.seconds() * 1e3 / steps_);
      std::uint64_t stolen = 0;
      for (const auto& w : rt.statistics().workers) stolen += w.steals_in_node + w.steals_across_nodes;
      steals.push_back(static_cast<double>(stolen) / steps_);
      verdict = check_grid(problem_, g.current(), steps_);
    }
    RunResult result;
    result.measurements.push_back(
        harness::measurement_of("step", "ms", Better::lower, std::move(step_ms), harness::Summary::median));
    result.measurements.push_back(
        harness::measurement_of("steals", "per step", Better::lower, std::move(steals), harness::Summary::median));
    result.valid = verdict.valid;
    result.check = verdict.message;
    return result;
  }

  std::optional<std::size_t> rows_option_, cols_option_;
  std::optional<int> steps_option_, reps_option_;
  std::size_t grain_ = 16;
  std::string schedulers_text_ = "random,hierarchical,adws";
  Problem problem_;
  int steps_ = 0, reps_ = 0;
  std::vector<tasks::Scheduler> schedulers_;
};

}  // namespace

std::unique_ptr<harness::BenchKernel> make_bench() { return std::make_unique<HeatBench>(); }

}  // namespace ulibc::heat
