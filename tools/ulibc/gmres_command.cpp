// gmres_command.cpp — `[mpirun -n K] ulibc gmres`: solve A x = b with GMRES(m) on MPI, tuned at run time.
//
// A thin front end over kernels/gmres: it places each rank and its threads (mpi/rank_placement.hpp), reads or
// generates the matrix on rank 0, scatters it, solves, recomputes the true residual with the verifier, and reports
// on rank 0: a summary or --json's record, --output's solution, --plot's time split. Exit status 0 when the true
// residual reached --tol, 3 when it did not (the residual reached is printed), 2 for bad input, 1 otherwise.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "commands.hpp"
#include "gmres/gmres.hpp"
#include "gmres/verify.hpp"
#include "io/file_io.hpp"
#include "mpi/comm.hpp"
#include "mpi/rank_placement.hpp"
#include "mpi_command.hpp"
#include "plot.hpp"
#include "sparse/convection_diffusion.hpp"
#include "sparse/matrix_market.hpp"
#include "ulibc/affinity.hpp"

namespace ulibc::cli {

namespace {

constexpr int kExitNotConverged = 3;

struct GmresOptions {
  PlacementOptions placement;
  std::string matrix, generate, rhs, output, json, plot, mpi_profile, tuning_file;
  std::optional<harness::Option> json_opt;
  double tol = 1e-8;
  long max_iterations = 10000;
  gmres::KnobWords knobs;
  std::string ilu_blocks = "rank";
  int poly_degree = 3;
};

gmres::Options solver_options(const GmresOptions& o) {
  if (o.matrix.empty() == o.generate.empty())
    throw input_error("give the matrix: --matrix FILE.mtx or --generate poisson2d|poisson3d|convdiff2d|convdiff3d:N");
  gmres::Options s{.tol = o.tol, .max_iterations = o.max_iterations};
  gmres::set_knobs(s, o.knobs);
  s.precond_options = {.ilu_blocks = gmres::parse_ilu_blocks(o.ilu_blocks), .poly_degree = o.poly_degree};
  gmres::check(s);
  return s;
}

// Rank 0's matrix (the others hold an empty one) and its name.
sparse::CsrMatrix load_matrix(const GmresOptions& o, std::string& name) {
  if (!o.matrix.empty()) {
    name = o.matrix;
    return sparse::read_matrix_market_file(o.matrix);
  }
  const sparse::ModelProblem p = sparse::parse_model_problem(o.generate);
  name = p.name();
  return sparse::model_matrix(p);
}

// This rank's rows of b: --rhs's file, read on rank 0 and scattered, else A·1.
gmres::Vector right_hand_side(const GmresOptions& o, const gmres::DistributedMatrix& a) {
  if (o.rhs.empty()) {
    gmres::Vector b(a.team(), a.rows()), ones(a.team(), a.rows());
    for (gmres::Index i = 0; i < a.rows(); ++i) ones[i] = 1;
    gmres::Operator op(a);
    harness::StageLog unused;
    op.apply(ones.data(), b.data(), unused);
    return b;
  }
  std::vector<double> whole;
  mpi::together(a.comm(), [&] {
    if (a.rank() == kRoot) whole = sparse::read_matrix_market_vector_file(o.rhs, a.global_rows());
  });
  return a.scatter_vector(whole, kRoot);
}

// The whole solution on rank 0, written as a Matrix Market array.
void write_solution(const GmresOptions& o, const gmres::DistributedMatrix& a, const gmres::Vector& x) {
  const std::vector<double> whole = a.gather_vector(x, kRoot);
  mpi::together(a.comm(), [&] {
    if (a.rank() != kRoot) return;
    io::write_file(o.output, [&](std::ostream& out) { sparse::write_matrix_market_vector(out, whole); });
  });
}

nlohmann::ordered_json record(const std::string& name, const gmres::DistributedMatrix& a, const gmres::Options& s,
                              const gmres::Result& r, double true_residual, const nlohmann::ordered_json& ranks) {
  nlohmann::ordered_json decisions = nlohmann::ordered_json::array();
  for (const gmres::Decision& d : r.decisions)
    decisions.push_back({{"knob", d.knob}, {"choice", d.choice}, {"reason", d.reason}});
  return {{"solver", "gmres"},
          {"matrix", {{"name", name}, {"rows", a.global_rows()}, {"nonzeros", a.global_nonzeros()}}},
          {"tol", s.tol},
          {"max_iterations", s.max_iterations},
          {"converged", true_residual <= s.tol},
          {"iterations", r.iterations},
          {"trial_iterations", r.trial_iterations},
          {"restarts", r.restarts},
          {"true_relative_residual", true_residual},
          {"solver_relative_residual", r.relative_residual},
          {"ranks", a.blocks().ranks()},
          {"choices",
           {{"restart", r.restart},
            {"orth", gmres::orth_name(r.orth)},
            {"precond", gmres::precond_name(r.precond)},
            {"spmv", gmres::kernel_name(r.kernel)},
            {"comm", gmres::comm_name(r.comm)}}},
          {"precond_detail", r.precond_detail},
          {"decisions", decisions},
          {"time", r.time.json()},
          {"history", r.history},
          {"rank_table", ranks}};
}

void print_summary(const nlohmann::ordered_json& j, const harness::StageLog& time) {
  fmt::print("{}: {} rows, {} stored entries; {} rank(s)\n", j["matrix"]["name"].get<std::string>(),
             j["matrix"]["rows"].get<long>(), j["matrix"]["nonzeros"].get<long>(), j["ranks"].get<int>());
  for (const auto& row : j["rank_table"])
    fmt::print("  rank {} on {}: processors {}, {} thread(s) on {}\n", row["rank"].get<int>(),
               row["host"].get<std::string>(), row["processors"].get<std::string>(), row["threads"].get<int>(),
               row["thread_processors"].dump());
  for (const auto& d : j["decisions"])
    fmt::print("  {} = {}: {}\n", d["knob"].get<std::string>(), d["choice"].get<std::string>(),
               d["reason"].get<std::string>());
  const auto& c = j["choices"];
  fmt::print("choices: restart {}, orth {}, precond {}, spmv {}, comm {}\n", c["restart"].get<int>(),
             c["orth"].get<std::string>(), j["precond_detail"].get<std::string>(), c["spmv"].get<std::string>(),
             c["comm"].get<std::string>());
  fmt::print(
      "{} after {} iterations ({} restarts, {} more in lost trials); true relative residual {:.3e} "
      "(tol {:.1e})\n",
      j["converged"].get<bool>() ? "converged" : "NOT converged", j["iterations"].get<long>(), j["restarts"].get<int>(),
      j["trial_iterations"].get<long>(), j["true_relative_residual"].get<double>(), j["tol"].get<double>());
  fmt::print("\n{}", time.table());
}

void run_gmres(const GmresOptions& o) {
  const MPI_Comm world = MPI_COMM_WORLD;
  const mpi::Place me = mpi::place_in(world);
  // Rank 0 checks the options first (and that the plot it will draw can be drawn), so that a mistake is said once.
  gmres::Options s;
  mpi::together(world, [&] {
    if (me.rank != kRoot) return;
    s = solver_options(o);
    if (!o.plot.empty()) check_plot_target(o.plot);
  });
  if (me.rank != kRoot) s = solver_options(o);
  if (!o.mpi_profile.empty()) {
    const std::string key = mpi::layout_key(world);
    mpi::together(world, [&] {
      s.profile = mpi::load_profile(o.mpi_profile, key);
      if (me.rank == kRoot && !s.profile)
        fmt::print(stderr, "ulibc: warning: {} has no profile for {}: the exchanges are all measured\n", o.mpi_profile,
                   key);
    });
  }

  const Topology topo = load_topology("", false, "gmres", Detail::placement);
  const Policy policy = resolve_policy(o.placement);
  const mpi::RankPlacement place = mpi::place_rank(world, topo, policy);
  const Mapping map = Mapping::build(place.view, policy, resolve_threads(o.placement, place.view));
  const ScopedOpenMPTeam team(map);
  const nlohmann::ordered_json ranks = mpi::rank_table(world, place, map);

  std::string name;
  sparse::CsrMatrix global;
  mpi::together(world, [&] {
    if (me.rank == kRoot) global = load_matrix(o, name);
  });
  const gmres::DistributedMatrix a = gmres::DistributedMatrix::scatter(global, kRoot, world, map.size());
  global = sparse::CsrMatrix();
  const gmres::Vector b = right_hand_side(o, a);
  const gmres::Remembered remembered = gmres::recall_tuning(o.tuning_file, a, s);
  gmres::Vector x(a.team(), a.rows());
  gmres::Result r = gmres::solve(a, b, x, s);
  r.decisions.insert(r.decisions.begin(), remembered.decisions.begin(), remembered.decisions.end());
  const double true_residual = gmres::true_relative_residual(a, b, x);
  if (!o.output.empty()) write_solution(o, a, x);

  const nlohmann::ordered_json j = record(name, a, s, r, true_residual, ranks);
  mpi::together(world, [&] {
    if (me.rank != kRoot) return;
    if (o.json_opt->given() && (o.json.empty() || o.json == "-")) {
      print_json(j);
    } else {
      print_summary(j, r.time);
      if (o.json_opt->given()) io::write_file(o.json, [&](std::ostream& out) { out << j.dump(2) << '\n'; });
    }
    if (!o.plot.empty()) draw_plot(j, o.plot, {});
  });
  gmres::remember_tuning(remembered, a, r, true_residual <= s.tol, o.knobs == gmres::KnobWords{});
  if (true_residual > s.tol)
    throw ExitStatus{kExitNotConverged,
                     me.rank == kRoot
                         ? fmt::format("gmres did not converge: true relative residual {:.3e} > tol {:.1e} "
                                       "after {} iterations",
                                       true_residual, s.tol, r.iterations + r.trial_iterations)
                         : ""};
}

}  // namespace

Command add_gmres_command(harness::Options& parent) {
  auto o = std::make_shared<GmresOptions>();
  harness::Options sub = parent.subcommand("gmres", std::string(summary_of("gmres")));
  sub.add("--matrix", o->matrix, "The matrix: a Matrix Market file").type_name("FILE.mtx");
  sub.add("--generate", o->generate,
          "A model problem instead: poisson2d:N, poisson3d:N, convdiff2d:N or convdiff3d:N (docs/SPARSE.md)")
      .type_name("PROBLEM");
  sub.add("--rhs", o->rhs, "b as a Matrix Market array (N x 1); default b = A·1").type_name("B.mtx");
  sub.add("--tol", o->tol, "Stop when ||b - A x|| <= tol ||b|| (default 1e-8)");
  sub.add("--max-iterations", o->max_iterations, "Arnoldi steps at most, trials included (default 10000)");
  sub.add("--restart", o->knobs.restart, "m, or auto: 30, grown when a cycle stalls (default auto)")
      .type_name("M|auto");
  sub.add("--orth", o->knobs.orth, "cgs, mgs, cgs2 or auto (default)").type_name("WAY");
  sub.add("--precond", o->knobs.precond, "none, jacobi, bilu0, poly or auto (default)").type_name("M");
  sub.add("--spmv", o->knobs.spmv, "csr, unroll2, unroll4, unroll8 or auto (default)").type_name("KERNEL");
  sub.add("--comm", o->knobs.comm, "allgather, bcast, p2p, isend, irecv or auto (default)").type_name("WAY");
  sub.add("--ilu-blocks", o->ilu_blocks,
          "bilu0's blocks when fixed by hand: one per rank (default) or per thread (auto tries both)")
      .type_name("thread|rank");
  sub.add("--poly-degree", o->poly_degree, "poly's Neumann degree, 0 to 20 (default 3)");
  sub.add("--mpi-profile", o->mpi_profile,
          "MPI's costs stored by `ulibc bench mpi --save FILE`: the exchanges they predict to be slow are "
          "not tried")
      .type_name("FILE");
  sub.add("--tuning-file", o->tuning_file,
          "Start from the choices stored here for this matrix, ranks and threads; without any, tune and "
          "store them (like FFTW's wisdom)")
      .type_name("FILE");
  add_placement_options(sub, o->placement);
  sub.add("--output", o->output, "Write x as a Matrix Market array").type_name("X.mtx");
  o->json_opt = add_json_file_option(sub, o->json);
  sub.add("--plot", o->plot, "Draw where the time went as a stacked bar (.png or .svg)").type_name("FILE");
  say_runs_here_only(sub);
  return {sub, [o] { run_mpi_command([&] { run_gmres(*o); }); }};
}

}  // namespace ulibc::cli
