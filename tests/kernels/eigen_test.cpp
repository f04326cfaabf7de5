// eigen_test.cpp — Jacobi–Davidson (JDQR) against spectra known exactly and against LAPACK: the wanted
// eigenvalues found and none skipped, the Schur form checked by the verifier, under every policy and 1–4 threads;
// bad input refused, and a search that stops short says what it found.
#include "eigen/eigen.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <random>

#include "eigen/problem.hpp"
#include "eigen/verify.hpp"
#include "sparse/matrix_market.hpp"
#include "sparse/prescribed_spectrum.hpp"
#include "sparse/tridiagonal_toeplitz.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

extern "C" {
void zgeev_(const char* jobvl, const char* jobvr, const int* n, void* a, const int* lda, void* w, void* vl,
            const int* ldvl, void* vr, const int* ldvr, void* work, const int* lwork, double* rwork, int* info);
void zheev_(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, double* w, void* work,
            const int* lwork, double* rwork, int* info);
}

namespace ulibc::eigen {
namespace {

using sparse::ComplexCsrMatrix;
using sparse::ComplexEntry;
using sparse::Index;

const Topology& live() {
  static const Topology t = Topology::load("/");
  return t;
}

// Solves on `threads` threads placed by `policy` on this machine, the OpenMP team bound as a command binds it.
Result run(const ComplexCsrMatrix& a, const Options& o, int threads = 2, const char* policy = "scatter") {
  const Mapping map = Mapping::build(live(), Policy::parse(policy), threads);
  ScopedOpenMPTeam team(map);
  return solve(a, o, live(), map);
}

// Every check the verifier makes, and the wanted eigenvalues of `exact` found (none skipped).
void expect_good(const ComplexCsrMatrix& a, const Result& r, const Options& o, const std::vector<Complex>& exact,
                 double match_tol) {
  ASSERT_TRUE(r.converged) << "found " << r.found << " of " << o.nev << " in " << r.iterations << " iterations";
  const Check c = verify(a, r, o);
  EXPECT_TRUE(c.ok) << c.failure;
  for (std::size_t i = 0; i < c.residuals.size(); ++i)
    EXPECT_LE(c.residuals[i], 1e3 * o.tol * std::max(1.0, std::abs(r.values[i]))) << "eigenpair " << i;
  EXPECT_EQ(missing_wanted(exact, r.values, o, match_tol), "");
}

// Twelve eigenvalues 0.3 apart on a slanted line from 1, the rest in a cluster [10, 20] away from them: the target
// problems converge in tens of iterations (an interior eigenvalue among hundreds packed as tightly as the cluster's
// needs a preconditioner that these matrices do not have).
std::vector<Complex> separated(int n) {
  std::vector<Complex> d(static_cast<std::size_t>(n));
  for (int k = 0; k < n; ++k)
    d[static_cast<std::size_t>(k)] = k < 12 ? Complex(1 + 0.3 * k, 0.1 * k) : Complex(10 + 10.0 * k / n, std::sin(k));
  return d;
}

TEST(Jdqr, NonNormalMatrixEigenvaluesNearestATarget) {
  const sparse::PrescribedSpectrum p{separated(400), Complex(0.5, 0.2), Complex(-0.3, 0.4)};
  const ComplexCsrMatrix a = sparse::prescribed_spectrum_matrix(p);
  for (const Extraction x : {Extraction::standard, Extraction::harmonic}) {
    SCOPED_TRACE(extraction_name(x));
    const Options o{.nev = 5, .target = Complex(2.1, 0.3), .extraction = x, .tol = 1e-9};
    expect_good(a, run(a, o), o, p.eigenvalues, 1e-7);
  }
}

TEST(Jdqr, ConvectionDiffusionExtremes) {
  const auto s = sparse::shifted_convection_diffusion_2d(20, Complex(5, 1), Complex(2, -1), Complex(0, 0.5));
  const ComplexCsrMatrix a = sparse::kronecker_sum_matrix(s);
  const std::vector<Complex> exact = sparse::kronecker_sum_eigenvalues(s);
  for (const Which w : {Which::largest_magnitude, Which::largest_real}) {
    SCOPED_TRACE(which_name(w));
    const Options o{.nev = 4, .which = w, .tol = 1e-9, .jmin = 12, .jmax = 30};
    expect_good(a, run(a, o), o, exact, 1e-6);
  }
}

// A random sparse complex matrix (or Hermitian, mirrored) and its dense copy for LAPACK.
struct Random {
  ComplexCsrMatrix sparse;
  std::vector<Complex> dense;  // column-major
};
Random random_matrix(int n, bool hermitian, unsigned seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Complex> dense(static_cast<std::size_t>(n) * n);
  auto at = [&](int i, int j) -> Complex& { return dense[static_cast<std::size_t>(i + j * n)]; };
  for (int i = 0; i < n; ++i) {
    at(i, i) = hermitian ? Complex(i, 0) : Complex(i, u(rng));  // eigenvalues near the integers 0..n-1
    for (int e = 0; e < 3; ++e) {
      const int j = static_cast<int>(rng() % static_cast<unsigned>(n));
      if (j == i) continue;
      at(i, j) = Complex(u(rng), u(rng)) * 0.3;
      if (hermitian) at(j, i) = std::conj(at(i, j));
    }
  }
  std::vector<ComplexEntry> entries;
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j)
      if (at(i, j) != Complex(0)) entries.push_back({i, j, at(i, j)});
  return {ComplexCsrMatrix(n, n, entries), std::move(dense)};
}

std::vector<Complex> lapack_eigenvalues(std::vector<Complex> a, int n, bool hermitian) {
  int info = 0;
  std::vector<Complex> w(static_cast<std::size_t>(n)), work(static_cast<std::size_t>(4 * n));
  std::vector<double> rwork(static_cast<std::size_t>(3 * n)), real(static_cast<std::size_t>(n));
  const int lwork = static_cast<int>(work.size()), one = 1;
  if (hermitian) {
    zheev_("N", "U", &n, a.data(), &n, real.data(), work.data(), &lwork, rwork.data(), &info);
    for (int i = 0; i < n; ++i) w[static_cast<std::size_t>(i)] = real[static_cast<std::size_t>(i)];
  } else {
    zgeev_("N", "N", &n, a.data(), &n, w.data(), nullptr, &one, nullptr, &one, work.data(), &lwork, rwork.data(),
           &info);
  }
  EXPECT_EQ(info, 0);
  return w;
}

TEST(Jdqr, GeneralModeAgainstZgeev) {
  const Random m = random_matrix(150, false, 7);
  const std::vector<Complex> exact = lapack_eigenvalues(m.dense, 150, false);
  const Options o{.nev = 4, .target = Complex(3.3, 0.1), .tol = 1e-10};
  expect_good(m.sparse, run(m.sparse, o), o, exact, 1e-7);
}

TEST(Jdqr, HermitianModeAgainstZheevWithRealEigenvalues) {
  const Random m = random_matrix(150, true, 11);
  const std::vector<Complex> exact = lapack_eigenvalues(m.dense, 150, true);
  const Options o{.nev = 4, .target = 3.3, .hermitian = true, .tol = 1e-10};
  const Result r = run(m.sparse, o);
  expect_good(m.sparse, r, o, exact, 1e-7);
  for (const Complex& v : r.values) EXPECT_EQ(v.imag(), 0.0);
}

TEST(Jdqr, SameEigenvaluesUnderEveryPolicyAndOneToFourThreads) {
  const sparse::PrescribedSpectrum p{separated(300), Complex(0.4, 0), Complex(0, 0.4)};
  const ComplexCsrMatrix a = sparse::prescribed_spectrum_matrix(p);
  const Options o{.nev = 3, .target = Complex(1.2, 0.2), .tol = 1e-10};
  const Result one = run(a, o, 1, "compact");
  ASSERT_TRUE(one.converged);
  for (const char* policy : {"scatter", "compact", "compact+"})
    for (int threads = 1; threads <= 4; ++threads) {
      SCOPED_TRACE(std::string(policy) + ", " + std::to_string(threads) + " threads");
      const Result r = run(a, o, threads, policy);
      expect_good(a, r, o, p.eigenvalues, 1e-8);
      std::vector<Complex> x = r.values, y = one.values;
      auto by_value = [](Complex u, Complex v) {
        return std::make_pair(u.real(), u.imag()) < std::make_pair(v.real(), v.imag());
      };
      std::sort(x.begin(), x.end(), by_value);
      std::sort(y.begin(), y.end(), by_value);
      for (std::size_t i = 0; i < x.size(); ++i) EXPECT_LE(std::abs(x[i] - y[i]), 1e-8 * std::abs(y[i]));
    }
}

TEST(Jdqr, JacobiPreconditionerAndNoCorrectionSolveStillConverge) {
  const sparse::PrescribedSpectrum p{separated(200), Complex(0.3, 0), Complex(0.2, 0)};
  const ComplexCsrMatrix a = sparse::prescribed_spectrum_matrix(p);
  for (const auto& [steps, pre] : {std::pair{10, Precond::jacobi}, std::pair{0, Precond::none}}) {
    const Options o{.nev = 2, .target = Complex(1.5, 0.5), .tol = 1e-8, .correction_steps = steps, .precond = pre};
    expect_good(a, run(a, o), o, p.eigenvalues, 1e-6);
  }
}

TEST(Jdqr, RealMatrixReadAsComplex) {
  const std::filesystem::path file = std::filesystem::path(ULIBC_MATRICES_DIR) / "sherman1.mtx";
  if (!std::filesystem::exists(file)) GTEST_SKIP() << file << " is absent";
  const ComplexCsrMatrix a = sparse::read_matrix_market_complex_file(file.string());
  const Options o{.nev = 3, .which = Which::largest_magnitude, .tol = 1e-8, .jmin = 10, .jmax = 25};
  const Result r = run(a, o);
  ASSERT_TRUE(r.converged);
  const Check c = verify(a, r, o);
  EXPECT_TRUE(c.ok) << c.failure;
}

TEST(Jdqr, StopsShortWithWhatConverged) {
  const sparse::PrescribedSpectrum p{separated(300), Complex(0.5, 0), Complex(0.5, 0)};
  const ComplexCsrMatrix a = sparse::prescribed_spectrum_matrix(p);
  const Options o{.nev = 4, .target = Complex(1.2, 0.1), .tol = 1e-10, .max_iterations = 25};
  const Result r = run(a, o);
  EXPECT_FALSE(r.converged);
  EXPECT_LT(r.found, 4);
  EXPECT_EQ(r.iterations, 25);
  EXPECT_GT(r.last_residual, 0);
  const Check c = verify(a, r, o);  // what did converge is a correct partial Schur form
  EXPECT_TRUE(c.ok) << c.failure;
}

TEST(Jdqr, RefusesBadInput) {
  const ComplexCsrMatrix a = sparse::tridiagonal_toeplitz_matrix({.n = 30, .diagonal = 2, .lower = -1, .upper = -1});
  auto refused = [&](const Options& o, const std::string& needle) {
    try {
      run(a, o);
      ADD_FAILURE() << "accepted; expected an error naming " << needle;
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::input);
      EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
    }
  };
  refused({.nev = 0}, "--nev 0");
  refused({.nev = 30}, "--nev 30");
  refused({.nev = 2, .jmin = 10, .jmax = 10}, "jmin < jmax");
  refused({.nev = 2, .jmin = 5, .jmax = 31}, "--jmax 31");
  refused({.nev = 2, .tol = 0}, "--tol");
  refused({.nev = 2, .target = Complex(NAN, 0)}, "--target");
  refused({.nev = 2, .which = Which::largest_real, .extraction = Extraction::harmonic}, "harmonic");
  const ComplexCsrMatrix rect(3, 4, std::vector<ComplexEntry>{});
  try {
    run(rect, {.nev = 1});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("3 x 4, not square"), std::string::npos) << e.what();
  }
}

TEST(Jdqr, RefusesNaNAndANonHermitianMatrixInHermitianMode) {
  const ComplexCsrMatrix nan(3, 3, std::vector<ComplexEntry>{{0, 0, 1}, {1, 1, Complex(NAN, 0)}, {2, 2, 3}});
  try {
    run(nan, {.nev = 1, .jmin = 1, .jmax = 2});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("NaN"), std::string::npos) << e.what();
  }
  const ComplexCsrMatrix skew(
      3, 3, std::vector<ComplexEntry>{{0, 0, 1}, {0, 1, Complex(0, 1)}, {1, 0, Complex(0, 1)}, {1, 1, 2}, {2, 2, 3}});
  try {
    run(skew, {.nev = 1, .hermitian = true, .jmin = 1, .jmax = 2});
    ADD_FAILURE();
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("entry (1, 2) is not the conjugate of entry (2, 1)"), std::string::npos)
        << e.what();
  }
}

TEST(ComplexText, ReadsEveryFormAndWritesWhatItReads) {
  const std::vector<std::pair<std::string, Complex>> cases = {{"-3", {-3, 0}},
                                                              {"2i", {0, 2}},
                                                              {"1.2+0.4i", {1.2, 0.4}},
                                                              {"1.2-0.4i", {1.2, -0.4}},
                                                              {"i", {0, 1}},
                                                              {"-i", {0, -1}},
                                                              {"5+i", {5, 1}},
                                                              {"5-j", {5, -1}},
                                                              {"1e-3-2.5e2i", {1e-3, -250}},
                                                              {"-1e+2+3E-1i", {-100, 0.3}},
                                                              {"+4", {4, 0}},
                                                              {"0", {0, 0}}};
  for (const auto& [text, value] : cases) {
    EXPECT_EQ(parse_complex(text), value) << text;
    EXPECT_EQ(parse_complex(complex_text(value)), value) << complex_text(value);
  }
  for (const char* bad : {"", "+", "1+", "1+2", "i2", "1.2.3i", "nan", "inf", "1e999", "1+nani", "1 + 2i", "--1"}) try {
      parse_complex(bad);
      ADD_FAILURE() << "accepted \"" << bad << "\"";
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("is not a complex number"), std::string::npos) << e.what();
    }
}

TEST(Generate, SpecsGiveMatricesWithTheirSpectra) {
  const Problem c = generate("convdiff2d:7:3:1-1i:0.5i");
  EXPECT_EQ(c.a.rows(), 49);
  ASSERT_TRUE(c.exact);
  EXPECT_EQ(c.exact->size(), 49u);
  const Problem t = generate("toeplitz:9:2:-1:-1");
  EXPECT_EQ(t.a.rows(), 9);
  const Problem s = generate("spectrum:30");
  EXPECT_EQ(s.exact->at(4), Complex(5, 0.5 * std::sin(5.0)));
  for (const char* bad : {"convdiff2d", "convdiff2d:1", "convdiff2d:x", "toeplitz:9:2:-1", "spectrum:30:1:2:3",
                          "spectrum:10:oops", "laplace:9", ""})
    try {
      generate(bad);
      ADD_FAILURE() << "accepted " << bad;
    } catch (const Error& e) {
      EXPECT_NE(std::string(e.what()).find("--generate"), std::string::npos) << e.what();
    }
}

}  // namespace
}  // namespace ulibc::eigen
