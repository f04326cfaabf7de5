// tests/mpi/gmres_test.cpp — GMRES(m) on MPI against LAPACK's dense solve, on however many ranks mpirun starts.
//
// ctest runs this program under `mpirun -n 1|2|3|4` (tests/mpi/CMakeLists.txt): every rank runs every test in the
// same order, since the solver's calls are collective. Checks come after the collectives, so that a failing rank
// does not leave the others waiting. The sweeps over every variant and the real matrices are *Large: they run at one
// and three ranks only (tests/mpi/CMakeLists.txt), the real matrices at one.
#include "gmres/gmres.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <limits>
#include <random>

#include "gmres/tuner.hpp"
#include "gmres/verify.hpp"
#include "mpi/comm.hpp"
#include "sparse/convection_diffusion.hpp"
#include "sparse/matrix_market.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::gmres;
using ulibc::sparse::CsrMatrix;
using ulibc::sparse::Entry;

int ranks() { return ulibc::mpi::place_in(MPI_COMM_WORLD).size; }
// Two threads per rank where the machine's two cores allow it without oversubscribing.
int threads() { return ranks() == 1 ? 2 : 1; }

// Non-symmetric, with columns that reach across the whole matrix (every rank needs entries of every other), and
// diagonally dominant, so that every variant converges.
CsrMatrix random_matrix(Index n, int per_row, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<Index> column(0, n - 1);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Entry> entries;
  for (Index i = 0; i < n; ++i) {
    std::vector<Index> cols = {i};
    for (int k = 0; k < per_row; ++k) cols.push_back(column(rng));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (const Index c : cols) entries.push_back({i, c, c == i ? per_row + 2.0 : value(rng)});
  }
  return CsrMatrix(n, n, entries);
}

// Rows scaled by factors from 1 to 1000, as a badly scaled application matrix: without a preconditioner GMRES
// crawls; any of the others undoes the scaling.
CsrMatrix scaled_rows(const CsrMatrix& m, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(0, 3);
  std::vector<Entry> entries;
  for (Index i = 0; i < m.rows(); ++i) {
    const double scale = std::pow(10.0, exponent(rng));
    for (Index k = m.row_start()[i]; k < m.row_start()[i + 1]; ++k)
      entries.push_back({i, m.columns()[k], scale * m.values()[k]});
  }
  return CsrMatrix(m.rows(), m.cols(), entries);
}

CsrMatrix model(const std::string& name) {
  return ulibc::sparse::model_matrix(ulibc::sparse::parse_model_problem(name));
}

Vector local_part(const DistributedMatrix& a, const std::vector<double>& whole) {
  Vector v(a.team(), a.rows());
  for (Index i = 0; i < a.rows(); ++i) v[i] = whole[static_cast<std::size_t>(a.own().begin + i)];
  return v;
}

std::vector<double> gather(const DistributedMatrix& a, const Vector& v) {
  const std::vector<int> counts = a.blocks().counts(), displs = a.blocks().displacements();
  std::vector<double> whole(static_cast<std::size_t>(a.global_rows()));
  ulibc::mpi::check(MPI_Allgatherv(v.data(), static_cast<int>(a.rows()), MPI_DOUBLE, whole.data(), counts.data(),
                                   displs.data(), MPI_DOUBLE, MPI_COMM_WORLD),
                    "MPI_Allgatherv");
  return whole;
}

std::vector<double> product(const CsrMatrix& m, const std::vector<double>& x) {
  std::vector<double> y(static_cast<std::size_t>(m.rows()), 0.0);
  for (Index i = 0; i < m.rows(); ++i)
    for (Index k = m.row_start()[i]; k < m.row_start()[i + 1]; ++k)
      y[static_cast<std::size_t>(i)] += m.values()[k] * x[static_cast<std::size_t>(m.columns()[k])];
  return y;
}

double relative_error(const std::vector<double>& x, const std::vector<double>& reference) {
  double diff = 0, norm = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    diff += (x[i] - reference[i]) * (x[i] - reference[i]);
    norm += reference[i] * reference[i];
  }
  return std::sqrt(diff / norm);
}

// A system every rank can check alone: the matrix scattered from rank 0, b = A·(1, 2, 3, …)/n (or A·1, as the
// command's default), the dense solution.
enum class Rhs { ramp, ones };
struct System {
  CsrMatrix global;
  DistributedMatrix a;
  Vector b;
  std::vector<double> dense;
  explicit System(CsrMatrix m, Rhs rhs = Rhs::ramp)
      : global(std::move(m)),
        a(DistributedMatrix::scatter(global, 0, MPI_COMM_WORLD, threads())),
        b(a.team(), a.rows()) {
    std::vector<double> x(static_cast<std::size_t>(global.rows()), 1.0);
    if (rhs == Rhs::ramp)
      for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<double>(i + 1) / static_cast<double>(x.size());
    const std::vector<double> whole_b = product(global, x);
    b = local_part(a, whole_b);
    dense = dense_solve(global, whole_b);
  }
  // Solves from x0 = 0; the error against the dense solution (on every rank) and the solver's result.
  std::pair<double, Result> solve(const Options& o) {
    Vector x(a.team(), a.rows());
    const Result r = ulibc::gmres::solve(a, b, x, o);
    EXPECT_LE(true_relative_residual(a, b, x), o.tol * 1.0001) << "the verifier's residual";
    return {relative_error(gather(a, x), dense), r};
  }
};

TEST(RowBlocks, BalancedByEntriesNotRows) {
  // Row 0 holds 100 entries, the other 9 one each: two blocks split after row 0 and its next, not at row 5.
  std::vector<Index> rs = {0, 100};
  for (int i = 0; i < 9; ++i) rs.push_back(rs.back() + 1);
  const RowBlocks two = balance_by_nonzeros(rs, 2);
  EXPECT_EQ(two.first, (std::vector<Index>{0, 1, 10}));
  // Every block keeps at least one row, even where one row outweighs a share.
  const RowBlocks ten = balance_by_nonzeros(rs, 10);
  for (int r = 0; r < 10; ++r) EXPECT_EQ(ten.of(r).size(), 1) << r;
  EXPECT_EQ(ten.owner(7), 7);
  EXPECT_THROW(balance_by_nonzeros(rs, 11), ulibc::Error);
}

// A vector held by one rank goes to every rank's rows and comes back whole, whichever rank holds it.
TEST(RowBlocks, VectorsScatterToEachRanksRowsAndGatherBack) {
  const DistributedMatrix a = DistributedMatrix::scatter(random_matrix(37, 4, 3), 0, MPI_COMM_WORLD, threads());
  std::vector<double> whole(static_cast<std::size_t>(a.global_rows()));
  for (std::size_t i = 0; i < whole.size(); ++i) whole[i] = 0.5 + static_cast<double>(i);
  const int last = a.blocks().ranks() - 1;
  for (const int root : {0, last}) {
    const Vector mine = a.scatter_vector(a.rank() == root ? whole : std::vector<double>{}, root);
    for (Index i = 0; i < a.rows(); ++i) EXPECT_EQ(mine[i], whole[static_cast<std::size_t>(a.own().begin + i)]) << i;
    const std::vector<double> back = a.gather_vector(mine, root);
    EXPECT_EQ(back, a.rank() == root ? whole : std::vector<double>{}) << "root " << root;
  }
}

TEST(Spmv, EveryKernelAndExchangeGivesTheSameProductOnAnyRankCount) {
  for (const CsrMatrix& m : {model("convdiff2d:15"), random_matrix(300, 6, 7)}) {
    const DistributedMatrix a = DistributedMatrix::scatter(m, 0, MPI_COMM_WORLD, threads());
    std::vector<double> whole_x(static_cast<std::size_t>(m.rows()));
    for (std::size_t i = 0; i < whole_x.size(); ++i) whole_x[i] = std::sin(static_cast<double>(i) + 0.5);
    const std::vector<double> reference = product(m, whole_x);
    const Vector x = local_part(a, whole_x);
    for (const Kernel k : kKernels)
      for (const Comm c : kComms) {
        Operator op(a);
        op.kernel = k;
        op.comm = c;
        Vector y(a.team(), a.rows());
        ulibc::harness::StageLog split;
        op.apply(x.data(), y.data(), split);
        const std::vector<double> got = gather(a, y);
        EXPECT_LT(relative_error(got, reference), 1e-14) << kernel_name(k) << " / " << comm_name(c);
      }
  }
}

TEST(SolveLarge, EveryOrthogonalisationAndPreconditionerGivesTheDenseSolution) {
  for (CsrMatrix m : {model("convdiff2d:12"), random_matrix(200, 5, 11)}) {
    System s(std::move(m));
    for (const Orth o : kOrths)
      for (const Precond p : kPreconds)
        for (const IluBlocks blocks : {IluBlocks::rank, IluBlocks::thread}) {
          if (p != Precond::bilu0 && blocks == IluBlocks::thread) continue;
          const auto [error, r] = s.solve({.tol = 1e-10,
                                           .restart = 20,
                                           .orth = o,
                                           .precond = p,
                                           .kernel = Kernel::csr,
                                           .comm = Comm::p2p,
                                           .precond_options = {.ilu_blocks = blocks}});
          EXPECT_TRUE(r.converged) << orth_name(o) << " / " << precond_name(p);
          EXPECT_LT(error, 1e-7) << orth_name(o) << " / " << precond_name(p) << " / " << ilu_blocks_name(blocks);
        }
  }
}

TEST(SolveLarge, EveryKernelAndExchangeGivesTheDenseSolution) {
  System s(random_matrix(250, 8, 3));
  for (const Kernel k : kKernels)
    for (const Comm c : kComms) {
      const auto [error, r] = s.solve(
          {.tol = 1e-10, .restart = 30, .orth = Orth::cgs2, .precond = Precond::jacobi, .kernel = k, .comm = c});
      EXPECT_TRUE(r.converged) << kernel_name(k) << " / " << comm_name(c);
      EXPECT_LT(error, 1e-7) << kernel_name(k) << " / " << comm_name(c);
      EXPECT_EQ(r.kernel, k);
      EXPECT_EQ(r.comm, c);
    }
}

// A matrix big enough that each of two threads gets its share (Team::kMinEntriesPerThread): products, per-thread
// The product and the solve on a real team. Every rank gets two threads for the product (each thread needs
// Team::kMinEntriesPerThread entries: 4 ranks × 2 threads of a 230² grid's 264,500), so the outside part's rows
// are split between threads too; the ILU(0) blocks on a smaller grid.
TEST(Solve, TwoThreadsShareTheRowsOfALargerMatrix) {
  {
    const CsrMatrix big = model("convdiff2d:230");
    const DistributedMatrix a = DistributedMatrix::scatter(big, 0, MPI_COMM_WORLD, 2);
    EXPECT_EQ(a.team().threads(), 2);
    std::vector<double> ramp(static_cast<std::size_t>(big.rows()));
    for (std::size_t i = 0; i < ramp.size(); ++i) ramp[i] = 1 + std::cos(static_cast<double>(i));
    const std::vector<double> reference = product(big, ramp);
    for (const Kernel k : kKernels) {
      Operator op(a);
      op.kernel = k;
      op.comm = Comm::irecv;
      Vector y(a.team(), a.rows());
      ulibc::harness::StageLog split;
      op.apply(local_part(a, ramp).data(), y.data(), split);
      EXPECT_LT(relative_error(gather(a, y), reference), 1e-14) << kernel_name(k);
    }
  }
  const CsrMatrix m = model("convdiff2d:130");
  const DistributedMatrix a = DistributedMatrix::scatter(m, 0, MPI_COMM_WORLD, 2);
  std::vector<double> ones(static_cast<std::size_t>(m.rows()), 1.0);
  const std::vector<double> whole_b = product(m, ones);
  const Vector b = local_part(a, whole_b);
  for (const IluBlocks blocks : {IluBlocks::rank, IluBlocks::thread}) {
    Vector x(a.team(), a.rows());
    const Result r = ulibc::gmres::solve(
        a, b, x, {.tol = 1e-8, .precond = Precond::bilu0, .precond_options = {.ilu_blocks = blocks}});
    EXPECT_TRUE(r.converged) << ilu_blocks_name(blocks);
    EXPECT_LE(true_relative_residual(a, b, x), 1e-8 * 1.0001) << ilu_blocks_name(blocks);
  }
}

TEST(Solve, AutoTunesEveryKnobAndGivesTheDenseSolution) {
  System s(model("convdiff3d:9"));
  const auto [error, r] = s.solve({.tol = 1e-10});
  EXPECT_TRUE(r.converged);
  EXPECT_LT(error, 1e-7);
  std::vector<std::string> knobs;
  for (const Decision& d : r.decisions) {
    knobs.push_back(d.knob);
    EXPECT_FALSE(d.reason.empty()) << d.knob;
  }
  for (const char* knob : {"comm", "spmv", "precond", "orth"})
    EXPECT_NE(std::find(knobs.begin(), knobs.end(), knob), knobs.end()) << knob;
  EXPECT_GT(r.time.seconds("tuning"), 0);
  EXPECT_GE(r.time.seconds(), r.time.seconds("tuning"));
}

// Katagiri and Kuroda's experiment: the fixed default (no preconditioner, cgs, m = 30, blocking point-to-point)
// does not reach the tolerance within the iteration limit; the tuned solver, its trials counted, does.
TEST(Solve, TunedSolvesWhatTheFixedDefaultCannot) {
  System s(scaled_rows(model("convdiff2d:40"), 5), Rhs::ones);
  const Options fixed{.tol = 1e-8,
                      .max_iterations = 300,
                      .restart = 30,
                      .orth = Orth::cgs,
                      .precond = Precond::none,
                      .kernel = Kernel::csr,
                      .comm = Comm::p2p};
  Vector x(s.a.team(), s.a.rows());
  const Result stuck = ulibc::gmres::solve(s.a, s.b, x, fixed);
  EXPECT_FALSE(stuck.converged);
  EXPECT_EQ(stuck.iterations, 300);
  EXPECT_GT(true_relative_residual(s.a, s.b, x), 1e-8);
  EXPECT_GT(stuck.relative_residual, 1e-8);
  const auto [error, tuned] = s.solve({.tol = 1e-8, .max_iterations = 300});
  std::string decisions;
  for (const Decision& d : tuned.decisions) decisions += d.knob + " = " + d.choice + ": " + d.reason + "\n";
  EXPECT_TRUE(tuned.converged) << decisions;
  EXPECT_LE(tuned.iterations + tuned.trial_iterations, 300);
  EXPECT_NE(tuned.precond, Precond::none);
}

// A matrix whose ILU(0) has no fill, so that block ILU(0) is its block's exact LU: one triangle only (`side` −1:
// below the diagonal, +1: above), entries at random distances on that side, and the neighbour i ∓ 1 on every
// other row (the solves carry that neighbour in a register, and must also do without it).
CsrMatrix one_triangle(Index n, int side, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> value(-1, 1);
  std::vector<Entry> entries;
  for (Index i = 0; i < n; ++i) {
    std::vector<Index> cols = {i};
    if (i % 2 == 0) cols.push_back(i + side);
    for (int k = 0; k < 2; ++k) cols.push_back(i + side * std::uniform_int_distribution<Index>(2, 40)(rng));
    std::sort(cols.begin(), cols.end());
    cols.erase(std::unique(cols.begin(), cols.end()), cols.end());
    for (const Index c : cols)
      if (c >= 0 && c < n) entries.push_back({i, c, c == i ? 4.0 : value(rng)});
  }
  return CsrMatrix(n, n, entries);
}

// M⁻¹ of block ILU(0), per rank, undone by the rank's diagonal block: D·M⁻¹·v = v where the factors are exact.
TEST(Preconditioner, BlockIlu0IsExactWhereTheFactorsHaveNoFill) {
  for (const int side : {-1, 1}) {
    const DistributedMatrix a = DistributedMatrix::scatter(one_triangle(300, side, 5), 0, MPI_COMM_WORLD, 1);
    Operator op(a);
    const auto m = make_preconditioner(Precond::bilu0, op, {.ilu_blocks = IluBlocks::rank});
    Vector v(a.team(), a.rows()), z(a.team(), a.rows()), back(a.team(), a.rows());
    for (Index i = 0; i < a.rows(); ++i) v[i] = std::sin(static_cast<double>(a.own().begin + i) + 0.5);
    m->apply(v, z);
    multiply_rows(Kernel::csr, a.diagonal(), {0, a.rows()}, z.data(), back.data());
    for (Index i = 0; i < a.rows(); ++i) ASSERT_NEAR(back[i], v[i], 1e-12) << "side " << side << ", row " << i;
  }
}

// The bound of a preconditioner trial, on the clocks of a failed run with four ranks on two busy processors: the
// unpreconditioned trial took 0.017 s and predicted a 1.47 s solve; Jacobi's 19 steps then took 0.065 s (one step
// waited on a descheduled rank). Cut at 3x the first trial, Jacobi was left out and the solve stalled without it.
TEST(TrialDeadline, GrowsWithTheSolveATrialCouldShorten) {
  using ulibc::gmres::detail::trial_deadline;
  EXPECT_GT(trial_deadline(10, 0.017, 1.47), 10 + 0.0654);
  EXPECT_DOUBLE_EQ(trial_deadline(10, 0.017, 1.47), 10 + 0.25 * 1.47);
  EXPECT_DOUBLE_EQ(trial_deadline(10, 0.01, 0.02), 10 + 3 * 0.01);  // a short solve: the fastest trial's bound
  EXPECT_EQ(trial_deadline(10, std::numeric_limits<double>::infinity(), 0), std::numeric_limits<double>::infinity());
}

// The first trial of sherman1 (block ILU(0): 0.56 ms, 4.65 ms predicted to go; the solve then took 43 steps,
// 1.4 ms) against that of convdiff2d:400 on one rank (0.06 s, 2.3 s to go): three more trials would cost sherman1
// more than any could win, and cost convdiff2d:400 5%.
TEST(TrialsStop, OnlyWhileTheRestCanPayForThemselves) {
  using ulibc::gmres::detail::more_trials_pay;
  EXPECT_FALSE(more_trials_pay(0.56e-3, 3, 4.65e-3));
  EXPECT_TRUE(more_trials_pay(0.06, 2, 2.3));
  EXPECT_TRUE(more_trials_pay(0.1, 2, 2.0));  // exactly a tenth: still run
  EXPECT_FALSE(more_trials_pay(0.1, 3, 2.0));
  EXPECT_TRUE(more_trials_pay(1.0, 3, std::numeric_limits<double>::infinity()));  // a stalled trial: try the rest
}

// plat362 on one rank: block ILU(0)'s trial predicted 841 steps and the others were not tried; it stalled. Past its
// prediction the solve tries them all; a solve that tried them all tries again only at 4 times its prediction; never
// before as many steps as came before the last trials; never with a preconditioner it was given.
TEST(TrialsStop, AreRetriedWhenTheWinnerOutrunsItsPrediction) {
  using ulibc::gmres::detail::retry_trials;
  using ulibc::gmres::detail::TrialWinner;
  TrialWinner stopped;
  stopped.predicted_steps = 841;
  stopped.tried_all = false;
  stopped.tuned = true;
  EXPECT_FALSE(retry_trials(stopped, 800, 0));
  EXPECT_FALSE(retry_trials(stopped, 841, 0));
  EXPECT_TRUE(retry_trials(stopped, 880, 0));
  EXPECT_FALSE(retry_trials(stopped, 880, 900));
  EXPECT_TRUE(retry_trials(stopped, 901, 900));
  TrialWinner all = std::move(stopped);
  all.tried_all = true;
  EXPECT_FALSE(retry_trials(all, 3364, 0));
  EXPECT_TRUE(retry_trials(all, 3365, 0));
  EXPECT_FALSE(retry_trials(all, 3365, 4000));
  TrialWinner given;  // a preconditioner the caller chose
  EXPECT_FALSE(retry_trials(given, 100000, 0));
}

// The trials of a two-rank solve of convdiff2d:400: the Neumann polynomial predicted 1069 steps at 2.96 ms, block
// ILU(0) 1119 steps (5% more: one count to a 20-step prediction) at 2.83 ms after a 8.9 ms set-up. Each costed
// with its own count, the polynomial won by 0.3%; the solve then took 584 steps, where block ILU(0) takes 502.
// Costed at the same count, block ILU(0) is the cheaper.
TEST(PickPreconditioner, CountsWithinTheTieAreCostedAtTheSameCount) {
  using ulibc::gmres::detail::pick_preconditioner;
  using ulibc::gmres::detail::Prediction;
  const auto trial = [](double steps, double setup, double step) {
    return Prediction{steps, setup, step, setup + steps * step, false};
  };
  const Prediction none = trial(1512, 8e-6, 1.57e-3), bilu0 = trial(1119, 8.85e-3, 2.83e-3),
                   poly = trial(1069, 5.35e-4, 2.96e-3);
  EXPECT_EQ(pick_preconditioner({none, bilu0, poly}), 1u);
  // Outside the tie the fewest steps win, even at a dearer step.
  EXPECT_EQ(pick_preconditioner({trial(1000, 0, 3e-3), trial(1200, 0, 2e-3)}), 0u);
  // Unless another is predicted to take under half its time.
  EXPECT_EQ(pick_preconditioner({trial(1000, 0, 3e-3), trial(1400, 0, 1e-3)}), 1u);
  // A trial that converged wins outright.
  Prediction done = trial(5000, 0, 1);
  done.converged = true;
  EXPECT_EQ(pick_preconditioner({bilu0, done}), 1u);
}

// Block ILU(0)'s M⁻¹ and product take 1.0 ms, the polynomial's 1.3 ms; the Gram–Schmidt (the rest of each step) is
// the same work for both, 1.0 ms, but three of block ILU(0)'s five steps waited 0.6 ms more on a busy machine. By
// each trial's median step the polynomial was the cheaper (2.3 ms against 2.6); costed as its own M⁻¹ and product
// plus the pooled Gram–Schmidt, block ILU(0) is (2.0 ms against 2.3).
TEST(PickPreconditioner, StepCostsSeparateTheCandidateFromTheCommonWork) {
  using ulibc::gmres::detail::CycleEnd;
  using ulibc::gmres::detail::step_costs;
  CycleEnd bilu0, poly;
  bilu0.apply_seconds = {1.0e-3, 1.0e-3, 1.0e-3, 1.0e-3, 1.0e-3};
  bilu0.step_seconds = {2.0e-3, 2.6e-3, 2.6e-3, 2.6e-3, 2.0e-3};
  poly.apply_seconds = {1.3e-3, 1.3e-3, 1.3e-3, 1.3e-3, 1.3e-3};
  poly.step_seconds = {2.3e-3, 2.3e-3, 2.3e-3, 2.9e-3, 2.3e-3};
  const auto costs = step_costs({&bilu0, &poly}, MPI_COMM_WORLD);
  ASSERT_EQ(costs.size(), 2u);
  EXPECT_DOUBLE_EQ(costs[0].apply, 1.0e-3);
  EXPECT_DOUBLE_EQ(costs[1].apply, 1.3e-3);
  EXPECT_NEAR(costs[0].step, 2.0e-3, 1e-12);
  EXPECT_NEAR(costs[1].step, 2.3e-3, 1e-12);
}

// Jacobi of a matrix whose diagonal is one value is c·I: the same iterates as none, so auto does not try it. A
// matrix with one different diagonal entry, on any rank, is not such a matrix.
TEST(PickPreconditioner, JacobiOfAScalarDiagonalIsNotTried) {
  const DistributedMatrix constant = DistributedMatrix::scatter(model("convdiff2d:20"), 0, MPI_COMM_WORLD, 1);
  CsrMatrix bumped = model("convdiff2d:20");
  std::vector<Entry> entries;
  for (Index i = 0; i < bumped.rows(); ++i)
    for (Index k = bumped.row_start()[i]; k < bumped.row_start()[i + 1]; ++k)
      entries.push_back({i, bumped.columns()[k], bumped.values()[k] * (i == bumped.rows() - 1 ? 2 : 1)});
  const DistributedMatrix varied =
      DistributedMatrix::scatter(CsrMatrix(bumped.rows(), bumped.cols(), entries), 0, MPI_COMM_WORLD, 1);
  EXPECT_TRUE(diagonal_is_scalar(constant));
  EXPECT_FALSE(diagonal_is_scalar(varied));
  System s(model("convdiff2d:20"));
  const auto [error, r] = s.solve({.tol = 1e-8});
  const auto precond =
      std::find_if(r.decisions.begin(), r.decisions.end(), [](const Decision& d) { return d.knob == "precond"; });
  ASSERT_NE(precond, r.decisions.end());
  EXPECT_NE(precond->reason.find("jacobi left out"), std::string::npos) << precond->reason;
  EXPECT_EQ(precond->reason.find("jacobi:"), std::string::npos) << precond->reason;
  EXPECT_LT(error, 1e-6);
}

// Hundreds of steps each: left to one and two ranks, which need not share processors (uneven blocks are the other
// sweeps' concern at three ranks, on matrices of their own).
TEST(SolveLarge, RealMatricesReachTheTolerance) {
  const std::filesystem::path dir = ULIBC_MATRICES_DIR;
  if (!std::filesystem::exists(dir / "orsirr_1.mtx")) GTEST_SKIP() << dir << " has no orsirr_1.mtx";
  if (ranks() > 2) GTEST_SKIP() << "hundreds of steps on oversubscribed ranks";
  for (const char* name : {"orsirr_1", "sherman1", "gr_30_30"}) {
    System s(ulibc::sparse::read_matrix_market_file((dir / (std::string(name) + ".mtx")).string()));
    const auto [error, r] = s.solve({.tol = 1e-8});
    EXPECT_TRUE(r.converged) << name;
    EXPECT_LT(error, 1e-3) << name;  // the error is bounded by the condition number times the residual
  }
}

// plat362 (condition about 2e11) stalls every fixed PETSc setting near 2e-3; the solver's growing restart (30 -> 240,
// decided by how far each cycle cuts the residual) takes it to the tolerance. The knobs the tuner chooses by timing
// (preconditioner, orthogonalisation, product) are fixed, so that the outcome is the same on a busy machine: the
// tuned choice of preconditioner stalls on some runs (docs/GMRES.md). Whatever it reaches, it claims convergence
// only where the verifier agrees. Thousands of steps of reductions: left to one and two ranks, which need not share
// processors.
TEST(SolveLarge, Plat362ClaimsOnlyWhatTheVerifierConfirms) {
  const std::filesystem::path file = std::filesystem::path(ULIBC_MATRICES_DIR) / "plat362.mtx";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent";
  if (ranks() > 2) GTEST_SKIP() << "thousands of steps on oversubscribed ranks";
  const CsrMatrix m = ulibc::sparse::read_matrix_market_file(file.string());
  const DistributedMatrix a = DistributedMatrix::scatter(m, 0, MPI_COMM_WORLD, threads());
  const std::vector<double> ones(static_cast<std::size_t>(m.rows()), 1.0);
  const Vector b = local_part(a, product(m, ones));
  Vector x(a.team(), a.rows());
  const Result r = ulibc::gmres::solve(
      a, b, x,
      {.tol = 1e-8, .max_iterations = 20000, .orth = Orth::cgs2, .precond = Precond::poly, .kernel = Kernel::csr});
  const double verified = true_relative_residual(a, b, x);
  std::string decisions;  // what the tuner chose and why, should it fail
  for (const auto& d : r.decisions) decisions += "\n  " + d.knob + " " + d.choice + ": " + d.reason;
  EXPECT_EQ(r.converged, verified <= 1e-8 * 1.0001) << verified << decisions;
  EXPECT_TRUE(r.converged) << "reached " << verified << decisions;
}

TEST(BadInput, ZeroPivotIsNamedAndAutoLeavesItOut) {
  // Row 2 (1-based) has no diagonal entry: ILU(0) and Jacobi cannot divide by it.
  std::vector<Entry> e;
  const Index n = 40;
  for (Index i = 0; i < n; ++i) {
    if (i != 1) e.push_back({i, i, 4});
    if (i + 1 < n) e.push_back({i, i + 1, -1});
    if (i > 0) e.push_back({i, i - 1, -1});
  }
  std::sort(e.begin(), e.end(),
            [](const Entry& x, const Entry& y) { return std::tie(x.row, x.col) < std::tie(y.row, y.col); });
  System s(CsrMatrix(n, n, e));
  for (const Precond p : {Precond::bilu0, Precond::jacobi}) {
    std::string message;
    try {
      s.solve({.tol = 1e-8, .precond = p});
    } catch (const ulibc::Error& err) {
      message = err.what();
    }
    // The rank that owns row 2 names it; the others leave silently.
    if (s.a.own().begin <= 1 && 1 < s.a.own().end) {
      EXPECT_NE(message.find("row 2"), std::string::npos) << precond_name(p) << ": " << message;
    }
  }
  const auto [error, r] = s.solve({.tol = 1e-8});
  EXPECT_TRUE(r.converged);
  EXPECT_TRUE(r.precond == Precond::none || r.precond == Precond::poly);  // poly stops at the zero diagonal too
}

TEST(BadInput, OptionsOutOfRangeAndMoreRanksThanRows) {
  EXPECT_THROW(check(Options{.tol = 0}), ulibc::Error);
  EXPECT_THROW(check(Options{.tol = -1e-8}), ulibc::Error);
  EXPECT_THROW(check(Options{.max_iterations = 0}), ulibc::Error);
  EXPECT_THROW(check(Options{.restart = 0}), ulibc::Error);
  EXPECT_THROW(check(Options{.precond_options = {.poly_degree = 21}}), ulibc::Error);
  const CsrMatrix tiny = model("poisson2d:1");  // one row
  if (ranks() > 1) {
    EXPECT_THROW(DistributedMatrix::scatter(tiny, 0, MPI_COMM_WORLD, 1), ulibc::Error);
  }
  const CsrMatrix wide(2, 3, std::vector<Entry>{{0, 0, 1}, {1, 2, 1}});
  EXPECT_THROW(DistributedMatrix::scatter(wide, 0, MPI_COMM_WORLD, 1), ulibc::Error);
}

TEST(Verify, TrueResidualSeesAWrongAnswer) {
  System s(model("poisson2d:10"));
  Vector x = local_part(s.a, s.dense);
  EXPECT_LT(true_relative_residual(s.a, s.b, x), 1e-12);
  if (s.a.rows() > 0) x[0] += 1e-3;
  EXPECT_GT(true_relative_residual(s.a, s.b, x), 1e-6);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const ulibc::mpi::Session mpi;
  return RUN_ALL_TESTS();
}
