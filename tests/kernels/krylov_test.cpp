// krylov_test.cpp — complex GMRES in shared memory (gmres/krylov.hpp), the cycle the real MPI solver runs, on small
// complex systems whose residuals are recomputed here by a plain dense product: the estimate against the true
// residual at every step count, the minimal-residual property (never rising with more steps), the three
// orthogonalisations, right preconditioning, the complex rotations, and the degenerate right-hand sides.
#include "gmres/krylov.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <limits>
#include <random>
#include <vector>

#include "gmres/givens.hpp"
#include "ulibc/error.hpp"
#include "zblas/zblas.hpp"

namespace {

using ulibc::gmres::Complex;
using ulibc::gmres::gmres_few_steps;
using ulibc::gmres::Orth;

constexpr Complex kI{0, 1};

// A dense n×n matrix, row-major: small enough that the residual is recomputed exactly as written.
struct Dense {
  int n;
  std::vector<Complex> a;
  explicit Dense(int size) : n(size), a(static_cast<std::size_t>(size * size)) {}
  Complex& at(int i, int j) { return a[static_cast<std::size_t>(i * n + j)]; }
  void apply(const Complex* x, Complex* y) const {
    for (int i = 0; i < n; ++i) {
      Complex s = 0;
      for (int j = 0; j < n; ++j) s += a[static_cast<std::size_t>(i * n + j)] * x[j];
      y[i] = s;
    }
  }
};

double norm(const std::vector<Complex>& v) {
  double s = 0;
  for (const Complex& z : v) s += std::norm(z);
  return std::sqrt(s);
}

double residual(const Dense& a, const std::vector<Complex>& b, const std::vector<Complex>& x) {
  std::vector<Complex> r(b.size());
  a.apply(x.data(), r.data());
  for (std::size_t i = 0; i < r.size(); ++i) r[i] = b[i] - r[i];
  return norm(r);
}

struct Solve {
  ulibc::gmres::KrylovEnd end;
  std::vector<Complex> x;
};

Solve solve(const Dense& a, const std::vector<Complex>& b, int steps, double tol, Orth orth = Orth::mgs,
            const ulibc::gmres::ComplexApply& precond = {}) {
  Solve s{{}, std::vector<Complex>(b.size())};
  const auto n = b.size();
  s.end = gmres_few_steps(
      n, [&](const Complex* x, Complex* y) { a.apply(x, y); }, precond,
      [n](const Complex* x, const Complex* y) { return ulibc::zblas::zdotc(n, x, y, 1); }, b.data(), s.x.data(), steps,
      tol, orth);
  return s;
}

std::vector<Complex> random_vector(int n, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Complex> v(static_cast<std::size_t>(n));
  for (Complex& z : v) z = {u(rng), u(rng)};
  return v;
}

// Random sparse complex entries, a few per row, under a diagonal that dominates them.
Dense diagonally_dominant(int n, std::mt19937& rng) {
  Dense a(n);
  std::uniform_real_distribution<double> u(-1, 1);
  std::uniform_int_distribution<int> column(0, n - 1);
  for (int i = 0; i < n; ++i) {
    double off = 0;
    for (int k = 0; k < 4; ++k) {
      const int j = column(rng);
      if (j == i) continue;
      a.at(i, j) += Complex{u(rng), u(rng)};
      off += std::abs(a.at(i, j));
    }
    a.at(i, i) = (1.5 * off + 0.5) * Complex{1, u(rng)};
  }
  return a;
}

// The 1-D Laplacian tridiag(−1, 2, −1) shifted by a complex σ: complex symmetric, not Hermitian.
Dense shifted_laplacian(int n, Complex sigma) {
  Dense a(n);
  for (int i = 0; i < n; ++i) {
    a.at(i, i) = 2.0 - sigma;
    if (i > 0) a.at(i, i - 1) = -1;
    if (i + 1 < n) a.at(i, i + 1) = -1;
  }
  return a;
}

// From x = 0 with k = 1, 2, … steps (no tolerance): the estimate is the true residual, and a Krylov space one step
// larger never gives a larger minimal residual; within n steps the residual reaches `tol`.
void expect_minimal_residuals(const Dense& a, const std::vector<Complex>& b, double tol) {
  const double b_norm = norm(b);
  double previous = b_norm;
  bool reached = false;
  for (int k = 1; k <= a.n && !reached; ++k) {
    const Solve s = solve(a, b, k, 0);
    const double truth = residual(a, b, s.x);
    EXPECT_EQ(s.end.steps, k);
    EXPECT_NEAR(s.end.residual, truth, 1e-10 * b_norm) << k << " steps";
    EXPECT_LE(truth, previous + 1e-12 * b_norm) << k << " steps";
    previous = truth;
    reached = truth <= tol * b_norm;
  }
  EXPECT_TRUE(reached) << "residual " << previous / b_norm << " of ||b|| after " << a.n << " steps";
}

TEST(KrylovGivens, RotationZeroesTheSecondEntryAndIsUnitary) {
  const Complex cases[][2] = {{{3, 4}, {1, -2}},
                              {{0, 0}, {2, 1}},
                              {{1, 1}, {0, 0}},
                              {{-2, 0}, {0, 5}},
                              {{1e300, 1e300}, {1e300, -3e299}},
                              {{1e-300, 0}, {0, 3e-300}}};
  for (const auto& [f0, g] : cases) {
    Complex f = f0, s;
    double c = 0;
    ulibc::gmres::detail::make_rotation(f, g, c, s);
    const double scale = std::max(std::abs(f0), std::abs(g));
    EXPECT_GE(c, 0);
    EXPECT_NEAR(c * c + std::norm(s), 1, 1e-15);
    EXPECT_NEAR(std::abs(c * (f0 / scale) + s * (g / scale) - f / scale), 0, 1e-15) << f0 << " " << g;
    EXPECT_NEAR(std::abs(-std::conj(s) * (f0 / scale) + c * (g / scale)), 0, 1e-15) << f0 << " " << g;
    EXPECT_NEAR(std::abs(f), std::hypot(std::abs(f0), std::abs(g)), 1e-15 * scale);
    Complex x = f0 / scale, y = g / scale;  // rotate() is the same rotation
    ulibc::gmres::detail::rotate(c, s, x, y);
    EXPECT_NEAR(std::abs(x - f / scale), 0, 1e-15);
    EXPECT_NEAR(std::abs(y), 0, 1e-15);
  }
}

TEST(KrylovFewSteps, DiagonallyDominantSparse) {
  std::mt19937 rng(7);
  const Dense a = diagonally_dominant(30, rng);
  expect_minimal_residuals(a, random_vector(30, rng), 1e-12);
}

TEST(KrylovFewSteps, HermitianPositiveDefinite) {
  // Diagonal 4, off-diagonals 1 + i and its conjugate: Hermitian, dominated, so positive definite; its H is real
  // tridiagonal (Lanczos), the case where the complex rotations must reduce to real ones.
  Dense a(16);
  for (int i = 0; i < a.n; ++i) {
    a.at(i, i) = 4;
    if (i + 1 < a.n) {
      a.at(i, i + 1) = 1.0 + kI;
      a.at(i + 1, i) = 1.0 - kI;
    }
  }
  std::mt19937 rng(11);
  expect_minimal_residuals(a, random_vector(a.n, rng), 1e-12);
}

TEST(KrylovFewSteps, NonNormalNeedsEveryStep) {
  // A single Jordan-like block, (1 + i/2) on the diagonal and 2 above it: its minimal polynomial has degree n, so
  // from a general b GMRES cannot finish before step n; H is a full upper Hessenberg matrix with complex entries,
  // and every rotation is genuinely complex (a Hermitian A gives a real tridiagonal H, whose rotations are real).
  Dense a(10);
  for (int i = 0; i < a.n; ++i) {
    a.at(i, i) = 1.0 + 0.5 * kI;
    if (i + 1 < a.n) a.at(i, i + 1) = 2;
  }
  std::mt19937 rng(17);
  const std::vector<Complex> b = random_vector(a.n, rng);
  expect_minimal_residuals(a, b, 1e-10);
  EXPECT_GT(residual(a, b, solve(a, b, a.n - 1, 0).x), 1e-6 * norm(b));
}

TEST(KrylovFewSteps, EveryOrthogonalisationOnAShiftedLaplacian) {
  const int n = 50;
  const Dense a = shifted_laplacian(n, 0.3 + 0.2 * kI);
  std::mt19937 rng(3);
  const std::vector<Complex> b = random_vector(n, rng);
  const double b_norm = norm(b);
  std::vector<Complex> first;
  for (const Orth orth : ulibc::gmres::kOrths) {
    const Solve s = solve(a, b, n, 1e-10, orth);
    const double truth = residual(a, b, s.x);
    EXPECT_LE(s.end.residual, 1e-10 * b_norm) << ulibc::gmres::orth_name(orth);
    EXPECT_LE(s.end.steps, n);
    EXPECT_NEAR(s.end.residual, truth, 1e-10 * b_norm) << ulibc::gmres::orth_name(orth);
    if (first.empty()) first = s.x;
    for (int i = 0; i < n; ++i) EXPECT_NEAR(std::abs(s.x[i] - first[i]), 0, 1e-8 * norm(first));
  }
}

TEST(KrylovFewSteps, RightPreconditioningShortensTheSolve) {
  // Rows scaled over six orders of magnitude: Jacobi's M⁻¹ undoes the scaling, and the residual is still b − A x.
  const int n = 40;
  std::mt19937 rng(5);
  Dense a = diagonally_dominant(n, rng);
  std::vector<Complex> diagonal(n);
  for (int i = 0; i < n; ++i) {
    const double scale = std::pow(10.0, 6.0 * i / (n - 1));
    for (int j = 0; j < n; ++j) a.at(j, i) *= scale;
    diagonal[static_cast<std::size_t>(i)] = a.at(i, i);
  }
  const std::vector<Complex> b = random_vector(n, rng);
  const auto jacobi = [&](const Complex* x, Complex* y) {
    for (int i = 0; i < n; ++i) y[i] = x[i] / diagonal[static_cast<std::size_t>(i)];
  };
  const Solve plain = solve(a, b, n, 1e-10), preconditioned = solve(a, b, n, 1e-10, Orth::mgs, jacobi);
  EXPECT_LT(preconditioned.end.steps, plain.end.steps);
  EXPECT_LE(preconditioned.end.residual, 1e-10 * norm(b));
  EXPECT_NEAR(preconditioned.end.residual, residual(a, b, preconditioned.x), 1e-10 * norm(b));
}

TEST(KrylovFewSteps, LongVectorsSplitOverThreads) {
  // Long enough for the vector updates to run in parallel: a shifted Laplacian applied as a stencil, σ far from
  // its spectrum, so that a few steps suffice.
  const std::size_t n = 6000;
  const Complex diagonal = 2.0 - (-2.0 + kI);
  const auto apply = [&](const Complex* x, Complex* y) {
    for (std::size_t i = 0; i < n; ++i)
      y[i] = diagonal * x[i] - (i > 0 ? x[i - 1] : 0.0) - (i + 1 < n ? x[i + 1] : 0.0);
  };
  std::mt19937 rng(13);
  const std::vector<Complex> b = random_vector(static_cast<int>(n), rng);
  std::vector<Complex> x(n), r(n);
  const ulibc::gmres::KrylovEnd end = gmres_few_steps(
      n, apply, {}, [n](const Complex* u, const Complex* v) { return ulibc::zblas::zdotc(n, u, v, 2); }, b.data(),
      x.data(), 30, 1e-9, Orth::cgs2);
  apply(x.data(), r.data());
  for (std::size_t i = 0; i < n; ++i) r[i] = b[i] - r[i];
  EXPECT_LT(end.steps, 30);
  EXPECT_LE(end.residual, 1e-9 * norm(b));
  EXPECT_NEAR(end.residual, norm(r), 1e-10 * norm(b));
}

TEST(KrylovFewSteps, ZeroRightHandSideTakesNoStep) {
  const Dense a = shifted_laplacian(8, kI);
  const std::vector<Complex> b(8, 0);
  const Solve s = solve(a, b, 5, 1e-8);
  EXPECT_EQ(s.end.steps, 0);
  EXPECT_EQ(s.end.residual, 0);
  for (const Complex& z : s.x) EXPECT_EQ(z, Complex(0));
}

TEST(KrylovFewSteps, MultipleOfIdentityInOneStep) {
  Dense a(6);
  for (int i = 0; i < 6; ++i) a.at(i, i) = 2.0 + kI;
  std::mt19937 rng(1);
  const std::vector<Complex> b = random_vector(6, rng);
  const Solve s = solve(a, b, 6, 0);  // no tolerance: only the exhausted Krylov space stops it
  EXPECT_EQ(s.end.steps, 1);
  for (int i = 0; i < 6; ++i) EXPECT_NEAR(std::abs(s.x[i] - b[i] / (2.0 + kI)), 0, 1e-15);
}

TEST(KrylovFewSteps, StartsFromTheGivenX) {
  const Dense a = shifted_laplacian(20, 0.5 * kI);
  std::mt19937 rng(9);
  const std::vector<Complex> b = random_vector(20, rng);
  Solve s = solve(a, b, 20, 1e-12);
  const std::vector<Complex> solution = s.x;
  const auto n = b.size();
  const ulibc::gmres::KrylovEnd again = gmres_few_steps(
      n, [&](const Complex* x, Complex* y) { a.apply(x, y); }, {},
      [n](const Complex* x, const Complex* y) { return ulibc::zblas::zdotc(n, x, y, 1); }, b.data(), s.x.data(), 3,
      1e-10);
  EXPECT_EQ(again.steps, 0);  // the start already meets the tolerance
  EXPECT_EQ(s.x, solution);
}

TEST(KrylovFewSteps, RefusesBadArguments) {
  const Dense a = shifted_laplacian(4, kI);
  const std::vector<Complex> b(4, 1.0);
  EXPECT_THROW(solve(a, b, -1, 1e-8), ulibc::Error);
  EXPECT_THROW(solve(a, b, 3, std::numeric_limits<double>::quiet_NaN()), ulibc::Error);
  EXPECT_THROW(solve(a, b, 3, -1), ulibc::Error);
  std::vector<Complex> x(4);
  EXPECT_THROW(gmres_few_steps(4, {}, {}, {}, b.data(), x.data(), 3, 1e-8), ulibc::Error);
}

}  // namespace
