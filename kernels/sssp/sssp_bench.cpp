// sssp/sssp_bench.cpp — `ulibc bench sssp`: shortest-path queries on a road graph under each placement.
//
// One query at a time or many at once.
//
// prepare() loads or generates the graph, resolves the sources and solves
// each once with sequential Dijkstra, certifying every distance array
// (sssp/verify.hpp): those checksums are what every run must reproduce.
// Variants: "many" spreads the queries over the team (the
// throughput of Yasui's APSP notes); "delta" runs each query with Δ-stepping on the whole team;
// "radix" and "binary" run each on one thread (measured at one thread only).
// --hugepages adds a twin of "many" and "delta" whose graph and state are on
// transparent huge pages, --replicate a twin of "many" with one copy of the
// graph per node, so that each effect is measured in the same run.
#include "sssp/sssp_bench.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "sssp/check_lines.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/road_problem.hpp"
#include "sssp/sssp.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sssp {

namespace {

using harness::BenchKernel;
using harness::Better;
using harness::Measurement;
using harness::RunContext;
using harness::RunResult;

constexpr int kDefaultQueries = 64;
constexpr int kQuickQueries = 8;
constexpr std::int64_t kQuickSide = 64;
constexpr std::int64_t kMaxQueries = 10'000'000;
constexpr std::size_t kReportedSources = 8;

struct Variant {
  std::string name;
  Algorithm algorithm = Algorithm::many;
  bool huge = false;
  bool replicate = false;
};

// A variant named for its algorithm, as --algorithm names them.
Variant base_variant(const std::string& name) {
  for (const Algorithm a : {Algorithm::many, Algorithm::delta, Algorithm::radix, Algorithm::binary})
    if (name == to_string(a)) return {.name = name, .algorithm = a};
  throw input_error(fmt::format("--variants: unknown variant \"{}\" (many, delta, radix, binary)", name));
}

PageKind pages_of(const Variant& v) { return v.huge ? PageKind::transparent_huge : PageKind::normal; }

class SsspBench final : public BenchKernel {
 public:
  std::string name() const override { return "sssp"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    problem_options_.add_to(options, /*point_to_point=*/false);  // the benchmark times single-source queries
    options
        .add("--variants", variant_names_,
             "many (queries spread over the team), delta (Δ-stepping per query), radix, binary (one thread)")
        .list()
        .type_name("LIST")
        .show_default();
    options.add("--delta", delta_option_, "Δ of Δ-stepping (rounded down to a power of two; 0: from the weights)")
        .show_default();
    options.flag("--hugepages", hugepages_,
                 "Also run many and delta with the graph and state on transparent huge pages");
    options.flag("--replicate", replicate_, "Also run many with one copy of the graph per NUMA node");
  }

  void prepare(const Topology& /*topo*/, int max_threads, bool quick) override {
    resolve_variants();
    ProblemOptions options = problem_options_;
    quick_graph_ = quick && options.generated() && options.generate.empty();
    if (quick_graph_) options.generate = {kQuickSide, kQuickSide};
    problem_ = load_problem(options, quick ? kQuickQueries : kDefaultQueries, kMaxQueries, max_threads);
    // Resolved here so that a Δ the weights cannot take is refused before any run.
    const Distance asked = delta_option_ ? delta_option_ : DeltaStepping::default_delta(problem_.graph.view());
    delta_ = DeltaStepping::usable_delta(problem_.graph.max_weight(), asked);
    certify_reference();
  }

  nlohmann::ordered_json parameters() const override {
    const graph::WeightedGraph& g = problem_.graph;
    std::vector<std::string> names;
    for (const Variant& v : variants_) names.push_back(v.name);
    nlohmann::ordered_json p = {{"graph", problem_.name},
                                {"vertices", g.vertices()},
                                {"arcs", g.arc_count()},
                                {"min_weight", g.min_weight()},
                                {"max_weight", g.max_weight()},
                                {"graph_bytes", g.bytes()},
                                {"load_seconds", problem_.load_seconds},
                                {"queries", problem_.sources.size()},
                                {"delta", delta_},
                                {"variants", names},
                                {"reference_seconds", reference_seconds_}};
    if (quick_graph_) p["note"] = "--quick: a small graph, not a throughput figure";
    return p;
  }

  std::string headline() const override { return "throughput"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    std::vector<RunResult> results;
    for (const Variant& v : variants_) {
      if (is_sequential(v.algorithm) && ctx.threads() > 1) continue;  // one thread's figure, whatever the team
      results.push_back(run_variant(v, ctx));
    }
    return results;
  }

 private:
  void resolve_variants() {
    variants_.clear();
    auto add = [&](Variant v) {
      if (std::none_of(variants_.begin(), variants_.end(), [&](const Variant& w) { return w.name == v.name; }))
        variants_.push_back(std::move(v));
    };
    for (const std::string& name : variant_names_) {
      const Variant v = base_variant(name);
      add(v);
      if (is_sequential(v.algorithm)) continue;
      if (hugepages_) add({.name = v.name + "-huge", .algorithm = v.algorithm, .huge = true});
      if (replicate_ && v.algorithm == Algorithm::many) {
        add({.name = "many-rep", .algorithm = v.algorithm, .replicate = true});
        if (hugepages_) add({.name = "many-rep-huge", .algorithm = v.algorithm, .huge = true, .replicate = true});
      }
    }
    if (variants_.empty()) throw input_error("--variants: name at least one");
  }

  // Every source solved once on this thread, each distance array certified exact.
  void certify_reference() {
    const harness::Timer timer;
    const graph::GraphView view = problem_.graph.view();
    Dijkstra search(view.vertices, Queue::radix_heap);
    std::vector<Distance> dist(static_cast<std::size_t>(view.vertices));
    for (const Vertex s : problem_.sources) {
      search.run(view, s, dist);
      const std::string wrong = check_distances(view, s, dist);
      if (!wrong.empty()) throw std::logic_error(fmt::format("reference Dijkstra from {}: {}", s, wrong));
      // From the certified array, not Dijkstra's running sum: the reference shares nothing with the runs.
      reference_.push_back(reach(view, dist));
    }
    reference_seconds_ = timer.seconds();
  }

  RunResult run_variant(const Variant& v, const RunContext& ctx) const {
    return result_of(v, solve_sources(problem_.graph, problem_.sources, ctx.topo, ctx.map, v.algorithm,
                                      {.delta = delta_, .pages = pages_of(v), .replicate = v.replicate}));
  }

  RunResult result_of(const Variant& v, const ManyQueryResult& batch) const {
    const std::vector<QueryRecord>& queries = batch.queries;
    const double batch_seconds = batch.seconds;
    RunResult r{.variant = v.name};
    std::vector<double> times, rates;
    for (const QueryRecord& q : queries) {
      times.push_back(q.seconds * 1e3);
      rates.push_back(q.seconds > 0 ? static_cast<double>(q.reach.arcs) / q.seconds * 1e-9 : 0);
    }
    // Throughput and GTEPS are the batch's, queries and arcs over its time,
    // not a summary of the queries' own (spread over a team, they overlap);
    // each query's rate is kept beside. The time per query is their median.
    const Measurement rate{
        .name = "throughput", .unit = "queries/s", .better = Better::higher, .value = batch.queries_per_second()};
    const Measurement teps{.name = "GTEPS",
                           .unit = "GTEPS",
                           .better = Better::higher,
                           .value = batch.teps() * 1e-9,
                           .reps = std::move(rates)};
    Measurement time = harness::measurement_of("time", "ms", Better::lower, std::move(times), harness::Summary::median);
    r.measurements = {rate, std::move(time), teps};
    check(queries, r);
    r.report = dimacs_report(queries, batch_seconds);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const QueryRecord& q : queries)
      list.push_back({{"source", q.source + 1},
                      {"checksum", q.reach.checksum},
                      {"reached", q.reach.vertices},
                      {"arcs", q.reach.arcs},
                      {"seconds", q.seconds},
                      {"thread", q.thread}});
    r.details = {{"batch_seconds", batch_seconds}, {"queries", list}};
    if (!batch.note.empty()) r.details["note"] = batch.note;
    return r;
  }

  void check(const std::vector<QueryRecord>& queries, RunResult& r) const {
    for (std::size_t i = 0; i < queries.size(); ++i) {
      if (queries[i].reach == reference_[i]) continue;
      r.valid = false;
      r.check = fmt::format("source {}: checksum {} over {} vertices, the reference's {} over {}",
                            queries[i].source + 1, queries[i].reach.checksum, queries[i].reach.vertices,
                            reference_[i].checksum, reference_[i].vertices);
      return;
    }
    r.valid = true;
    r.check = fmt::format("{} queries: every checksum equals the certified reference's", queries.size());
  }

  // The DIMACS challenge's result lines: the graph, the mean time per
  // query in ms, and each source's checksum (the first few; all in the JSON).
  std::string dimacs_report(const std::vector<QueryRecord>& queries, double batch_seconds) const {
    std::string out = graph_line(problem_.graph) +
                      fmt::format("t {:.3f}\n", batch_seconds * 1e3 / static_cast<double>(queries.size())) +
                      checksum_lines(queries, kReportedSources);
    if (queries.size() > kReportedSources)
      out += fmt::format("c ... {} more sources in the JSON record\n", queries.size() - kReportedSources);
    return out;
  }

  ProblemOptions problem_options_;
  std::vector<std::string> variant_names_ = {"many", "delta", "radix"};
  Distance delta_option_ = 0;
  bool hugepages_ = false;
  bool replicate_ = false;

  bool quick_graph_ = false;
  std::vector<Variant> variants_;
  RoadProblem problem_;
  Distance delta_ = 0;
  std::vector<Reach> reference_;
  double reference_seconds_ = 0;
};

}  // namespace

std::unique_ptr<BenchKernel> make_bench() { return std::make_unique<SsspBench>(); }

}  // namespace ulibc::sssp
