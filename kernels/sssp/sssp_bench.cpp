// sssp/sssp_bench.cpp — `ulibc bench sssp`: shortest-path queries on a road
// graph under each placement, one query at a time or many at once.
//
// prepare() loads or generates the graph, settles the sources and solves
// each once with sequential Dijkstra, certifying every distance array
// (sssp/verify.hpp): those checksums are what every run must reproduce.
// Variants: "many" spreads the queries over the team (seed 004's
// throughput); "delta" runs each query with Δ-stepping on the whole team;
// "radix" and "binary" run each on one thread (measured at one thread only).
// --hugepages adds a twin of "many" and "delta" whose graph and state are on
// transparent huge pages, --replicate a twin of "many" with one copy of the
// graph per node, so that each effect is measured in the same run.
#include "sssp/sssp_bench.hpp"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>

#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/many_query.hpp"
#include "sssp/road_problem.hpp"
#include "ulibc/error.hpp"

namespace ulibc::harness {

namespace {

using graph::Distance;
using sssp::Queue;
using sssp::Reach;
using sssp::Vertex;

constexpr int kDefaultQueries = 64;
constexpr int kQuickQueries = 8;
constexpr std::int64_t kQuickSide = 64;
constexpr std::int64_t kMaxQueries = 10'000'000;
constexpr std::size_t kReportedSources = 8;

enum class Mode { many, delta, sequential };

struct Variant {
  std::string name;
  Mode mode = Mode::many;
  Queue queue = Queue::radix_heap;
  bool huge = false;
  bool replicate = false;
};

Variant base_variant(const std::string& name) {
  if (name == "many") return {.name = name, .mode = Mode::many};
  if (name == "delta") return {.name = name, .mode = Mode::delta};
  if (name == "radix") return {.name = name, .mode = Mode::sequential, .queue = Queue::radix_heap};
  if (name == "binary") return {.name = name, .mode = Mode::sequential, .queue = Queue::binary_heap};
  throw input_error(fmt::format("--variants: unknown variant \"{}\" (many, delta, radix, binary)", name));
}

PageKind pages_of(const Variant& v) { return v.huge ? PageKind::transparent_huge : PageKind::normal; }

class SsspBench final : public BenchKernel {
 public:
  std::string name() const override { return "sssp"; }
  std::string description() const override {
    return "Shortest paths on road graphs: many-query Dijkstra throughput, Δ-stepping, DIMACS checksums";
  }

  void add_options(CLI::App& app) override {
    problem_options_.add_to(app, /*point_to_point=*/false);  // the benchmark times single-source queries
    app.add_option("--variants", variant_names_,
                   "many (queries spread over the team), delta (Δ-stepping per query), radix, binary (one thread)")
        ->delimiter(',')
        ->type_name("LIST")
        ->capture_default_str();
    app.add_option("--delta", delta_option_, "Δ of Δ-stepping (rounded down to a power of two; 0: from the weights)")
        ->capture_default_str();
    app.add_flag("--hugepages", hugepages_,
                 "Also run many and delta with the graph and state on transparent huge pages");
    app.add_flag("--replicate", replicate_, "Also run many with one copy of the graph per NUMA node");
  }

  void prepare(const Topology& /*topo*/, int max_threads, bool quick) override {
    settle_variants();
    sssp::ProblemOptions options = problem_options_;
    quick_graph_ = quick && options.generated() && options.generate.empty();
    if (quick_graph_) options.generate = {kQuickSide, kQuickSide};
    problem_ = sssp::load_problem(options, quick ? kQuickQueries : kDefaultQueries, kMaxQueries, max_threads);
    // Settled here so that a Δ the weights cannot take is refused before any run.
    const Distance asked = delta_option_ ? delta_option_ : sssp::DeltaStepping::default_delta(problem_.graph.view());
    delta_ = sssp::DeltaStepping::usable_delta(problem_.graph.max_weight(), asked);
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
      if (v.mode == Mode::sequential && ctx.threads() > 1) continue;  // one thread's figure, whatever the team
      results.push_back(run_variant(v, ctx));
    }
    return results;
  }

 private:
  void settle_variants() {
    variants_.clear();
    auto add = [&](Variant v) {
      if (std::none_of(variants_.begin(), variants_.end(), [&](const Variant& w) { return w.name == v.name; }))
        variants_.push_back(std::move(v));
    };
    for (const std::string& name : variant_names_) {
      const Variant v = base_variant(name);
      add(v);
      if (v.mode == Mode::sequential) continue;
      if (hugepages_) add({.name = v.name + "-huge", .mode = v.mode, .huge = true});
      if (replicate_ && v.mode == Mode::many) {
        add({.name = "many-rep", .mode = v.mode, .replicate = true});
        if (hugepages_) add({.name = "many-rep-huge", .mode = v.mode, .huge = true, .replicate = true});
      }
    }
    if (variants_.empty()) throw input_error("--variants: name at least one");
  }

  // Every source solved once on this thread, each distance array certified exact.
  void certify_reference() {
    const Timer timer;
    const graph::GraphView view = problem_.graph.view();
    sssp::Dijkstra search(view.vertices, Queue::radix_heap);
    std::vector<Distance> dist(static_cast<std::size_t>(view.vertices));
    for (const Vertex s : problem_.sources) {
      search.run(view, s, dist);
      const std::string wrong = sssp::check_distances(view, s, dist);
      if (!wrong.empty()) throw std::logic_error(fmt::format("reference Dijkstra from {}: {}", s, wrong));
      // From the certified array, not Dijkstra's running sum: the reference shares nothing with the runs.
      reference_.push_back(sssp::reach(view, dist));
    }
    reference_seconds_ = timer.seconds();
  }

  RunResult run_variant(const Variant& v, const RunContext& ctx) const {
    const sssp::ManyQueryResult r =
        v.mode == Mode::many
            ? sssp::run_many_queries(problem_.graph, problem_.sources, ctx.topo, ctx.map,
                                     {.queue = Queue::radix_heap, .pages = pages_of(v), .replicate = v.replicate})
            : sssp::run_queries_in_turn(problem_.graph, problem_.sources, ctx.topo, ctx.map,
                                        {.delta_stepping = v.mode == Mode::delta, .queue = v.queue, .delta = delta_,
                                         .pages = pages_of(v)});
    return result_of(v, r);
  }

  RunResult result_of(const Variant& v, const sssp::ManyQueryResult& batch) const {
    const std::vector<sssp::QueryRecord>& queries = batch.queries;
    const double batch_seconds = batch.seconds;
    RunResult r{.variant = v.name};
    Measurement rate{.name = "throughput", .unit = "queries/s", .better = Better::higher};
    Measurement time{.name = "time", .unit = "ms", .better = Better::lower};
    Measurement teps{.name = "GTEPS", .unit = "GTEPS", .better = Better::higher};
    double arcs = 0;
    for (const sssp::QueryRecord& q : queries) {
      time.reps.push_back(q.seconds * 1e3);
      teps.reps.push_back(q.seconds > 0 ? static_cast<double>(q.reach.arcs) / q.seconds * 1e-9 : 0);
      arcs += static_cast<double>(q.reach.arcs);
    }
    rate.value = batch_seconds > 0 ? static_cast<double>(queries.size()) / batch_seconds : 0;
    time.value = median(time.reps);
    time.ci95 = ci95_half_width(time.reps);
    teps.value = batch_seconds > 0 ? arcs / batch_seconds * 1e-9 : 0;
    r.measurements = {rate, time, teps};
    check(queries, r);
    r.report = dimacs_report(queries, batch_seconds);
    nlohmann::ordered_json list = nlohmann::ordered_json::array();
    for (const sssp::QueryRecord& q : queries)
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

  void check(const std::vector<sssp::QueryRecord>& queries, RunResult& r) const {
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
  std::string dimacs_report(const std::vector<sssp::QueryRecord>& queries, double batch_seconds) const {
    const graph::WeightedGraph& g = problem_.graph;
    std::string out = fmt::format("g {} {} {} {}\nt {:.3f}\n", g.vertices(), g.arc_count(), g.min_weight(),
                                  g.max_weight(), batch_seconds * 1e3 / static_cast<double>(queries.size()));
    for (std::size_t i = 0; i < queries.size() && i < kReportedSources; ++i)
      out += fmt::format("d {} {}\n", queries[i].source + 1, queries[i].reach.checksum);
    if (queries.size() > kReportedSources)
      out += fmt::format("c ... {} more sources in the JSON record\n", queries.size() - kReportedSources);
    return out;
  }

  sssp::ProblemOptions problem_options_;
  std::vector<std::string> variant_names_ = {"many", "delta", "radix"};
  Distance delta_option_ = 0;
  bool hugepages_ = false;
  bool replicate_ = false;

  bool quick_graph_ = false;
  std::vector<Variant> variants_;
  sssp::RoadProblem problem_;
  Distance delta_ = 0;
  std::vector<Reach> reference_;
  double reference_seconds_ = 0;
};

}  // namespace

std::unique_ptr<BenchKernel> make_sssp_bench() { return std::make_unique<SsspBench>(); }

}  // namespace ulibc::harness
