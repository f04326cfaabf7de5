// spawn/spawn_bench.cpp — `ulibc bench spawn`: the task runtime's cost per task under each scheduler, by fib
// without a cutoff, fib with one, and a linear spawn tree, every answer checked.
#include "spawn/spawn_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "harness/schedulers.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "spawn/spawn.hpp"
#include "spawn/verify.hpp"
#include "ulibc/error.hpp"

namespace ulibc::spawn {

namespace {

using harness::Better;
using harness::RunResult;

constexpr int kDefaultFib = 32, kQuickFib = 16, kMaxFib = 45;  // fib(45): 3.7e9 tasks, minutes
constexpr int kDefaultCutoff = 20;
constexpr std::uint64_t kDefaultLinear = 1'000'000, kQuickLinear = 10'000, kMaxLinear = 1'000'000'000;
constexpr int kDefaultReps = 5, kQuickReps = 2;

class SpawnBench final : public harness::BenchKernel {
 public:
  std::string name() const override { return "spawn"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--fib", fib_option_, fmt::format("n of fib(n), a task per call (default {})", kDefaultFib));
    options.add(
        "--cutoff", cutoff_option_,
        fmt::format("fib with calls below this made serially (default {}, or --fib − 4 when less)", kDefaultCutoff));
    options.add("--linear", linear_option_,
                fmt::format("Children of the linear spawn tree (default {})", kDefaultLinear));
    options.add("--reps", reps_option_, fmt::format("Repetitions of each (default {})", kDefaultReps));
    options.add("--scheduler", schedulers_text_, harness::kSchedulerListHelp);
  }

  void prepare(const Topology&, int, bool quick) override {
    fib_ = fib_option_.value_or(quick ? kQuickFib : kDefaultFib);
    linear_ = linear_option_.value_or(quick ? kQuickLinear : kDefaultLinear);
    reps_ = reps_option_.value_or(quick ? kQuickReps : kDefaultReps);
    if (fib_ < 2 || fib_ > kMaxFib) throw input_error(fmt::format("--fib {}: from 2 to {}", fib_, kMaxFib));
    cutoff_ = cutoff_option_.value_or(std::max(2, std::min(kDefaultCutoff, fib_ - 4)));
    if (cutoff_ < 2 || cutoff_ > fib_)
      throw input_error(fmt::format("--cutoff {}: from 2 to --fib ({})", cutoff_, fib_));
    if (linear_ < 1 || linear_ > kMaxLinear)
      throw input_error(fmt::format("--linear {}: from 1 to {}", linear_, kMaxLinear));
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least 1", reps_));
    schedulers_ = harness::scheduler_list(schedulers_text_);
  }

  nlohmann::ordered_json parameters() const override {
    return {{"fib", fib_},   {"fib_tasks", fib_calls(fib_) - 1}, {"cutoff", cutoff_}, {"linear", linear_},
            {"reps", reps_}, {"schedulers", schedulers_text_}};
  }

  std::string headline() const override { return "fib"; }

  std::vector<RunResult> run(const harness::RunContext& ctx) override {
    return harness::run_per_scheduler(ctx, schedulers_, [&](tasks::Runtime& rt) { return measure(rt); });
  }

 private:
  RunResult measure(tasks::Runtime& rt) const {
    std::vector<double> fib_ns, cutoff_ms, linear_ns;
    std::vector<Check> checks;
    const double tasks = static_cast<double>(fib_calls(fib_) - 1);
    for (int r = 0; r < reps_; ++r) {
      harness::Timer t;
      const std::uint64_t f = rt.run([&] { return fib(fib_); });
      fib_ns.push_back(t.seconds() * 1e9 / tasks);
      checks.push_back(check_fib(fib_, f));
      t.restart();
      const std::uint64_t g = rt.run([&] { return fib_cutoff(fib_, cutoff_); });
      cutoff_ms.push_back(t.seconds() * 1e3);
      checks.push_back(check_fib(fib_, g));
      t.restart();
      const std::uint64_t l = rt.run([&] { return linear(linear_); });
      linear_ns.push_back(t.seconds() * 1e9 / static_cast<double>(linear_));
      checks.push_back(check_linear(linear_, l));
    }
    RunResult result;
    result.measurements.push_back(
        harness::measurement_of("fib", "ns/task", Better::lower, std::move(fib_ns), harness::Summary::median));
    result.measurements.push_back(
        harness::measurement_of("fib-cutoff", "ms", Better::lower, std::move(cutoff_ms), harness::Summary::median));
    result.measurements.push_back(
        harness::measurement_of("linear", "ns/task", Better::lower, std::move(linear_ns), harness::Summary::median));
    result.valid = true;
    result.check = checks.front().message + ", " + checks.back().message;
    for (const Check& c : checks)
      if (!c.valid) {
        result.valid = false;
        result.check = c.message;
        break;
      }
    return result;
  }

  std::optional<int> fib_option_, cutoff_option_, reps_option_;
  std::optional<std::uint64_t> linear_option_;
  int cutoff_ = 0;
  std::string schedulers_text_ = "random,hierarchical,adws";
  int fib_ = 0, reps_ = 0;
  std::uint64_t linear_ = 0;
  std::vector<tasks::Scheduler> schedulers_;
};

}  // namespace

std::unique_ptr<harness::BenchKernel> make_bench() { return std::make_unique<SpawnBench>(); }

}  // namespace ulibc::spawn
