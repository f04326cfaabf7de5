// eigen/eigen_bench.cpp — `ulibc bench eigen`: JDQR's time to a few eigenpairs under each placement and team size,
// and where that time went.
//
// The matrix is generated or read once; each run solves it `reps` times on the harness's bound team (the search
// space first touched by the threads that own its rows), and every answer must pass the verifier and, when the
// whole spectrum is known, be the wanted eigenvalues. The share of the time spent in the zblas kernels is
// reported beside the split.
#include "eigen/eigen_bench.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <filesystem>

#include "eigen/eigen.hpp"
#include "eigen/problem.hpp"
#include "eigen/verify.hpp"
#include "harness/memory_check.hpp"
#include "harness/stats.hpp"
#include "ulibc/error.hpp"

namespace ulibc::eigen {

namespace {

using harness::Better;
using harness::RunContext;
using harness::RunResult;
using harness::saturating_mul;

constexpr const char* kDefaultProblem = "convdiff2d:100";  // n = 10,000, eigenvalues known exactly
constexpr const char* kQuickProblem = "spectrum:200";
// A found eigenvalue matches an exact one to this many times --tol, relative: the residual bound times the
// conditioning of the generated matrices' eigenvectors.
constexpr double kMatchFactor = 1e3;
// Entries per row of the generated matrices at most (spectrum:N's band), and long vectors the solver and verifier
// hold beside its search spaces: results, the work columns, the correction equation's basis, the diagonal.
constexpr std::uint64_t kGeneratedRowEntries = 7;
constexpr std::uint64_t kOtherColumns = 12;

// The order a --generate spec asks for, before generating; 0 when the spec is malformed (generate then says why).
std::uint64_t generated_rows(const std::string& spec) {
  const auto first = spec.find(':');
  if (first == std::string::npos) return 0;
  const auto second = std::min(spec.find(':', first + 1), spec.size());
  std::uint64_t n = 0;
  const char* begin = spec.data() + first + 1;
  const auto [end, ec] = std::from_chars(begin, spec.data() + second, n);
  if (ec != std::errc() || end != spec.data() + second) return 0;
  return spec.starts_with("convdiff2d:") ? saturating_mul(n, n) : n;
}

class EigenBench final : public harness::BenchKernel {
 public:
  std::string name() const override { return "eigen"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options
        .add("--generate", generate_,
             std::string("A matrix with a known spectrum (default ") + kDefaultProblem +
                 "): convdiff2d:N[:BX[:BY[:SHIFT]]], "
                 "toeplitz:N:A:B:C or spectrum:N[:S[:T]]")
        .type_name("SPEC");
    options.add("--matrix", matrix_, "A Matrix Market file (complex, hermitian or real)").type_name("FILE.mtx");
    options.add("--nev", options_.nev, "Eigenpairs wanted (default 1)");
    options.add("--target", target_, "Eigenvalues nearest this complex number (default 0)").type_name("a+bi");
    options.add("--which", which_, "Instead of a target: largest-magnitude or largest-real");
    options.add("--tol", options_.tol, "Residual relative to |theta| of a converged pair (default 1e-8)");
    options.add("--jmin", options_.jmin, "Search directions kept at a restart (default 10)");
    options.add("--jmax", options_.jmax, "Search directions that trigger a restart (default 20)");
    options.flag("--harmonic", harmonic_, "Harmonic Ritz extraction (needs a target)");
    options.add("--correction-steps", options_.correction_steps, "GMRES steps per correction equation (default 10)");
    options.add("--precond", precond_, "Preconditioner of the correction equation: none or jacobi (default none)");
    options.add("--max-iterations", options_.max_iterations, "Expansions before giving up (default 10000)");
    options.add("--reps", reps_, "Solves per run (default 3)");
  }

  void prepare(const Topology&, int, bool quick) override {
    if (!matrix_.empty() && !generate_.empty()) throw input_error("give --matrix or --generate, not both");
    resolve_options();
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least one solve", reps_));
    if (!matrix_.empty()) {
      // Reading holds the entries beside the text (at most ~6 bytes of entries per byte: "1 1 1\n" is 32).
      std::error_code absent;  // an unreadable file is the reader's to name
      const std::uint64_t bytes = std::filesystem::file_size(matrix_, absent);
      if (!absent) harness::require_memory(saturating_mul(bytes, 6), "reading " + matrix_);
      problem_ = read_problem(matrix_);
    } else {
      const std::string spec = generate_.empty() ? (quick ? kQuickProblem : kDefaultProblem) : generate_;
      const std::uint64_t rows = generated_rows(spec);
      harness::require_memory(saturating_mul(rows, kGeneratedRowEntries * 20 + 24) + solver_bytes(rows),
                              fmt::format("the matrix --generate {} and the solver's vectors", spec));
      problem_ = generate(spec);
    }
    check_options(options_, problem_.a.rows());
    harness::require_memory(solver_bytes(static_cast<std::uint64_t>(problem_.a.rows())),
                            fmt::format("the solver's vectors for {} ({} rows)", problem_.name, problem_.a.rows()));
    if (quick) reps_ = 1;
  }

  nlohmann::ordered_json parameters() const override {
    return {{"problem", problem_.name},
            {"rows", problem_.a.rows()},
            {"nonzeros", problem_.a.nonzeros()},
            {"exact_spectrum", problem_.exact.has_value()},
            {"nev", options_.nev},
            {"which", which_name(options_.which)},
            {"target", complex_text(options_.target)},
            {"extraction", extraction_name(options_.extraction)},
            {"tol", options_.tol},
            {"jmin", options_.jmin},
            {"jmax", options_.jmax},
            {"correction_steps", options_.correction_steps},
            {"precond", precond_name(options_.precond)},
            {"max_iterations", options_.max_iterations},
            {"reps", reps_}};
  }
  std::string headline() const override { return "solve"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    std::vector<double> seconds, matvecs, iterations, spmv, orth, correction, dense, share;
    RunResult result{.valid = true};
    for (int r = 0; r < reps_; ++r) {
      const Result s = solve(problem_.a, options_, ctx.topo, ctx.map);
      const double total = s.time.seconds();
      seconds.push_back(total);
      matvecs.push_back(static_cast<double>(s.matvecs));
      iterations.push_back(static_cast<double>(s.iterations));
      spmv.push_back(s.time.total("spmv"));  // everywhere
      orth.push_back(s.time.seconds("orth"));
      correction.push_back(s.time.unaccounted("correction"));  // less its products with A
      dense.push_back(s.time.seconds("dense"));
      share.push_back(total > 0 ? 100 * s.time.seconds("orth") / total : 0);
      if (!result.valid) continue;  // keep the first failure's words
      result.check = check(s, result.valid);
      result.details = {{"eigenvalues", texts_of(s.values)}, {"restarts", s.restarts}};
    }
    using harness::measurement_of;
    using harness::Summary;
    result.measurements = {measurement_of("solve", "s", Better::lower, seconds, Summary::median),
                           measurement_of("matvecs", "products", Better::lower, matvecs, Summary::median),
                           measurement_of("iterations", "expansions", Better::lower, iterations, Summary::median),
                           measurement_of("spmv", "s", Better::lower, spmv, Summary::median),
                           measurement_of("orth", "s", Better::lower, orth, Summary::median),
                           measurement_of("correction", "s", Better::lower, correction, Summary::median),
                           measurement_of("dense", "s", Better::lower, dense, Summary::median),
                           measurement_of("orth share", "%", Better::lower, share, Summary::median)};
    return {result};
  }

 private:
  void resolve_options() {
    if (!target_.empty() && !which_.empty()) throw input_error("give --target or --which, not both");
    if (!target_.empty()) {
      try {
        options_.target = parse_complex(target_);
      } catch (const Error& e) {
        throw input_error(std::string("--target: ") + e.what());
      }
    }
    if (which_ == "largest-magnitude") {
      options_.which = Which::largest_magnitude;
    } else if (which_ == "largest-real") {
      options_.which = Which::largest_real;
    } else if (!which_.empty()) {
      throw input_error("--which " + which_ + ": largest-magnitude or largest-real");
    }
    if (precond_ != "none" && precond_ != "jacobi") throw input_error("--precond " + precond_ + ": none or jacobi");
    options_.precond = precond_ == "jacobi" ? Precond::jacobi : Precond::none;
    options_.extraction = harmonic_ ? Extraction::harmonic : Extraction::standard;
  }

  // The search spaces (V, A V, and X when harmonic: jmax columns each), the Schur vectors and the rest.
  std::uint64_t solver_bytes(std::uint64_t rows) const {
    const auto columns =
        static_cast<std::uint64_t>((harmonic_ ? 3 : 2) * std::max(options_.jmax, 0) + 3 * std::max(options_.nev, 0) +
                                   std::max(options_.correction_steps, 0)) +
        kOtherColumns;
    return saturating_mul(saturating_mul(rows, columns), sizeof(Complex));
  }

  // What the verifier (and the known spectrum) says of one solve; `ok` false when something is wrong.
  std::string check(const Result& s, bool& ok) const {
    ok = false;
    if (!s.converged)
      return fmt::format("found {} of {} eigenpairs in {} expansions; the last Ritz value {} had residual {:.1e}",
                         s.found, options_.nev, s.iterations, complex_text(s.last_theta), s.last_residual);
    const Check c = verify(problem_.a, s, options_);
    if (!c.ok) return c.failure;
    if (problem_.exact) {
      const std::string wrong = missing_wanted(*problem_.exact, s.values, options_, kMatchFactor * options_.tol);
      if (!wrong.empty()) return wrong;
    }
    ok = true;
    const double worst = c.residuals.empty() ? 0 : *std::max_element(c.residuals.begin(), c.residuals.end());
    return fmt::format("{} eigenpairs{}, largest residual {:.1e}, orthogonality {:.1e}", s.found,
                       problem_.exact ? " (the wanted ones)" : "", worst, c.orthogonality);
  }

  static std::vector<std::string> texts_of(const std::vector<Complex>& values) {
    std::vector<std::string> out;
    for (const Complex v : values) out.push_back(complex_text(v));
    return out;
  }

  std::string generate_, matrix_, target_, which_, precond_ = "none";
  bool harmonic_ = false;
  int reps_ = 3;
  Options options_;
  Problem problem_;
};

}  // namespace

std::unique_ptr<harness::BenchKernel> make_bench() { return std::make_unique<EigenBench>(); }

}  // namespace ulibc::eigen
