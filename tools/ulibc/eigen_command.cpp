// eigen_command.cpp — `ulibc eigen`: a few eigenpairs of a large sparse complex matrix by Jacobi–Davidson (JDQR),
// on threads placed by a policy.
//
// Exit status: 0 when all --nev pairs converged; 3 when the iteration limit stopped the search first (what did
// converge is printed and written); 2 for bad input, 1 for anything else.
#include <fmt/format.h>

#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>

#include "catalog.hpp"
#include "commands.hpp"
#include "eigen/eigen.hpp"
#include "eigen/problem.hpp"
#include "eigen/verify.hpp"
#include "io/file_io.hpp"
#include "sparse/matrix_market.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::cli {

namespace {

constexpr int kEigenNotConverged = 3;

struct EigenOptions {
  std::string matrix, generate;
  PlacementOptions placement;
  eigen::Options solver;
  std::string target, which, precond = "none";
  bool harmonic = false;
  std::string output;
  std::string json;
  std::optional<harness::Option> json_opt;
};

eigen::Options solver_options(const EigenOptions& o) {
  eigen::Options s = o.solver;
  if (!o.target.empty() && !o.which.empty()) throw input_error("give --target or --which, not both");
  if (!o.which.empty()) {
    if (o.which == "largest-magnitude")
      s.which = eigen::Which::largest_magnitude;
    else if (o.which == "largest-real")
      s.which = eigen::Which::largest_real;
    else
      throw input_error("--which " + o.which + ": use largest-magnitude or largest-real");
  }
  if (!o.target.empty()) s.target = eigen::parse_complex(o.target);
  if (o.harmonic) s.extraction = eigen::Extraction::harmonic;
  if (o.precond != "none" && o.precond != "jacobi")
    throw input_error("--precond " + o.precond + ": use none or jacobi");
  s.precond = o.precond == "jacobi" ? eigen::Precond::jacobi : eigen::Precond::none;
  return s;
}

nlohmann::ordered_json record(const eigen::Problem& p, const Mapping& map, const eigen::Options& s,
                              const eigen::Result& r, const eigen::Check& c) {
  nlohmann::ordered_json values = nlohmann::ordered_json::array();
  for (std::size_t i = 0; i < r.values.size(); ++i)
    values.push_back({{"re", r.values[i].real()},
                      {"im", r.values[i].imag()},
                      {"residual", i < c.residuals.size() ? c.residuals[i] : -1.0}});
  return {{"problem", p.name},
          {"n", p.a.rows()},
          {"nonzeros", p.a.nonzeros()},
          {"policy", map.policy().name()},
          {"threads", map.size()},
          {"options",
           {{"nev", s.nev},
            {"which", eigen::which_name(s.which)},
            {"target", eigen::complex_text(s.target)},
            {"extraction", eigen::extraction_name(s.extraction)},
            {"hermitian", s.hermitian},
            {"tol", s.tol},
            {"jmin", s.jmin},
            {"jmax", s.jmax},
            {"correction_steps", s.correction_steps},
            {"precond", eigen::precond_name(s.precond)},
            {"max_iterations", s.max_iterations}}},
          {"converged", r.found},
          {"all_converged", r.converged},
          {"eigenvalues", values},
          {"verified", c.ok},
          {"verify_failure", c.failure},
          {"iterations", r.iterations},
          {"matvecs", r.matvecs},
          {"correction_steps", r.correction_steps},
          {"restarts", r.restarts},
          {"seconds", r.time.seconds()},
          {"time", r.time.json()}};
}

void print_text(const eigen::Problem& p, const eigen::Result& r, const eigen::Check& c) {
  fmt::print("{:>4}  {:>24}  {:>24}  {:>10}\n", "#", "real", "imaginary", "residual");
  for (std::size_t i = 0; i < r.values.size(); ++i)
    fmt::print("{:>4}  {:>24.16e}  {:>24.16e}  {:>10.2e}\n", i, r.values[i].real(), r.values[i].imag(), c.residuals[i]);
  fmt::print("converged {}; {} iterations, {} products with A, {} correction steps, {} restarts\n", r.found,
             r.iterations, r.matvecs, r.correction_steps, r.restarts);
  const harness::StageLog& t = r.time;
  fmt::print("time {:.3f} s: SpMV {:.3f}, orthogonalisation {:.3f}, correction equation {:.3f}, dense {:.3f}\n",
             t.seconds(), t.total("spmv"), t.seconds("orth"), t.unaccounted("correction"), t.seconds("dense"));
  fmt::print("{}", t.table());
  fmt::print("Schur form {} (|Q^H Q - I| = {:.1e}){}\n", c.ok ? "verified" : "NOT verified", c.orthogonality,
             c.ok ? "" : ": " + c.failure);
  if (p.exact) fmt::print("the matrix's spectrum is known exactly: see --json for the check\n");
}

bool json_to_stdout(const EigenOptions& o) { return o.json_opt->given() && (o.json.empty() || o.json == "-"); }

// --output F or F.mtx: F.values.mtx and F.vectors.mtx.
void write_output(std::string base, const eigen::Problem& p, const eigen::Result& r) {
  if (base.ends_with(".mtx")) base.resize(base.size() - 4);
  const auto write = [](const std::string& path, auto&& body) { io::write_file(path, body); };
  const auto k = static_cast<sparse::Index>(r.found);
  write(base + ".values.mtx",
        [&](std::ostream& out) { sparse::write_matrix_market_complex_array(out, k, 1, r.values); });
  write(base + ".vectors.mtx",
        [&](std::ostream& out) { sparse::write_matrix_market_complex_array(out, p.a.rows(), k, r.vectors); });
}

void run_eigen(EigenOptions& o) {
  if (o.matrix.empty() == o.generate.empty())
    throw input_error("give exactly one of --matrix FILE and --generate SPEC");
  const eigen::Options s = solver_options(o);
  const eigen::Problem p = o.matrix.empty() ? eigen::generate(o.generate) : eigen::read_problem(o.matrix);
  eigen::check_options(s, p.a.rows());
  const Topology topo = load_topology("", false, "eigen", Detail::placement);
  const Mapping map = resolve_mapping(o.placement, topo);
  warn_if_oversubscribed(map);
  std::optional<io::OutputFile> json_file;
  if (o.json_opt->given() && !json_to_stdout(o)) json_file.emplace(o.json);  // a bad path costs no solve
  eigen::Result r;
  {
    const ScopedOpenMPTeam team(map);
    r = eigen::solve(p.a, s, topo, map);
  }
  const eigen::Check c = eigen::verify(p.a, r, s);
  nlohmann::ordered_json j = record(p, map, s, r, c);
  if (p.exact) j["exact_check"] = eigen::missing_wanted(*p.exact, r.values, s, 1e3 * s.tol);
  if (!json_to_stdout(o)) {
    fmt::print(
        "{}: n = {}, {} nonzeros; {} thread{} ({}); {} of {}, {} extraction\n", p.name, p.a.rows(), p.a.nonzeros(),
        map.size(), map.size() == 1 ? "" : "s", map.policy().name(), s.nev,
        s.which == eigen::Which::target ? "nearest " + eigen::complex_text(s.target) : eigen::which_name(s.which),
        eigen::extraction_name(s.extraction));
    print_text(p, r, c);
  }
  if (!o.output.empty()) write_output(o.output, p, r);
  if (json_to_stdout(o)) print_json(j);
  if (json_file) {
    json_file->write(j.dump(2) + '\n');
    json_file->finish();
  }
  if (!c.ok) throw std::runtime_error("the answer failed verification: " + c.failure);
  if (!r.converged)
    throw ExitStatus{kEigenNotConverged,
                     fmt::format("eigen: {} of {} eigenpairs converged in {} iterations; the next one's residual was "
                                 "{:.2e} (relative) at {}",
                                 r.found, s.nev, r.iterations, r.last_residual, eigen::complex_text(r.last_theta))};
}

}  // namespace

Command add_eigen_command(harness::Options& parent) {
  auto o = std::make_shared<EigenOptions>();
  harness::Options sub = parent.subcommand("eigen", std::string(summary_of("eigen")));
  sub.add("--matrix", o->matrix, "Matrix Market file (complex, hermitian, or real read as complex)").type_name("FILE");
  sub.add("--generate", o->generate,
          "A matrix whose spectrum is known: convdiff2d:N[:BX[:BY[:SHIFT]]], toeplitz:N:A:B:C, "
          "spectrum:N[:S[:T]]")
      .type_name("SPEC");
  sub.add("--nev", o->solver.nev, "Eigenpairs wanted").show_default();
  sub.add("--target", o->target, "Those nearest this complex number, e.g. 1.2+0.4i or -3 (default 0)")
      .type_name("SIGMA");
  sub.add("--which", o->which, "Instead of a target: largest-magnitude or largest-real").type_name("WHICH");
  sub.add("--tol", o->solver.tol, "Converged when ||A u - theta u|| <= tol |theta|").show_default();
  sub.add("--jmin", o->solver.jmin, "Search directions kept at a restart").show_default();
  sub.add("--jmax", o->solver.jmax, "Search directions before a restart").show_default();
  sub.flag("--harmonic", o->harmonic, "Harmonic Ritz extraction (interior eigenvalues, with --target)");
  sub.flag("--hermitian", o->solver.hermitian, "A is Hermitian (checked): real eigenvalues");
  sub.add("--correction-steps", o->solver.correction_steps, "GMRES steps per correction equation").show_default();
  sub.add("--precond", o->precond, "Preconditioner of the correction equation: none or jacobi").show_default();
  sub.add("--max-iterations", o->solver.max_iterations, "Expansions of the search space, in all").show_default();
  add_placement_options(sub, o->placement);
  sub.add("--output", o->output, "Write F.values.mtx and F.vectors.mtx (Matrix Market complex arrays)")
      .type_name("F[.mtx]");
  o->json_opt = add_json_file_option(sub, o->json);
  say_runs_here_only(sub);
  return {sub, [o] { run_eigen(*o); }};
}

}  // namespace ulibc::cli
