// cilksort/cilksort_bench.cpp — `ulibc bench cilksort`: Cilksort of random 64-bit keys under each scheduler, every
// sort checked against std::sort of the same keys.
#include "cilksort/cilksort_bench.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "cilksort/cilksort.hpp"
#include "cilksort/verify.hpp"
#include "harness/memory_check.hpp"
#include "harness/schedulers.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::cilksort {

namespace {

using harness::Better;
using harness::RunResult;

constexpr std::uint64_t kDefaultSize = 100'000'000, kQuickSize = 100'000;
constexpr int kDefaultReps = 3, kQuickReps = 2;

// An array the sort's workers touch first (new[] leaves it untouched), so that its pages land where the fill's
// loop put each part: under ADWS the same workers the sort then gives those keys to.
using Keys = std::unique_ptr<std::uint64_t[]>;

class CilksortBench final : public harness::BenchKernel {
 public:
  std::string name() const override { return "cilksort"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--size", size_option_, fmt::format("Keys to sort (default {}; 1M = 1e6)", kDefaultSize))
        .size_suffixes(true);
    options.add("--cutoff", cutoffs_.sort, "Pieces of at most this many keys are sorted serially").show_default();
    options.add("--merge-cutoff", cutoffs_.merge, "Merges of at most this many keys run serially").show_default();
    options.add("--reps", reps_option_, fmt::format("Sorts per scheduler (default {})", kDefaultReps));
    options.add("--seed", seed_, "Seed of the keys (SplitMix64)").show_default();
    options.add("--scheduler", schedulers_text_, harness::kSchedulerListHelp);
  }

  void prepare(const Topology&, int, bool quick) override {
    n_ = size_option_.value_or(quick ? kQuickSize : kDefaultSize);
    reps_ = reps_option_.value_or(quick ? kQuickReps : kDefaultReps);
    if (n_ < 1) throw input_error("--size 0: at least one key");
    if (cutoffs_.sort < 4 || cutoffs_.merge < 4)
      throw input_error(
          fmt::format("--cutoff {} / --merge-cutoff {}: at least 4 keys each", cutoffs_.sort, cutoffs_.merge));
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least 1", reps_));
    schedulers_ = harness::scheduler_list(schedulers_text_);
    const std::uint64_t bytes = harness::saturating_mul(n_, sizeof(std::uint64_t));
    harness::require_memory(
        harness::saturating_mul(3, bytes),
        fmt::format("Cilksort's keys, buffer and reference order of {} keys (3 x {})", n_, ulibc::format_bytes(bytes)));
    reference_.clear();
  }

  nlohmann::ordered_json parameters() const override {
    return {{"size", n_},
            {"cutoff", cutoffs_.sort},
            {"merge_cutoff", cutoffs_.merge},
            {"reps", reps_},
            {"seed", seed_},
            {"schedulers", schedulers_text_},
            {"key_bytes", 8},
            {"total_bytes", 3 * n_ * sizeof(std::uint64_t)}};
  }

  std::string headline() const override { return "sort"; }

  std::vector<RunResult> run(const harness::RunContext& ctx) override {
    return harness::run_per_scheduler(ctx, schedulers_, [&](tasks::Runtime& rt) { return measure(rt); });
  }

 private:
  RunResult measure(tasks::Runtime& rt) {
    const Keys keys(new std::uint64_t[n_]), buffer(new std::uint64_t[n_]);
    const std::span<std::uint64_t> k(keys.get(), n_), b(buffer.get(), n_);
    std::vector<double> seconds;
    Check verdict{true, ""};
    for (int r = 0; r < reps_ && verdict.valid; ++r) {
      rt.run([&] { fill_random(k, seed_); });
      if (reference_.empty()) reference_ = reference_order(k);
      harness::Timer t;
      rt.run([&] { sort(k, b, cutoffs_); });
      seconds.push_back(t.seconds());
      verdict = check_sorted(k, reference_);
    }
    RunResult result;
    harness::Measurement m = harness::measurement_of("sort", "s", Better::lower, seconds, harness::Summary::median);
    m.also.emplace_back("Mkeys/s", static_cast<double>(n_) / m.value * 1e-6);
    result.measurements.push_back(std::move(m));
    result.valid = verdict.valid;
    result.check = verdict.message;
    return result;
  }

  std::optional<std::uint64_t> size_option_;
  std::optional<int> reps_option_;
  Cutoffs cutoffs_;
  std::uint64_t seed_ = 1;
  std::string schedulers_text_ = "random,hierarchical,adws";
  std::uint64_t n_ = 0;
  int reps_ = 0;
  std::vector<tasks::Scheduler> schedulers_;
  std::vector<std::uint64_t> reference_;  // the keys in order, made at the first run and kept for the others
};

}  // namespace

std::unique_ptr<harness::BenchKernel> make_bench() { return std::make_unique<CilksortBench>(); }

}  // namespace ulibc::cilksort
