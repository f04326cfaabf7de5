// simpath/simpath_bench.cpp — `ulibc bench simpath`: Simpath's time under each placement.
//
// The ULIBC paper's Fig. 12 (time of the edge-based search against threads,
// per policy) for each grid given, and its Fig. 13 (time against grid size)
// when several are: each grid is a variant, and the record tells the plot to
// draw against the grid size. Every run's count is checked against OEIS
// A007764 where known (verify.hpp), and against the other repetitions always.
#include "simpath/simpath_bench.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "graph/edge_io.hpp"
#include "harness/bench_kernel.hpp"
#include "harness/stats.hpp"
#include "simpath/simpath.hpp"
#include "simpath/verify.hpp"
#include "ulibc/error.hpp"

namespace ulibc::simpath {

namespace {

using harness::BenchKernel;
using harness::Measurement;
using harness::RunContext;
using harness::RunResult;

constexpr int kDefaultGrid = 10;
constexpr int kQuickGrid = 5;
constexpr int kDefaultReps = 3;

struct Instance {
  std::string variant;  // "K=12", or the file's name
  int cells = 0;        // 0: from a file
  PathProblem problem;
};

// Times are compared by their median: one slow repetition on a shared machine moves it least.
Measurement seconds_measurement(std::string name, std::vector<double> reps) {
  return harness::measurement_of(std::move(name), "s", harness::Better::lower, std::move(reps),
                                 harness::Summary::median);
}

class SimpathBench final : public BenchKernel {
 public:
  std::string name() const override { return "simpath"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--grid", grids_, fmt::format("Grids of K x K cells, one variant each (default {})", kDefaultGrid))
        .list()
        .type_name("LIST");
    options.add("--file", file_, "Count the paths of this edge list instead (with --s and --t)").type_name("FILE");
    options.add("--s", s_, "With --file: the first end of the paths");
    options.add("--t", t_, "With --file: the other end");
    options.add("--order", order_name_, "Edge order: auto, input, bfs or greedy (ulibc simpath --help)").show_default();
    options.add("--reps", reps_, "Repetitions of each count (the median is reported)").show_default();
    options
        .add("--memory-limit", memory_limit_,
             "Stop a search that would hold more than SIZE (default: the memory available)")
        .size_suffixes(false)
        .type_name("SIZE");
  }

  void prepare(const Topology& /*topo*/, int /*max_threads*/, bool quick) override {
    order_ = edge_order_named(order_name_);
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least one repetition is needed", reps_));
    if (quick && reps_ == kDefaultReps) reps_ = 1;
    instances_.clear();
    if (!file_.empty()) {
      if (!grids_.empty()) throw input_error("--file and --grid both name a graph: give one of them");
      if (s_ < 0 || t_ < 0) throw input_error("--file needs --s and --t, the ends of the paths");
      instances_.push_back({.variant = std::filesystem::path(file_).filename().string(),
                            .problem = graph_problem(graph::read_edges(file_), s_, t_, file_)});
      return;
    }
    if (grids_.empty()) grids_ = {quick ? kQuickGrid : kDefaultGrid};
    for (int k : grids_)
      instances_.push_back({.variant = fmt::format("K={}", k), .cells = k, .problem = grid_problem(k, k)});
  }

  nlohmann::ordered_json parameters() const override {
    nlohmann::ordered_json p = {{"order", edge_order_name(order_)}, {"reps", reps_}};
    if (!file_.empty()) {
      p.update({{"graph", file_}, {"s", s_}, {"t", t_}});
    } else {
      p["grids"] = grids_;
      // Several sizes: plot time against the size (the paper's Fig. 13).
      if (grids_.size() > 1) {
        nlohmann::ordered_json x = {{"label", "grid size K (K x K cells)"},
                                    {"values", nlohmann::ordered_json::object()}};
        for (const Instance& in : instances_) x["values"][in.variant] = in.cells;
        p["plot_x"] = x;
      }
    }
    if (memory_limit_ != 0) p["memory_limit"] = memory_limit_;
    return p;
  }

  std::string headline() const override { return "time"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    std::vector<RunResult> results;
    for (const Instance& in : instances_) results.push_back(run_instance(in, ctx));
    return results;
  }

 private:
  RunResult run_instance(const Instance& in, const RunContext& ctx) const {
    std::vector<double> total, build, reduce;
    std::vector<std::string> counts;
    Result last;
    for (int rep = 0; rep < reps_; ++rep) {
      last = solve(in.problem, {.order = order_, .threads = ctx.threads(), .memory_limit = memory_limit_});
      total.push_back(last.seconds());
      build.push_back(last.build_seconds);
      reduce.push_back(last.reduce_seconds);
      counts.push_back(last.count);
    }
    RunResult r{.variant = in.variant};
    r.measurements = {seconds_measurement("time", total), seconds_measurement("search", build),
                      seconds_measurement("reduce", reduce)};
    const char* known = in.cells > 0 ? oeis_grid_paths(in.cells) : nullptr;
    const bool agree = std::all_of(counts.begin(), counts.end(), [&](const std::string& c) { return c == counts[0]; });
    r.valid = agree && (known == nullptr || counts[0] == known);
    if (!agree)
      r.check = fmt::format("the repetitions disagree: {} and {}", counts.front(), counts.back());
    else if (known == nullptr)
      r.check = fmt::format("{} paths (no reference; repetitions agree)", counts[0]);
    else
      r.check = fmt::format("{} paths{}", counts[0],
                            r.valid ? " = OEIS A007764" : fmt::format(", OEIS A007764 says {}", known));
    r.details = {
        {"count", last.count},          {"order", edge_order_name(last.order)}, {"states", last.total_states()},
        {"zdd_nodes", last.zdd.size()}, {"max_frontier", last.max_frontier},    {"search_peak_bytes", last.peak_bytes}};
    return r;
  }

  std::vector<int> grids_;
  std::string file_;
  graph::Vertex s_ = -1, t_ = -1;
  std::string order_name_ = "auto";
  int reps_ = kDefaultReps;
  std::uint64_t memory_limit_ = 0;

  EdgeOrder order_ = EdgeOrder::automatic;
  std::vector<Instance> instances_;
};

}  // namespace

std::unique_ptr<BenchKernel> make_bench() { return std::make_unique<SimpathBench>(); }

}  // namespace ulibc::simpath
