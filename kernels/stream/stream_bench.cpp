// stream/stream_bench.cpp — `ulibc bench stream`: STREAM under each placement, ordinary arrays,
// where the first touch of a bound team decides each page's node, against
// node-distributed arrays, where each node's part is bound to its node.
#include "stream/stream_bench.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <new>
#include <optional>
#include <vector>

#include "harness/memory_check.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "stream/stream.hpp"
#include "stream/verify.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/node_array.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::stream {

namespace {

using harness::BenchKernel;
using harness::Better;
using harness::RunContext;
using harness::RunResult;

constexpr std::size_t kMinSize = 2'000'000;  // STREAM's old default: a floor on machines with small caches
constexpr std::size_t kSizeGranule = 1024;
constexpr std::size_t kQuickSize = std::size_t{1} << 18;
constexpr int kDefaultReps = 10;  // STREAM's NTIMES
constexpr int kMaxReps = 200;
constexpr int kQuickReps = 3;

// STREAM's rule counts every last-level cache of the machine, since a team
// spread over the packages could hold that much of the arrays between passes.
// Topology lists each cache once, whatever number of processors share it.
std::uint64_t last_level_cache_bytes(const Topology& topo) {
  const auto holds_data = [](const Cache& c) { return c.type != "Instruction"; };
  int level = 0;
  for (const Cache& c : topo.caches())
    if (holds_data(c)) level = std::max(level, c.level);
  std::uint64_t bytes = 0;
  for (const Cache& c : topo.caches())
    if (holds_data(c) && c.level == level) bytes += c.size_bytes;
  return bytes;
}

// Each array at least 4x the last-level caches, so that no pass is served
// from cache.
std::size_t default_size(std::uint64_t llc_bytes) {
  const std::size_t n = std::max<std::size_t>(4 * llc_bytes / sizeof(double), kMinSize);
  return (n + kSizeGranule - 1) / kSizeGranule * kSizeGranule;
}

// A thread's share of the arrays: where it first touches and where it works.
using Share = std::function<Range(int thread)>;

// Ordinary arrays as STREAM has them: allocated without placement, so the
// first thread to write a page decides its node.
constexpr std::align_val_t kAlign{64};
struct AlignedDelete {
  void operator()(double* p) const { ::operator delete[](p, kAlign); }
};
using HeapArray = std::unique_ptr<double[], AlignedDelete>;
HeapArray heap_array(std::size_t n) {
  return HeapArray(static_cast<double*>(::operator new[](n * sizeof(double), kAlign)));
}

// One parallel region, timed by the master around its implicit barrier, as STREAM times.
template <class Body>
double timed_region(int threads, const Body& body) {
  const double start = harness::now_seconds();
#pragma omp parallel num_threads(threads)
  body(omp_get_thread_num());
  return harness::now_seconds() - start;
}

// In parallel, each thread its own share: pages of ordinary arrays land on
// the toucher's node. A smaller team than asked would leave elements
// unwritten, so that is an error here rather than a failed check later.
void first_touch(const Arrays& s, int threads, const Share& share) {
  int team = 0;
#pragma omp parallel num_threads(threads)
  {
    if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    initialise(s, share(omp_get_thread_num()));
  }
  ulibc::check_openmp_team_size(threads, team);
}

// STREAM's main loop on arrays already allocated: reps x the four
// operations, each timed alone; then the check of every element.
RunResult measure(std::string variant, const Arrays& s, int threads, int reps, const Share& share) {
  first_touch(s, threads, share);
  std::vector<std::vector<double>> rates(kOps.size());
  for (int rep = 0; rep < reps; ++rep)
    for (std::size_t k = 0; k < kOps.size(); ++k) {
      const Op op = kOps[k];
      const double seconds = timed_region(threads, [&](int t) { apply(op, s, share(t)); });
      rates[k].push_back(1e-6 * static_cast<double>(bytes_per_element(op) * s.n) / seconds);
    }
  RunResult result{.variant = std::move(variant)};
  for (std::size_t k = 0; k < kOps.size(); ++k)
    result.measurements.push_back(harness::measurement_of(op_name(kOps[k]), "MB/s", Better::higher, std::move(rates[k]),
                                                          harness::Summary::best_after_first));
  const Check verdict = check(s, reps);
  result.valid = verdict.valid;
  result.check = verdict.message;
  return result;
}

class StreamBench final : public BenchKernel {
 public:
  std::string name() const override { return "stream"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options
        .add("--size", size_option_,
             "Elements per array (16M = 16e6, 16Mi = 2^24); default: each array 4x the last-level caches, "
             "at least 2e6")
        .size_suffixes(true);
    options.add("--reps", reps_option_, "Repetitions, the first not counted (default 10, STREAM's NTIMES)");
    options.add("--arrays", arrays_, "Which arrays to measure under a binding policy (policy none: malloc only)")
        .one_of({"ordinary", "node", "both"})
        .show_default();
  }

  void prepare(const Topology& topo, int /*max_threads*/, bool quick) override {
    llc_bytes_ = last_level_cache_bytes(topo);
    quick_size_ = quick && !size_option_;
    n_ = size_option_.value_or(quick ? kQuickSize : default_size(llc_bytes_));
    reps_ = reps_option_.value_or(quick ? kQuickReps : kDefaultReps);
    if (n_ == 0) throw input_error("--size 0: STREAM needs at least one element per array");
    if (reps_ < 2)
      throw input_error(
          fmt::format("--reps {}: STREAM needs at least 2, since the first repetition is not counted", reps_));
    // a grows 15-fold per repetition (a = b + q c after b = q c, c = a + b): past
    // about 260 it overflows and the check would compare infinities.
    if (reps_ > kMaxReps)
      throw input_error(fmt::format("--reps {}: at most {}, beyond which STREAM's values overflow", reps_, kMaxReps));
    const std::uint64_t array_bytes = harness::saturating_mul(n_, sizeof(double));
    harness::require_memory(
        harness::saturating_mul(3, array_bytes),
        fmt::format("STREAM's three arrays of {} elements (3 x {})", n_, ulibc::format_bytes(array_bytes)));
  }

  nlohmann::ordered_json parameters() const override {
    const std::uint64_t array_bytes = n_ * sizeof(double);
    nlohmann::ordered_json p = {
        {"size", n_},        {"bytes_per_array", array_bytes}, {"total_bytes", 3 * array_bytes}, {"reps", reps_},
        {"arrays", arrays_}, {"llc_bytes", llc_bytes_}};
    // null: the topology gave no caches, so the rule could not be checked.
    p["rule"] = llc_bytes_ ? nlohmann::ordered_json(array_bytes >= 4 * llc_bytes_) : nullptr;
    if (quick_size_)
      p["note"] = "--quick: arrays below STREAM's rule of 4x the last-level caches, not a bandwidth figure";
    return p;
  }

  std::string headline() const override { return "Triad"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    const int threads = ctx.threads();
    std::vector<RunResult> results;
    if (ctx.map.policy().kind() == PolicyKind::none) {
      results.push_back(run_ordinary("malloc", threads));
      return results;
    }
    if (arrays_ != "node") results.push_back(run_ordinary("ordinary", threads));
    if (arrays_ != "ordinary") results.push_back(run_node(ctx));
    return results;
  }

 private:
  RunResult run_ordinary(const std::string& variant, int threads) const {
    const HeapArray a = heap_array(n_), b = heap_array(n_), c = heap_array(n_);
    return measure(variant, {a.get(), b.get(), c.get(), n_}, threads, reps_, [&](int t) {
      // STREAM's own loop split, so that each thread touches and works on what STREAM's would.
      return static_schedule_share(Range{0, n_}, static_cast<std::size_t>(t), static_cast<std::size_t>(threads));
    });
  }

  // The paper's Fig. 6: each node's part bound to its node, each thread on
  // its own range (which lies in its node's part).
  RunResult run_node(const RunContext& ctx) const {
    const NodeArray<double> a(ctx.topo, ctx.map, n_), b(ctx.topo, ctx.map, n_), c(ctx.topo, ctx.map, n_);
    return measure("node", {a.data(), b.data(), c.data(), n_}, ctx.threads(), reps_,
                   [&](int t) { return a.partition().thread_range(t); });
  }

  std::optional<std::uint64_t> size_option_;
  std::optional<int> reps_option_;
  std::string arrays_ = "both";
  std::size_t n_ = 0;
  int reps_ = 0;
  std::uint64_t llc_bytes_ = 0;
  bool quick_size_ = false;
};

}  // namespace

std::unique_ptr<BenchKernel> make_bench() { return std::make_unique<StreamBench>(); }

}  // namespace ulibc::stream
