// gmres/gmres_bench.cpp — `ulibc bench gmres`: GMRES(m) and its sparse product under each placement and team size.
//
// One MPI rank (the harness sweeps the threads of one process; `mpirun -n K ulibc gmres` runs several): the
// matrix is read once, cut into the team's thread shares each run (first touched by the threads that use them),
// then the product is timed alone and the solve is timed whole, tuning included, its answer checked by the
// verifier.
#include "gmres/gmres_bench.hpp"

#include <fmt/format.h>

#include <memory>
#include <optional>

#include "gmres/gmres.hpp"
#include "gmres/verify.hpp"
#include "harness/stats.hpp"
#include "mpi/comm.hpp"
#include "sparse/convection_diffusion.hpp"
#include "sparse/matrix_market.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {

using harness::Better;
using harness::RunContext;
using harness::RunResult;

constexpr const char* kDefaultProblem = "convdiff2d:400";  // the seed's 2-D problem, n = 160,000
constexpr const char* kQuickProblem = "convdiff2d:40";
constexpr int kProductReps = 50;

class GmresBench final : public harness::BenchKernel {
 public:
  std::string name() const override { return "gmres"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--matrix", matrix_, "A Matrix Market file").type_name("FILE.mtx");
    options.add("--generate", generate_, std::string("A model problem (default ") + kDefaultProblem + ")")
        .type_name("PROBLEM");
    options.add("--tol", tol_, "Relative residual to reach (default 1e-8)");
    options.add("--reps", reps_, "Solves per run (default 3)");
    options.add("--restart", knobs_.restart, "m or auto").type_name("M|auto");
    options.add("--orth", knobs_.orth, "cgs, mgs, cgs2 or auto");
    options.add("--precond", knobs_.precond, "none, jacobi, bilu0, poly or auto");
    options.add("--spmv", knobs_.spmv, "csr, unroll2, unroll4, unroll8 or auto");
  }

  void prepare(const Topology&, int, bool quick) override {
    if (!matrix_.empty() && !generate_.empty()) throw input_error("give --matrix or --generate, not both");
    session_ = std::make_unique<mpi::Session>();
    if (mpi::place_in(MPI_COMM_WORLD).size != 1)
      throw input_error("ulibc bench gmres measures one rank; for several, mpirun -n K ulibc gmres");
    options_ = Options{.tol = tol_};
    set_knobs(options_, knobs_);
    check(options_);
    if (reps_ < 1) throw input_error(fmt::format("--reps {}: at least one solve", reps_));
    if (!matrix_.empty()) {
      name_ = matrix_;
      global_ = sparse::read_matrix_market_file(matrix_);
    } else {
      const auto p =
          sparse::parse_model_problem(generate_.empty() ? (quick ? kQuickProblem : kDefaultProblem) : generate_);
      name_ = p.name();
      global_ = sparse::model_matrix(p);
    }
    if (quick) reps_ = 1;
  }

  nlohmann::ordered_json parameters() const override {
    return {{"matrix", name_},
            {"rows", global_.rows()},
            {"nonzeros", global_.nonzeros()},
            {"tol", options_.tol},
            {"reps", reps_},
            {"restart", knobs_.restart},
            {"orth", knobs_.orth},
            {"precond", knobs_.precond},
            {"spmv", knobs_.spmv}};
  }
  std::string headline() const override { return "solve"; }

  std::vector<RunResult> run(const RunContext& ctx) override {
    const DistributedMatrix a = DistributedMatrix::scatter(global_, 0, MPI_COMM_WORLD, ctx.threads());
    Vector ones(a.team(), a.rows()), b(a.team(), a.rows());
    for (Index i = 0; i < a.rows(); ++i) ones[i] = 1;
    Operator op(a);
    op.kernel = options_.kernel.value_or(Kernel::csr);
    harness::StageLog products;
    op.apply(ones.data(), b.data(), products);  // b = A·1, and the product's first run
    std::vector<double> gflops, gbytes;
    // What a CSR product must move at least: values and columns once, the row offsets, x read and y written.
    const double bytes = static_cast<double>(a.global_nonzeros()) * (sizeof(double) + sizeof(Column)) +
                         static_cast<double>(a.rows()) * (sizeof(Index) + 2 * sizeof(double));
    for (int r = 0; r < kProductReps; ++r) {
      const double start = MPI_Wtime();
      op.apply(ones.data(), b.data(), products);
      const double seconds = MPI_Wtime() - start;
      gflops.push_back(2e-9 * static_cast<double>(a.global_nonzeros()) / seconds);
      gbytes.push_back(1e-9 * bytes / seconds);
    }
    std::vector<double> solve_seconds, iterations;
    double worst = 0;
    bool converged = true;
    std::string choices;
    for (int r = 0; r < reps_; ++r) {
      Vector x(a.team(), a.rows());
      const Result res = solve(a, b, x, options_);
      solve_seconds.push_back(res.time.seconds());
      iterations.push_back(static_cast<double>(res.iterations + res.trial_iterations));
      worst = std::max(worst, true_relative_residual(a, b, x));
      converged = converged && res.converged;
      choices = fmt::format("restart {}, {}, {}, {}", res.restart, orth_name(res.orth), res.precond_detail,
                            kernel_name(res.kernel));
    }
    RunResult result;
    result.measurements.push_back(
        harness::measurement_of("solve", "s", Better::lower, solve_seconds, harness::Summary::median));
    result.measurements.push_back(
        harness::measurement_of("iterations", "steps", Better::lower, iterations, harness::Summary::median));
    harness::Measurement spmv =
        harness::measurement_of("SpMV", "GFLOP/s", Better::higher, gflops, harness::Summary::median);
    spmv.also.push_back(
        {"GB/s", harness::measurement_of("", "", Better::higher, gbytes, harness::Summary::median).value});
    result.measurements.push_back(spmv);
    result.valid = converged && worst <= options_.tol * 1.0001;
    result.check = fmt::format("true relative residual {:.2e} (tol {:.1e}); {}", worst, options_.tol, choices);
    return {result};
  }

 private:
  std::string matrix_, generate_;
  KnobWords knobs_;
  double tol_ = 1e-8;
  int reps_ = 3;
  std::unique_ptr<mpi::Session> session_;
  Options options_;
  std::string name_;
  sparse::CsrMatrix global_;
};

}  // namespace

std::unique_ptr<harness::BenchKernel> make_bench() { return std::make_unique<GmresBench>(); }

}  // namespace ulibc::gmres
