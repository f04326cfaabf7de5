// bfs/bfs_bench.cpp — `ulibc bench bfs`: Graph500's procedure under each placement.
//
// prepare() reads a file's tuples (kept: the validator reads them again) or
// sets up the Kronecker generator (its tuples are never held: each pass
// draws them again), and draws the search keys from a bitmap of the vertices
// with edges. Each run builds its kernel straight from the tuples for the
// run's team and placement (Graph500's kernel 1: no CSR beside the kernel's
// lists), then times and validates every search.
//
// Under an MPI launcher with more than one rank (`mpirun -n K ulibc bench bfs`) the same procedure runs across the
// ranks (bfs/distributed/): every rank places its team inside its share of its machine, draws its share of the
// tuples, and holds one block of the graph on an R x C grid of ranks; rank 0 writes the results.
#include "bfs/bfs_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <optional>

#include "bfs/distributed/graph500.hpp"
#include "bfs/distributed/traffic.hpp"
#include "bfs/graph500.hpp"
#include "graph/builder.hpp"
#include "graph/edge_io.hpp"
#include "graph/generator.hpp"
#include "graph/tuples.hpp"
#include "harness/bench_kernel.hpp"
#include "harness/memory_check.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "mpi/comm.hpp"
#include "mpi/job.hpp"
#include "mpi/rank_placement.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/process_memory.hpp"
#include "ulibc/rank_share.hpp"

namespace ulibc::bfs {

namespace {

using harness::BenchKernel;
using harness::Better;
using harness::Measurement;
using harness::require_memory;
using harness::RunContext;
using harness::RunResult;
using harness::saturating_mul;
using harness::saturating_sum;
using harness::Summary;
using harness::Timer;

constexpr int kDefaultScale = 16;
constexpr int kQuickScale = 10;
constexpr int kQuickRoots = 8;
constexpr std::uint64_t kDefaultSeed = 1;

// A variant: which kernel, searching in which direction.
struct Variant {
  const char* name;
  bool numa;
  Direction direction;
};
constexpr Variant kVariants[] = {{"do", false, Direction::optimizing},
                                 {"numa", true, Direction::optimizing},
                                 {"top-down", false, Direction::top_down},
                                 {"bottom-up", false, Direction::bottom_up}};

const Variant& variant_named(const std::string& name) {
  for (const Variant& v : kVariants)
    if (name == v.name) return v;
  throw input_error(fmt::format("--variants: unknown variant \"{}\" (do, numa, top-down, bottom-up)", name));
}

// Bytes the graph, one kernel (the variants run one at a time) and the
// validator will take at most, for refusing before allocating: a file's
// tuples (held for the validator), the kernel's arcs before the duplicates
// go (two per tuple), its offsets and top neighbours, its per-vertex state
// (parents, queue, bitmaps), the validator's 9 bytes a vertex and the keys'
// bitmap.
std::uint64_t estimated_bytes(std::uint64_t vertices, std::uint64_t tuples, bool held) {
  const std::uint64_t arcs_bytes = saturating_mul(saturating_mul(2, tuples), sizeof(Vertex));
  const std::uint64_t per_vertex = sizeof(graph::EdgeIndex) + 3 * sizeof(Vertex) + 1 + 9;
  return saturating_sum(
      {held ? saturating_mul(tuples, sizeof(graph::Edge)) : 0, arcs_bytes, saturating_mul(vertices + 1, per_vertex)});
}

// The same for one rank of a job across ranks, before anything is allocated: its arcs (2m/P, a quarter more for a
// block above the mean) received as 8-byte pairs and indexed twice at 4 bytes each, the two indices' offsets over its
// row and column blocks, its share of per-vertex state (parents, degrees, levels and marks for the validator), the
// row and column bitmaps, a round's buffers, and a file's tuples (each rank reads the file).
std::uint64_t estimated_rank_bytes(std::uint64_t vertices, std::uint64_t tuples, const distributed::GridShape& grid,
                                   bool held) {
  const std::uint64_t ranks = static_cast<std::uint64_t>(grid.rows) * static_cast<std::uint64_t>(grid.cols);
  const std::uint64_t arcs = saturating_mul(2, tuples) / ranks * 5 / 4;
  const std::uint64_t offsets = saturating_mul(
      vertices / static_cast<std::uint64_t>(grid.rows) + vertices / static_cast<std::uint64_t>(grid.cols) + 2,
      sizeof(graph::EdgeIndex) + 1);
  return saturating_sum({held ? saturating_mul(tuples, sizeof(graph::Edge)) : 0, saturating_mul(arcs, 12), offsets,
                         saturating_mul(vertices / ranks + 64, 13), saturating_mul(distributed::kRoundTuples, 48)});
}

// A rank's graph pages by node, for the ranks table: {"pages", "absent", "per_node": {"<node>": pages}}.
nlohmann::ordered_json placement_json(const PagePlacement& p) {
  nlohmann::ordered_json per_node = nlohmann::ordered_json::object();
  for (const auto& [node, pages] : p.per_node) per_node[std::to_string(node)] = pages;
  return {{"pages", p.pages}, {"absent", p.absent}, {"per_node", per_node}};
}

bool is_text_name(const std::string& path) {
  const std::string ext = std::filesystem::path(path).extension().string();
  return ext == ".el" || ext == ".txt" || ext == ".tsv";
}

// Graph500's rule: TEPS are rates, summarised by their harmonic mean (none
// when a search found no edges); times by their mean.
Measurement gteps_measurement(const std::vector<SearchRecord>& searches) {
  std::vector<double> reps;
  for (const SearchRecord& r : searches) reps.push_back(r.teps() * 1e-9);
  return harness::measurement_of("GTEPS", "GTEPS", Better::higher, std::move(reps), Summary::harmonic_mean);
}

Measurement time_measurement(const std::vector<SearchRecord>& searches) {
  std::vector<double> reps;
  for (const SearchRecord& r : searches) reps.push_back(r.seconds * 1e3);
  return harness::measurement_of("time", "ms", Better::lower, std::move(reps), Summary::mean);
}

nlohmann::ordered_json searches_json(const std::vector<SearchRecord>& searches) {
  nlohmann::ordered_json list = nlohmann::ordered_json::array();
  for (const SearchRecord& r : searches)
    list.push_back({{"root", r.root},
                    {"seconds", r.seconds},
                    {"edges", r.edges},
                    {"reached", r.reached},
                    {"depth", r.depth},
                    {"valid", r.valid},
                    {"validate_seconds", r.validate_seconds},
                    {"failure", r.failure}});
  return list;
}

std::string check_line(const std::vector<SearchRecord>& searches) {
  const auto bad = std::find_if(searches.begin(), searches.end(), [](const SearchRecord& r) { return !r.valid; });
  if (bad != searches.end()) return fmt::format("root {}: {}", bad->root, bad->failure);
  int depth = 0;
  for (const SearchRecord& r : searches) depth = std::max(depth, r.depth);
  return fmt::format("{} searches pass Graph500's 5 checks, depth <= {}", searches.size(), depth);
}

class BfsBench final : public BenchKernel {
 public:
  std::string name() const override { return "bfs"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--scale", scale_option_,
                fmt::format("Kronecker graph of 2^SCALE vertices (default {})", kDefaultScale));
    options.add("--edgefactor", edgefactor_, "Kronecker edge tuples per vertex").show_default();
    options.add("--seed", seed_, "Seed of the generator and of the search keys").show_default();
    options.add("--file", file_, "Search this edge list instead (text 'u v' lines or ULIBC binary)").type_name("FILE");
    options.add("--roots", roots_count_, "Search keys drawn among vertices with edges (Graph500: 64)").show_default();
    options.add("--root", root_option_, "Search from these vertices instead of drawn keys").list().type_name("LIST");
    options
        .add("--variants", variant_names_,
             "Kernels: do (direction-optimizing), numa (the same, NUMA-partitioned), top-down, bottom-up")
        .list()
        .type_name("LIST")
        .show_default();
    options.add("--alpha", params_.alpha, "Go bottom-up when the frontier's edges exceed 1/alpha of those left")
        .show_default();
    options.add("--beta", params_.beta, "Go back top-down when the frontier falls below 1/beta of the vertices")
        .show_default();
    options
        .add("--grid", grid_text_,
             "Under mpirun with K > 1 ranks: the R x C grid of ranks, e.g. 2x2 (default: the squarest with R >= C)")
        .type_name("RxC");
    options
        .add("--write-graph", write_graph_,
             "Also write the edge tuples to FILE (.el/.txt: text, else ULIBC binary), e.g. for other programs")
        .type_name("FILE");
  }

  void prepare(const Topology& /*topo*/, int max_threads, bool quick) override {
    job_.join();
    if (job_.across_ranks()) return prepare_across_ranks(max_threads, quick);
    check_options(quick);
    Timer generation;
    if (file_.empty()) {
      require_memory(
          estimated_bytes(std::uint64_t{1} << kron_.scale, (std::uint64_t{1} << kron_.scale) * kron_.edgefactor, false),
          fmt::format("a Kronecker graph of SCALE {} and edgefactor {} and its kernels", kron_.scale,
                      kron_.edgefactor));
      tuples_.emplace(kron_);
    } else {
      read_file();
      require_memory(
          estimated_bytes(input_.vertices, input_.edges.size(), true),
          fmt::format("{} ({} vertices, {} edges) and its kernels", file_, input_.vertices, input_.edges.size()));
      tuples_.emplace(input_);
    }
    generation_seconds_ = generation.seconds();
    resolve_roots(*tuples_, max_threads);
    if (!write_graph_.empty()) {
      // The tuples in memory for the writer: a one-off, for other programs to read.
      const graph::EdgeList written = file_.empty() ? graph::kronecker(kron_, max_threads) : graph::EdgeList{};
      const graph::EdgeList& out = file_.empty() ? written : input_;
      if (is_text_name(write_graph_))
        graph::write_text_edges(out, write_graph_);
      else
        graph::write_binary_edges(out, write_graph_);
    }
  }

  nlohmann::ordered_json parameters() const override {
    std::vector<std::string> names;
    for (const Variant* v : variants_) names.emplace_back(v->name);
    nlohmann::ordered_json p;
    if (file_.empty())
      p.update(
          {{"graph", "kronecker"}, {"scale", kron_.scale}, {"edgefactor", kron_.edgefactor}, {"seed", kron_.seed}});
    else
      p.update({{"graph", file_}});
    p.update({{"vertices", tuples_ ? tuples_->vertices() : 0}, {"input_edges", tuples_ ? tuples_->size() : 0}});
    if (arcs_ >= 0)  // known once a kernel is built
      p.update({{"arcs", arcs_},
                {"self_loops_dropped", build_report_.self_loops},
                {"duplicates_dropped", build_report_.duplicates}});
    // What the graph holds outside the kernels: a file's tuples, which the
    // validator reads; a Kronecker graph's are drawn again, never held.
    p.update({{"graph_bytes", input_.edges.size() * sizeof(graph::Edge)},
              {"graph_generation_seconds", generation_seconds_},
              {"variants", names},
              {"alpha", params_.alpha},
              {"beta", params_.beta},
              {"roots", roots_}});
    if (quick_scale_) p["note"] = "--quick: a small graph, not a TEPS figure";
    if (job_.across_ranks()) p.update({{"ranks", job_.ranks()}, {"grid", grid_.name()}});
    return p;
  }

  std::string headline() const override { return "GTEPS"; }

  Topology machine_share(const Topology& topo, const Policy& policy) override { return job_.share(topo, policy); }
  bool everywhere(bool mine) override { return job_.everywhere(mine); }
  bool writes_results() const override { return job_.rank() == 0; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    std::vector<RunResult> results;
    for (const Variant* v : variants_) {
      // Across ranks each rank's share is one NUMA node where the counts allow: the numa variant would be do.
      if (job_.across_ranks()) {
        if (!v->numa) results.push_back(run_across_ranks(*v, ctx));
        continue;
      }
      // The NUMA kernel places each part on the node of its threads: without a placement it has none.
      if (v->numa && ctx.map.policy().kind() == PolicyKind::none) continue;
      results.push_back(run_variant(*v, ctx));
    }
    return results;
  }

 private:
  void check_options(bool quick) {
    if (!file_.empty() && scale_option_) throw input_error("--file and --scale both name a graph: give one of them");
    if (!file_.empty() && !std::filesystem::is_regular_file(file_))
      throw input_error(fmt::format("--file {}: no such file", file_));
    quick_scale_ = quick && file_.empty() && !scale_option_;
    kron_ = {
        .scale = scale_option_.value_or(quick ? kQuickScale : kDefaultScale), .edgefactor = edgefactor_, .seed = seed_};
    if (file_.empty()) graph::check(kron_);
    if (quick && roots_count_ == kGraph500Roots) roots_count_ = kQuickRoots;
    if (roots_count_ < 1) throw input_error(fmt::format("--roots {}: at least one search is needed", roots_count_));
    if (!(params_.alpha > 0) || !(params_.beta > 0))
      throw input_error(fmt::format("--alpha {} --beta {}: both must be positive", params_.alpha, params_.beta));
    variants_.clear();
    for (const std::string& name : variant_names_) {
      const Variant* v = &variant_named(name);
      if (std::find(variants_.begin(), variants_.end(), v) == variants_.end()) variants_.push_back(v);
    }
    if (variants_.empty()) throw input_error("--variants: name at least one");
  }

  // Reading holds the file and its tuples (at most 2 bytes of tuple per byte of text).
  void read_file() {
    require_memory(saturating_mul(std::filesystem::file_size(file_), 3), "reading " + file_);
    input_ = graph::read_edges(file_);
  }

  // The search keys: the user's, each checked, or Graph500's random draw,
  // both from the bitmap of vertices with edges (dropped afterwards).
  void resolve_roots(const graph::Tuples& tuples, int threads) {
    const std::vector<std::uint64_t> has_edges = vertices_with_edges(tuples, threads);
    const auto with_edges = [&](std::int64_t v) { return (has_edges[v / 64] >> (v % 64)) & 1u; };
    const std::int64_t n = tuples.vertices();
    if (root_option_.empty()) {
      std::vector<Vertex> candidates;
      for (std::int64_t v = 0; v < n; ++v)
        if (with_edges(v)) candidates.push_back(static_cast<Vertex>(v));
      roots_ = choose_roots(std::move(candidates), roots_count_, kron_.seed);
      if (roots_.empty()) throw input_error("the graph has no edges: there is nothing to search");
      return;
    }
    for (const std::int64_t r : root_option_) {
      if (r < 0 || r >= n) throw input_error(fmt::format("--root {}: not a vertex of the graph (0..{})", r, n - 1));
      if (!with_edges(r))
        throw input_error(
            fmt::format("--root {}: the vertex has no edges (Graph500 searches from vertices with at least one)", r));
    }
    roots_.assign(root_option_.begin(), root_option_.end());
  }

  RunResult run_variant(const Variant& v, const RunContext& ctx) {
    Timer setup;
    const graph::Tuples& tuples = *tuples_;
    Bfs kernel = v.numa ? Bfs(tuples, ctx.topo, ctx.map, &build_report_) : Bfs(tuples, ctx.threads(), &build_report_);
    const double setup_seconds = setup.seconds();
    arcs_ = kernel.arcs();
    Params params = params_;
    params.direction = v.direction;
    const std::vector<SearchRecord> searches = run_searches(kernel, tuples, roots_, params);

    RunResult r{.variant = v.name};
    r.measurements = {gteps_measurement(searches), time_measurement(searches)};
    r.valid = std::all_of(searches.begin(), searches.end(), [](const SearchRecord& s) { return s.valid; });
    r.check = check_line(searches);
    r.report = graph500_output(report_header(v, setup_seconds), searches);
    const std::size_t bytes = input_.edges.size() * sizeof(graph::Edge) + kernel.bytes();
    r.details = {{"kernel_setup_seconds", setup_seconds},
                 {"kernel_bytes", kernel.bytes()},
                 {"bytes_per_input_edge", static_cast<double>(bytes) / static_cast<double>(tuples.size())},
                 {"searches", searches_json(searches)}};
    return r;
  }

  std::vector<std::pair<std::string, std::string>> report_header(const Variant& v, double setup_seconds) const {
    std::vector<std::pair<std::string, std::string>> h;
    if (file_.empty())
      h = {{"SCALE", std::to_string(kron_.scale)}, {"edgefactor", std::to_string(kron_.edgefactor)}};
    else
      h = {{"graph", file_},
           {"vertices", std::to_string(input_.vertices)},
           {"input_edges", std::to_string(input_.edges.size())}};
    // Generation: reading a file, or nothing for a Kronecker graph (its tuples
    // are drawn within the construction, which builds the kernel's lists).
    h.insert(h.end(), {{"kernel", v.name},
                       {"graph_generation", fmt::format("{:.6e}", generation_seconds_)},
                       {"num_mpi_processes", std::to_string(job_.ranks())},
                       {"construction_time", fmt::format("{:.6e}", setup_seconds)}});
    return h;
  }

  // Across ranks, also the grid, and per rank (in rank order) its memory and the bytes it sent per search.
  std::vector<std::pair<std::string, std::string>> report_header(const Variant& v, double setup_seconds,
                                                                 const distributed::TrafficSummary& traffic,
                                                                 const std::vector<double>& memory) const {
    const auto per_rank = [](const std::vector<double>& xs) {
      std::string line;
      for (const double x : xs) line += fmt::format("{}{:.6e}", line.empty() ? "" : " ", x);
      return line;
    };
    std::vector<std::pair<std::string, std::string>> h = report_header(v, setup_seconds);
    h.insert(h.end(), {{"grid", grid_.name()},
                       {"rank_memory_bytes", per_rank(memory)},
                       {"rank_bytes_sent_top_down", per_rank(traffic.top_down)},
                       {"rank_bytes_sent_bottom_up", per_rank(traffic.bottom_up)},
                       {"rank_bytes_sent_per_edge", per_rank(traffic.per_edge)}});
    return h;
  }

  // Rank 0 checks the options first, so that a mistake is said once; then each rank reads its input and checks
  // that its share fits, and all refuse together.
  void prepare_across_ranks(int max_threads, bool quick) {
    const MPI_Comm world = MPI_COMM_WORLD;
    mpi::together(world, [&] {
      if (job_.rank() == 0) check_options_across_ranks(quick);
    });
    if (job_.rank() != 0) check_options_across_ranks(quick);
    mpi::together(world, [&] {
      Timer generation;
      if (file_.empty()) {
        tuples_.emplace(kron_);
      } else {
        read_file();
        tuples_.emplace(input_);
      }
      generation_seconds_ = generation.seconds();
      if (tuples_->vertices() < 64 * static_cast<std::int64_t>(job_.ranks()))
        throw input_error(fmt::format("{} ranks for a graph of {} vertices: each rank needs at least 64 of them",
                                      job_.ranks(), tuples_->vertices()));
      require_rank_memory();
    });
    generation_seconds_ = mpi::max(generation_seconds_, world);
    roots_.assign(root_option_.begin(), root_option_.end());
    if (!roots_.empty()) distributed::check_roots(*tuples_, roots_, world, max_threads);
  }

  void check_options_across_ranks(bool quick) {
    check_options(quick);
    grid_ = grid_text_.empty() ? distributed::squarest_grid(job_.ranks())
                               : distributed::parse_grid(grid_text_, job_.ranks());
    if (!write_graph_.empty()) throw input_error("--write-graph writes from one process: run it without mpirun");
    for (const std::int64_t r : root_option_)
      if (r < 0 || r > INT32_MAX) throw input_error(fmt::format("--root {}: not a vertex of the graph", r));
  }

  // The ranks on one machine share its memory: each may take its part of what is available.
  void require_rank_memory() const {
    const std::uint64_t need = estimated_rank_bytes(static_cast<std::uint64_t>(tuples_->vertices()),
                                                    static_cast<std::uint64_t>(tuples_->size()), grid_, !file_.empty());
    const int here = launcher_local_rank().value_or(LocalRank{}).ranks;
    const std::uint64_t can = available_memory() / static_cast<std::uint64_t>(here);
    if (need > can)
      throw input_error(fmt::format(
          "rank {}: its share of the graph (a {} grid of {} vertices and {} tuples) and its search need {}, but the {} "
          "rank(s) on this machine can use {} each",
          job_.rank(), grid_.name(), tuples_->vertices(), tuples_->size(), format_bytes(need), here,
          format_bytes(can)));
  }

  RunResult run_across_ranks(const Variant& v, const RunContext& ctx) {
    const MPI_Comm world = MPI_COMM_WORLD;
    Timer setup;
    distributed::DistributedBfs kernel(*tuples_, world, grid_, ctx.threads(), &build_report_);
    const double setup_seconds = mpi::max(setup.seconds(), world);
    arcs_ = kernel.graph().arcs();
    if (roots_.empty()) roots_ = distributed::choose_roots(kernel, roots_count_, kron_.seed);
    if (roots_.empty()) throw input_error("the graph has no edges: there is nothing to search");
    Params params = params_;
    params.direction = v.direction;
    const std::vector<distributed::Search> runs = distributed::run_searches(kernel, *tuples_, roots_, params);
    std::vector<SearchRecord> searches;
    for (const distributed::Search& s : runs) searches.push_back(s.record);

    RunResult r{.variant = v.name};
    r.measurements = {gteps_measurement(searches), time_measurement(searches)};
    r.valid = std::all_of(searches.begin(), searches.end(), [](const SearchRecord& s) { return s.valid; });
    r.check = check_line(searches);
    const distributed::TrafficSummary traffic = distributed::summarize_traffic(runs, world);
    const std::vector<double> memory = distributed::gather_values(static_cast<double>(kernel.bytes()), world);
    const std::vector<double> built =
        distributed::gather_values(static_cast<double>(kernel.graph().traffic().sent), world);
    r.report = graph500_output(report_header(v, setup_seconds, traffic, memory), searches);
    nlohmann::ordered_json searches_record = searches_json(searches);
    const nlohmann::ordered_json levels = distributed::traffic_json(runs, world);
    for (std::size_t k = 0; k < searches.size(); ++k) searches_record[k]["levels"] = levels[k]["levels"];
    r.details = {{"kernel_setup_seconds", setup_seconds},
                 {"grid", grid_.name()},
                 {"ranks", mpi::rank_table(world, *job_.placement(), ctx.map,
                                           {{"graph_pages", placement_json(kernel.graph().placement())}})},
                 {"rank_bytes", memory},
                 {"construction_bytes_sent", built},
                 {"search_bytes_sent_top_down", traffic.top_down},
                 {"search_bytes_sent_bottom_up", traffic.bottom_up},
                 {"search_bytes_sent_per_edge", traffic.per_edge},
                 {"searches", searches_record}};
    return r;
  }

  mpi::Job job_;
  std::string grid_text_;
  distributed::GridShape grid_;

  std::optional<int> scale_option_;
  int edgefactor_ = 16;
  std::uint64_t seed_ = kDefaultSeed;
  std::string file_;
  int roots_count_ = kGraph500Roots;
  std::vector<std::int64_t> root_option_;
  std::vector<std::string> variant_names_ = {"do", "numa"};
  Params params_;
  std::string write_graph_;

  bool quick_scale_ = false;
  graph::KroneckerParams kron_;
  std::vector<const Variant*> variants_;
  graph::EdgeList input_;                // a file's tuples; empty for a Kronecker graph
  std::optional<graph::Tuples> tuples_;  // input_'s, or the generator's
  graph::BuildReport build_report_;      // of the last kernel built
  graph::EdgeIndex arcs_ = -1;           // of the last kernel built; -1 before
  std::vector<Vertex> roots_;
  double generation_seconds_ = 0;
};

}  // namespace

std::unique_ptr<BenchKernel> make_bench() { return std::make_unique<BfsBench>(); }

}  // namespace ulibc::bfs
