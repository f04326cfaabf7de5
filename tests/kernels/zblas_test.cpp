// zblas_test.cpp — the parallel kernels against OpenBLAS through CBLAS (and the serial
// reference against both) on random inputs of awkward sizes and thread
// counts, on adversarial ones (huge, tiny, zero, NaN, Inf) and on BLAS's
// special cases; then the bench kernel on a bound and an unbound team.
//
// NaN/Inf semantics checked for dznrm2 are LAPACK 3.10's (any NaN gives NaN,
// else any Inf gives Inf): Debian's OpenBLAS 0.3.21 (x87 sum of squares) and
// netlib's BLAS 3.11 (Anderson's dnrm2) were both found to return exactly
// that for NaN, Inf, Inf then NaN, and NaN then Inf. For the other kernels
// NaN and Inf fall out of the arithmetic; the tests ask for the same class
// (NaN, Inf of the same sign, finite) as OpenBLAS, part by part, except for
// an Inf in zdotc, where OpenBLAS 0.3.21 departs from netlib (see
// InfPropagatesLikeNetlib) and netlib's answer is the one asked for.
#include "zblas/zblas.hpp"

#include <cblas.h>
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <tuple>
#include <vector>

#include "expect_error.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"
#include "zblas/verify.hpp"
#include "zblas/zblas_bench.hpp"

namespace {

using ulibc::zblas::Complex;
using ulibc::zblas::Team;
using ulibc::zblas::Trans;
namespace zblas = ulibc::zblas;
namespace reference = ulibc::zblas::reference;

constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();
constexpr double kEps = DBL_EPSILON;
constexpr Trans kAllTrans[] = {Trans::none, Trans::trans, Trans::conj_trans};

// OpenBLAS runs its own pool of pthreads: one thread keeps it out of the way
// of the OpenMP teams under test.
const bool kOpenblasSerial = [] {
  openblas_set_num_threads(1);
  return true;
}();

// ------------------------------------------------------------ OpenBLAS

blasint blas_int(std::size_t n) { return static_cast<blasint>(n); }

Complex blas_zdotc(std::size_t n, const Complex* x, const Complex* y) {
  Complex r;
  cblas_zdotc_sub(blas_int(n), x, 1, y, 1, &r);
  return r;
}
void blas_zaxpy(std::size_t n, Complex alpha, const Complex* x, Complex* y) {
  cblas_zaxpy(blas_int(n), &alpha, x, 1, y, 1);
}
double blas_dznrm2(std::size_t n, const Complex* x) { return cblas_dznrm2(blas_int(n), x, 1); }
void blas_zgemv(Trans t, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
                const Complex* x, Complex beta, Complex* y) {
  const CBLAS_TRANSPOSE bt = t == Trans::none ? CblasNoTrans : t == Trans::trans ? CblasTrans : CblasConjTrans;
  cblas_zgemv(CblasColMajor, bt, blas_int(m), blas_int(n), &alpha, a, blas_int(lda), x, 1, &beta, y, 1);
}

// ------------------------------------------------------------ helpers

std::vector<Complex> random_vector(std::size_t n, unsigned seed) {
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Complex> v(n);
  for (Complex& z : v) z = {u(gen), u(gen)};
  return v;
}

std::string name_of(Trans t) { return t == Trans::none ? "N" : t == Trans::trans ? "T" : "C"; }
std::size_t leny(Trans t, std::size_t m, std::size_t n) { return t == Trans::none ? m : n; }
std::size_t lenx(Trans t, std::size_t m, std::size_t n) { return t == Trans::none ? n : m; }

// |got - want| within tol times `scale` (the sum of the magnitudes of what
// was added up: the size of a rounding error), part by part.
void expect_close(Complex got, Complex want, double scale, double tol, const std::string& what) {
  EXPECT_LE(std::abs(got.real() - want.real()), tol * scale) << what << ": got " << got << ", want " << want;
  EXPECT_LE(std::abs(got.imag() - want.imag()), tol * scale) << what << ": got " << got << ", want " << want;
}

// The same class, part by part: both NaN, both infinite with the same sign,
// or both finite (and then close).
void expect_same_class(double got, double want, const std::string& what) {
  if (std::isnan(want)) {
    EXPECT_TRUE(std::isnan(got)) << what << ": got " << got << ", want NaN";
  } else if (std::isinf(want)) {
    EXPECT_EQ(got, want) << what;
  } else {
    EXPECT_TRUE(std::isfinite(got)) << what << ": got " << got << ", want " << want;
    EXPECT_NEAR(got, want, 1e-12 * (1 + std::abs(want))) << what;
  }
}
void expect_same_class(Complex got, Complex want, const std::string& what) {
  expect_same_class(got.real(), want.real(), what + " (re)");
  expect_same_class(got.imag(), want.imag(), what + " (im)");
}
void expect_same_classes(const std::vector<Complex>& got, const std::vector<Complex>& want, const std::string& what) {
  ASSERT_EQ(got.size(), want.size());
  for (std::size_t i = 0; i < got.size(); ++i)
    expect_same_class(got[i], want[i], what + " [" + std::to_string(i) + "]");
}

bool same_bits(const std::vector<Complex>& a, const std::vector<Complex>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(Complex)) == 0;
}

// Tolerance for a sum of n terms: both sides round each term and the sum.
double tol_for(std::size_t n) { return 8 * kEps * std::sqrt(static_cast<double>(n) + 1); }

// A column-major m x n matrix with leading dimension lda; the rows below m
// (lda > m) hold NaN, so that reading them shows in the result.
struct Matrix {
  std::size_t m, n, lda;
  std::vector<Complex> data;
  Matrix(std::size_t rows, std::size_t cols, std::size_t ld, unsigned seed)
      : m(rows), n(cols), lda(ld), data(random_vector(std::max<std::size_t>(ld * cols, 1), seed)) {
    for (std::size_t j = 0; j < n; ++j)
      for (std::size_t i = m; i < lda; ++i) data[j * lda + i] = {kNaN, kNaN};
  }
  Complex at(std::size_t i, std::size_t j) const { return data[j * lda + i]; }
};

// Per entry of y, the sum of the magnitudes zgemv adds: |beta y| + |alpha| sum |A||x|.
std::vector<double> gemv_scale(Trans t, const Matrix& a, Complex alpha, const std::vector<Complex>& x, Complex beta,
                               const std::vector<Complex>& y) {
  std::vector<double> s(y.size());
  for (std::size_t k = 0; k < y.size(); ++k) s[k] = std::abs(beta) * std::abs(y[k]);
  for (std::size_t j = 0; j < a.n; ++j)
    for (std::size_t i = 0; i < a.m; ++i) {
      const double term = std::abs(alpha) * std::abs(a.at(i, j)) * std::abs(x[t == Trans::none ? j : i]);
      s[t == Trans::none ? i : j] += term;
    }
  return s;
}

double dot_scale(const std::vector<Complex>& x, const std::vector<Complex>& y) {
  double s = 0;
  for (std::size_t i = 0; i < x.size(); ++i) s += std::abs(x[i]) * std::abs(y[i]);
  return s;
}

// ------------------------------------------------------------ the team

TEST(ZblasTeam, EvenSplitCoversEveryRowOnce) {
  for (std::size_t n : {0, 1, 2, 3, 17, 1000}) {
    for (int threads : {1, 2, 3, 7}) {
      const Team team(n, threads);
      ASSERT_EQ(team.threads(), threads);
      ASSERT_EQ(team.size(), n);
      std::size_t next = 0;
      for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(team.range(t).begin, next) << "n=" << n << " t=" << t;
        EXPECT_LE(team.range(t).size(), n / threads + 1);
        next = team.range(t).end;
      }
      EXPECT_EQ(next, n);
    }
  }
}

TEST(ZblasTeam, ZeroThreadsMeansOpenMPsMaximum) { EXPECT_EQ(Team(10).threads(), omp_get_max_threads()); }

TEST(ZblasTeam, TakesThePartitionsThreadRanges) {
  const auto topo = ulibc::Topology::load("/", ulibc::Detail::placement);
  const auto map = ulibc::Mapping::build(topo, ulibc::Policy(ulibc::PolicyKind::scatter), 3);
  const ulibc::NodePartition part(map, 1000);
  const Team team(part, 3);
  for (int t = 0; t < 3; ++t) EXPECT_EQ(team.range(t), part.thread_range(t));
  ulibc::testing::expect_input_error([&] { Team(part, 2); }, "not one of 2 threads");
  ulibc::testing::expect_input_error([&] { Team(part, 4); }, "thread 3");
  ulibc::testing::expect_input_error([&] { Team(part, 0); }, "at least one thread");
}

// ------------------------------------------------- random inputs vs OpenBLAS

class ZblasRandom : public ::testing::TestWithParam<std::tuple<std::size_t, int>> {
 protected:
  std::size_t n() const { return std::get<0>(GetParam()); }
  int threads() const { return std::get<1>(GetParam()); }
};

TEST_P(ZblasRandom, ZdotcMatchesOpenBLAS) {
  const auto x = random_vector(n(), 1), y = random_vector(n(), 2);
  const Complex got = zblas::zdotc(n(), x.data(), y.data(), threads());
  expect_close(got, blas_zdotc(n(), x.data(), y.data()), dot_scale(x, y), tol_for(n()), "zdotc");
  // Conjugation on the right side: swapping the operands conjugates the result.
  expect_close(zblas::zdotc(n(), y.data(), x.data(), threads()), std::conj(got), dot_scale(x, y), tol_for(n()),
               "zdotc(y, x)");
}

TEST_P(ZblasRandom, ZaxpyMatchesOpenBLAS) {
  const auto x = random_vector(n(), 3), y0 = random_vector(n(), 4);
  const Complex alpha(0.7, -1.3);
  auto got = y0, want = y0;
  zblas::zaxpy(n(), alpha, x.data(), got.data(), threads());
  blas_zaxpy(n(), alpha, x.data(), want.data());
  for (std::size_t i = 0; i < n(); ++i)
    expect_close(got[i], want[i], std::abs(y0[i]) + std::abs(alpha) * std::abs(x[i]), 4 * kEps,
                 "zaxpy [" + std::to_string(i) + "]");
}

TEST_P(ZblasRandom, Dznrm2MatchesOpenBLAS) {
  const auto x = random_vector(n(), 5);
  const double want = blas_dznrm2(n(), x.data());
  EXPECT_NEAR(zblas::dznrm2(n(), x.data(), threads()), want, tol_for(n()) * want);
}

TEST_P(ZblasRandom, ZgemvMatchesOpenBLASForEveryOpAndColumnCount) {
  const std::size_t m = n();
  const Complex alpha(0.6, 0.8), beta(-0.3, 0.45);
  for (std::size_t cols : {1, 4, 7}) {
    const Matrix a(m, cols, m + 3, 6);  // lda > m, the rows between are NaN
    for (Trans t : kAllTrans) {
      const std::string what = "zgemv " + name_of(t) + " cols=" + std::to_string(cols);
      const auto x = random_vector(lenx(t, m, cols), 7), y0 = random_vector(leny(t, m, cols), 8);
      auto got = y0, want = y0;
      zblas::zgemv(t, m, cols, alpha, a.data.data(), a.lda, x.data(), beta, got.data(), threads());
      blas_zgemv(t, m, cols, alpha, a.data.data(), a.lda, x.data(), beta, want.data());
      const auto scale = gemv_scale(t, a, alpha, x, beta, y0);
      for (std::size_t k = 0; k < got.size(); ++k)
        expect_close(got[k], want[k], scale[k], tol_for(lenx(t, m, cols)), what + " [" + std::to_string(k) + "]");
    }
  }
}

TEST_P(ZblasRandom, ReferenceAgreesWithKernelsAndOpenBLAS) {
  const auto x = random_vector(n(), 9), y = random_vector(n(), 10);
  const double tol = tol_for(n());
  expect_close(reference::zdotc(n(), x.data(), y.data()), zblas::zdotc(n(), x.data(), y.data(), threads()),
               dot_scale(x, y), tol, "zdotc");
  const double norm = blas_dznrm2(n(), x.data());
  EXPECT_NEAR(reference::dznrm2(n(), x.data()), norm, tol * norm);
  auto ref_y = y, par_y = y;
  reference::zaxpy(n(), {2, -1}, x.data(), ref_y.data());
  zblas::zaxpy(n(), {2, -1}, x.data(), par_y.data(), threads());
  for (std::size_t i = 0; i < n(); ++i) expect_close(ref_y[i], par_y[i], 4 * (1 + std::abs(ref_y[i])), kEps, "zaxpy");
  const Matrix a(n(), 5, n() + 1, 11);
  for (Trans t : kAllTrans) {
    const auto gx = random_vector(lenx(t, n(), 5), 12), gy = random_vector(leny(t, n(), 5), 13);
    auto ref = gy, par = gy, blas = gy;
    reference::zgemv(t, n(), 5, {1, 1}, a.data.data(), a.lda, gx.data(), {0.5, 0}, ref.data());
    zblas::zgemv(t, n(), 5, {1, 1}, a.data.data(), a.lda, gx.data(), {0.5, 0}, par.data(), threads());
    blas_zgemv(t, n(), 5, {1, 1}, a.data.data(), a.lda, gx.data(), {0.5, 0}, blas.data());
    const auto scale = gemv_scale(t, a, {1, 1}, gx, {0.5, 0}, gy);
    for (std::size_t k = 0; k < ref.size(); ++k) {
      expect_close(ref[k], par[k], scale[k], tol_for(lenx(t, n(), 5)), "zgemv " + name_of(t) + " kernel");
      expect_close(ref[k], blas[k], scale[k], tol_for(lenx(t, n(), 5)), "zgemv " + name_of(t) + " OpenBLAS");
    }
  }
}

TEST_P(ZblasRandom, ReductionsAreTheSameOnEveryCall) {
  const auto x = random_vector(n(), 14), y = random_vector(n(), 15);
  const Complex dot = zblas::zdotc(n(), x.data(), y.data(), threads());
  const double norm = zblas::dznrm2(n(), x.data(), threads());
  for (int r = 0; r < 5; ++r) {
    EXPECT_EQ(zblas::zdotc(n(), x.data(), y.data(), threads()), dot);
    EXPECT_EQ(zblas::dznrm2(n(), x.data(), threads()), norm);
  }
}

INSTANTIATE_TEST_SUITE_P(SizesAndThreads, ZblasRandom,
                         ::testing::Combine(::testing::Values(0, 1, 2, 3, 17, 1000, 65537), ::testing::Values(1, 2, 3)),
                         [](const auto& info) {
                           return "n" + std::to_string(std::get<0>(info.param)) + "_t" +
                                  std::to_string(std::get<1>(info.param));
                         });

// ------------------------------------------------------------ dznrm2

std::vector<Complex> filled(std::size_t n, Complex z) { return std::vector<Complex>(n, z); }

TEST(ZblasDznrm2, HugeEntriesDoNotOverflow) {
  for (int threads : {1, 2, 3}) {
    const auto x = filled(1000, {3e300, 4e300});
    const double want = 5e300 * std::sqrt(1000.0);
    EXPECT_NEAR(zblas::dznrm2(x.size(), x.data(), threads), want, 4 * kEps * want) << threads << " threads";
    EXPECT_NEAR(blas_dznrm2(x.size(), x.data()), want, 4 * kEps * want);
    EXPECT_NEAR(reference::dznrm2(x.size(), x.data()), want, 4 * kEps * want);
  }
}

TEST(ZblasDznrm2, TinyEntriesDoNotUnderflow) {
  for (int threads : {1, 2, 3}) {
    for (double tiny : {1e-300, 1e-160, 1e-200}) {  // 1e-160: squares are subnormal, the plain sum inexact
      const auto x = filled(1000, {3 * tiny, 4 * tiny});
      const double want = 5 * tiny * std::sqrt(1000.0);
      EXPECT_NEAR(zblas::dznrm2(x.size(), x.data(), threads), want, 4 * kEps * want) << tiny << ", " << threads;
      EXPECT_NEAR(blas_dznrm2(x.size(), x.data()), want, 4 * kEps * want) << tiny;
    }
  }
}

TEST(ZblasDznrm2, MixedMagnitudesAcrossThreadsCombineScaled) {
  // Each thread's part has another scale: huge, ordinary, tiny.
  std::vector<Complex> x = filled(300, {1e300, 0});
  const auto ordinary = random_vector(300, 16);
  x.insert(x.end(), ordinary.begin(), ordinary.end());
  x.insert(x.end(), 300, Complex(0, 1e-300));
  const double want = blas_dznrm2(x.size(), x.data());
  EXPECT_NEAR(want, 1e300 * std::sqrt(300.0), 4 * kEps * want);
  for (int threads : {1, 2, 3, 4}) EXPECT_NEAR(zblas::dznrm2(x.size(), x.data(), threads), want, 4 * kEps * want);
  // Reversed: the largest part comes last in the fold.
  std::reverse(x.begin(), x.end());
  for (int threads : {1, 2, 3, 4}) EXPECT_NEAR(zblas::dznrm2(x.size(), x.data(), threads), want, 4 * kEps * want);
}

TEST(ZblasDznrm2, ZerosGiveZero) {
  for (int threads : {1, 2, 3}) {
    const auto x = filled(1000, {0, 0});
    EXPECT_EQ(zblas::dznrm2(x.size(), x.data(), threads), 0.0);
    EXPECT_EQ(zblas::dznrm2(0, x.data(), threads), 0.0);
    EXPECT_EQ(zblas::dznrm2(1, x.data(), threads), 0.0);
  }
}

TEST(ZblasDznrm2, NaNWinsThenInfAsInLapack310) {
  const std::size_t n = 1001;
  struct Case {
    const char* name;
    std::vector<std::pair<std::size_t, Complex>> entries;
    double want;  // NaN: any NaN
  };
  const std::vector<Case> cases = {
      {"NaN first", {{0, {kNaN, 0}}}, kNaN},
      {"NaN last (imaginary)", {{n - 1, {1, kNaN}}}, kNaN},
      {"Inf middle", {{n / 2, {kInf, 0}}}, kInf},
      {"-Inf imaginary last", {{n - 1, {0, -kInf}}}, kInf},
      {"Inf first and last", {{0, {kInf, 0}}, {n - 1, {0, kInf}}}, kInf},
      {"Inf then NaN", {{1, {kInf, 0}}, {n - 2, {kNaN, 0}}}, kNaN},
      {"NaN then Inf", {{1, {kNaN, 0}}, {n - 2, {0, kInf}}}, kNaN},
      {"Inf beside huge", {{0, {1e300, 1e300}}, {n - 1, {kInf, 1}}}, kInf},
      {"NaN beside huge", {{0, {1e300, 1e300}}, {n - 1, {kNaN, 1}}}, kNaN},
      {"NaN beside tiny", {{0, {1e-300, 0}}, {1, {kNaN, 0}}}, kNaN},
  };
  for (const Case& c : cases) {
    auto x = random_vector(n, 17);
    if (std::string(c.name).find("tiny") != std::string::npos) x = filled(n, {1e-300, 0});
    for (const auto& [i, z] : c.entries) x[i] = z;
    const double openblas = blas_dznrm2(n, x.data());
    const double ref = reference::dznrm2(n, x.data());
    for (double got :
         {zblas::dznrm2(n, x.data(), 1), zblas::dznrm2(n, x.data(), 2), zblas::dznrm2(n, x.data(), 3), openblas, ref}) {
      if (std::isnan(c.want))
        EXPECT_TRUE(std::isnan(got)) << c.name << ": got " << got;
      else
        EXPECT_EQ(got, kInf) << c.name;
    }
  }
}

// ------------------------------------------------------------ zdotc, zaxpy

TEST(ZblasZdotc, HugeTimesTinyStaysFinite) {
  const auto x = filled(1000, {1e300, -1e300}), y = filled(1000, {1e-300, 2e-300});
  for (int threads : {1, 2, 3})
    expect_close(zblas::zdotc(x.size(), x.data(), y.data(), threads), blas_zdotc(x.size(), x.data(), y.data()),
                 dot_scale(x, y), tol_for(x.size()), "huge x tiny");
}

TEST(ZblasZdotc, NaNPropagatesLikeOpenBLAS) {
  const std::size_t n = 1000;
  for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
    for (Complex bad : {Complex(kNaN, 0), Complex(0, kNaN)}) {
      for (bool in_x : {true, false}) {
        auto x = random_vector(n, 18), y = random_vector(n, 19);
        (in_x ? x : y)[at] = bad;
        const std::string what = "NaN at " + std::to_string(at) + (in_x ? " of x" : " of y");
        const Complex want = blas_zdotc(n, x.data(), y.data());
        for (int threads : {1, 2, 3}) expect_same_class(zblas::zdotc(n, x.data(), y.data(), threads), want, what);
        expect_same_class(reference::zdotc(n, x.data(), y.data()), want, what + " (reference)");
      }
    }
  }
}

// One infinite part makes conj(x_k) y_k = (xr yr + xi yi, xr yi - xi yr)
// infinite in both parts (the other products are finite), and the sum keeps
// them: netlib's zdotc (BLAS 3.11) returns exactly that. OpenBLAS 0.3.21's
// Cooperlake kernel does not: its real part comes back NaN for any Inf entry
// (even n = 1), so here the expectation is netlib's, computed by hand.
TEST(ZblasZdotc, InfPropagatesLikeNetlib) {
  const std::size_t n = 1000;
  for (std::size_t at : {std::size_t{0}, n / 2, n - 1}) {
    for (Complex bad : {Complex(kInf, 0), Complex(0, -kInf)}) {
      for (bool in_x : {true, false}) {
        auto x = random_vector(n, 18), y = random_vector(n, 19);
        (in_x ? x : y)[at] = bad;
        const Complex xk = x[at], yk = y[at];
        const Complex want(xk.real() * yk.real() + xk.imag() * yk.imag(),
                           xk.real() * yk.imag() - xk.imag() * yk.real());
        ASSERT_TRUE(std::isinf(want.real()) && std::isinf(want.imag()));
        const std::string what = "Inf at " + std::to_string(at) + (in_x ? " of x" : " of y");
        for (int threads : {1, 2, 3}) expect_same_class(zblas::zdotc(n, x.data(), y.data(), threads), want, what);
        expect_same_class(reference::zdotc(n, x.data(), y.data()), want, what + " (reference)");
      }
    }
  }
}

TEST(ZblasZaxpy, AlphaZeroLeavesYUntouchedEvenForNaNInX) {
  auto x = random_vector(100, 20);
  x[7] = {kNaN, kNaN};
  x[8] = {kInf, 0};
  const auto y0 = random_vector(100, 21);
  for (Complex alpha : {Complex(0, 0), Complex(-0.0, 0), Complex(0, -0.0)}) {
    for (int threads : {1, 2, 3}) {
      auto y = y0;
      zblas::zaxpy(y.size(), alpha, x.data(), y.data(), threads);
      EXPECT_TRUE(same_bits(y, y0));
    }
    auto y = y0, want = y0;
    reference::zaxpy(y.size(), alpha, x.data(), y.data());
    blas_zaxpy(want.size(), alpha, x.data(), want.data());
    EXPECT_TRUE(same_bits(y, y0));
    EXPECT_TRUE(same_bits(want, y0)) << "OpenBLAS returns at once too";
  }
}

TEST(ZblasZaxpy, NaNAndInfPropagateLikeOpenBLAS) {
  auto x = random_vector(100, 22), y0 = random_vector(100, 23);
  x[3] = {kNaN, 0};
  x[50] = {kInf, 0};
  y0[60] = {0, kNaN};
  y0[99] = {-kInf, 1};
  for (Complex alpha : {Complex(1, 0), Complex(0.5, -2)}) {
    auto want = y0;
    blas_zaxpy(want.size(), alpha, x.data(), want.data());
    for (int threads : {1, 2, 3}) {
      auto y = y0;
      zblas::zaxpy(y.size(), alpha, x.data(), y.data(), threads);
      expect_same_classes(y, want, "zaxpy");
    }
  }
}

// ------------------------------------------------------------ zgemv rules

TEST(ZblasZgemv, BetaZeroSetsYWithoutReadingIt) {
  const std::size_t m = 300, n = 5;
  const Matrix a(m, n, m, 24);
  for (Trans t : kAllTrans) {
    const auto x = random_vector(lenx(t, m, n), 25);
    const auto y0 = filled(leny(t, m, n), {kNaN, kInf});
    auto want = y0;
    blas_zgemv(t, m, n, {1, 2}, a.data.data(), a.lda, x.data(), {0, 0}, want.data());
    for (int threads : {1, 2, 3}) {
      auto y = y0;
      zblas::zgemv(t, m, n, {1, 2}, a.data.data(), a.lda, x.data(), {0, 0}, y.data(), threads);
      expect_same_classes(y, want, "beta 0, " + name_of(t));
      for (const Complex& z : y) ASSERT_TRUE(std::isfinite(z.real()) && std::isfinite(z.imag()));
    }
  }
}

TEST(ZblasZgemv, AlphaZeroOnlyScalesYAndReadsNeitherAnorX) {
  const std::size_t m = 300, n = 5;
  const Matrix a(m, n, m, 26);
  const std::vector<Complex> nan_a(m * n, {kNaN, kNaN}), nan_x(m, {kNaN, kNaN});
  for (Trans t : kAllTrans) {
    const auto y0 = random_vector(leny(t, m, n), 27);
    for (Complex beta : {Complex(0.5, 2), Complex(0, 0)}) {
      auto want = y0;
      blas_zgemv(t, m, n, {0, 0}, nan_a.data(), m, nan_x.data(), beta, want.data());
      for (int threads : {1, 2, 3}) {
        auto y = y0;
        zblas::zgemv(t, m, n, {0, 0}, nan_a.data(), m, nan_x.data(), beta, y.data(), threads);
        for (std::size_t k = 0; k < y.size(); ++k) {
          const Complex scaled = beta == Complex(0, 0) ? Complex(0, 0) : beta * y0[k];
          expect_close(y[k], scaled, std::abs(scaled), 2 * kEps, "alpha 0, " + name_of(t));
          expect_close(y[k], want[k], std::abs(scaled), 2 * kEps, "alpha 0 vs OpenBLAS, " + name_of(t));
        }
      }
    }
  }
}

TEST(ZblasZgemv, AlphaZeroBetaOneReturnsAtOnce) {
  auto y0 = random_vector(10, 28);
  y0[2] = {kNaN, kInf};
  for (Trans t : kAllTrans) {
    for (int threads : {1, 2, 3}) {
      auto y = y0;
      // Neither A nor x may be touched: they are not there.
      zblas::zgemv(t, 10, 10, {0, 0}, nullptr, 10, nullptr, {1, 0}, y.data(), threads);
      EXPECT_TRUE(same_bits(y, y0)) << name_of(t);
    }
  }
}

TEST(ZblasZgemv, EmptyDimensionsReturnAtOnceEvenWithBetaZero) {
  const auto y0 = filled(6, {kNaN, 1});
  const auto x = random_vector(6, 29);
  const Matrix a(6, 6, 6, 30);
  for (Trans t : kAllTrans) {
    for (auto [m, n] : {std::pair<std::size_t, std::size_t>{0, 6}, {6, 0}, {0, 0}}) {
      auto y = y0, want = y0;
      zblas::zgemv(t, m, n, {1, 1}, a.data.data(), 6, x.data(), {0, 0}, y.data(), 2);
      blas_zgemv(t, m, n, {1, 1}, a.data.data(), 6, x.data(), {0, 0}, want.data());
      EXPECT_TRUE(same_bits(y, y0)) << name_of(t) << " m=" << m << " n=" << n;
      EXPECT_TRUE(same_bits(want, y0)) << "OpenBLAS, " << name_of(t) << " m=" << m << " n=" << n;
    }
  }
}

TEST(ZblasZgemv, NaNAndInfInAAndXPropagateLikeOpenBLAS) {
  const std::size_t m = 257, n = 6;
  Matrix a(m, n, m, 31);
  a.data[5 * m + 100] = {kNaN, 0};
  a.data[2 * m + 7] = {kInf, 0};
  for (Trans t : kAllTrans) {
    auto x = random_vector(lenx(t, m, n), 32);
    x[1] = {0, kInf};
    const auto y0 = random_vector(leny(t, m, n), 33);
    auto want = y0;
    blas_zgemv(t, m, n, {1, 0.5}, a.data.data(), a.lda, x.data(), {0.5, 0.5}, want.data());
    for (int threads : {1, 2, 3}) {
      auto y = y0;
      zblas::zgemv(t, m, n, {1, 0.5}, a.data.data(), a.lda, x.data(), {0.5, 0.5}, y.data(), threads);
      expect_same_classes(y, want, "zgemv " + name_of(t));
    }
  }
}

TEST(ZblasZgemv, RejectsLdaBelowM) {
  std::vector<Complex> a(100), x(10), y(10);
  ulibc::testing::expect_input_error(
      [&] {
        zblas::zgemv(Trans::none, 10, 5, {1, 0}, a.data(), 9, x.data(), {0, 0}, y.data(), 1);
      },
      "lda 9");
}

// ------------------------------------------------------------ the verifier

TEST(ZblasVerify, TheKernelsResultsErrOnlyByRounding) {
  const std::size_t n = 1001, cols = 3;
  const Complex alpha(0.75, -0.5), beta(0.5, 0.25);
  const auto x = random_vector(n, 11), y0 = random_vector(n, 12);
  const double tol = 1e-12 * std::sqrt(static_cast<double>(n));
  EXPECT_LE(zblas::dznrm2_error(n, x.data(), zblas::dznrm2(n, x.data(), 3)), tol);
  EXPECT_LE(zblas::zdotc_error(n, x.data(), y0.data(), zblas::zdotc(n, x.data(), y0.data(), 3)), tol);
  auto y = y0;
  zblas::zaxpy(n, alpha, x.data(), y.data(), 3);
  EXPECT_LE(zblas::zaxpy_error(n, alpha, x.data(), y0.data(), y.data()), tol);
  const Matrix a(n, cols, n, 13);
  for (Trans t : kAllTrans) {
    const auto gx = random_vector(lenx(t, n, cols), 14), gy0 = random_vector(leny(t, n, cols), 15);
    auto gy = gy0;
    zblas::zgemv(t, n, cols, alpha, a.data.data(), a.lda, gx.data(), beta, gy.data(), 3);
    EXPECT_LE(zblas::zgemv_error(t, n, cols, alpha, a.data.data(), a.lda, gx.data(), beta, gy0.data(), gy.data()), tol)
        << name_of(t);
  }
}

TEST(ZblasVerify, AWrongEntryIsCaughtAndItsKernelNamed) {
  const std::size_t n = 1000;
  const Complex alpha(0.75, -0.5);
  const auto x = random_vector(n, 16), y0 = random_vector(n, 17);
  auto y = y0;
  zblas::zaxpy(n, alpha, x.data(), y.data());
  y[n / 2] += Complex(1e-6, 0);
  const double error = zblas::zaxpy_error(n, alpha, x.data(), y0.data(), y.data());
  EXPECT_GT(error, 1e-12 * std::sqrt(static_cast<double>(n)));
  const zblas::KernelError errors[] = {{"zdotc", 1e-16}, {"zaxpy", error}, {"dznrm2", 0}};
  const zblas::Check check = zblas::check(errors, n);
  EXPECT_FALSE(check.valid);
  EXPECT_NE(check.message.find("(zaxpy)"), std::string::npos) << check.message;
}

TEST(ZblasVerify, NaNIsTheWorstErrorOfAll) {
  const zblas::KernelError errors[] = {{"zgemv", 1e-3}, {"zdotc", kNaN}};
  const zblas::Check nan = zblas::check(errors, 100);
  EXPECT_FALSE(nan.valid);
  EXPECT_EQ(nan.message, "worst relative error nan (zdotc), tolerance 1e-11");
  const zblas::KernelError fine[] = {{"zgemv", 1e-16}};
  const zblas::Check good = zblas::check(fine, 100);
  EXPECT_TRUE(good.valid);
  EXPECT_EQ(good.message, "worst relative error 1e-16 (zgemv), tolerance 1e-11");
}

// ------------------------------------------------------------ the bench

class ZblasBenchTest : public ::testing::Test {
 protected:
  static const ulibc::Topology& topo() {
    static const ulibc::Topology t = ulibc::Topology::load("/", ulibc::Detail::placement);
    return t;
  }
  // The kernel with `args` parsed as its command line and prepared.
  static std::unique_ptr<ulibc::harness::BenchKernel> kernel(const std::string& args, bool quick) {
    auto k = zblas::make_bench();
    ulibc::harness::parse_options([&](ulibc::harness::Options& o) { k->add_options(o); }, args);
    k->prepare(topo(), 2, quick);
    return k;
  }
  static void expect_valid_run(const std::vector<ulibc::harness::RunResult>& results, int reps) {
    ASSERT_EQ(results.size(), 1u);
    const auto& r = results[0];
    EXPECT_TRUE(r.valid) << r.check;
    EXPECT_NE(r.check.find("worst relative error"), std::string::npos) << r.check;
    ASSERT_EQ(r.measurements.size(), 4u);
    const char* names[] = {"zgemv", "zdotc", "zaxpy", "dznrm2"};
    for (std::size_t i = 0; i < 4; ++i) {
      const auto& m = r.measurements[i];
      EXPECT_EQ(m.name, names[i]);
      EXPECT_EQ(m.unit, "GFLOP/s");
      EXPECT_EQ(m.better, ulibc::harness::Better::higher);
      EXPECT_EQ(m.reps.size(), static_cast<std::size_t>(reps));
      EXPECT_GT(m.value, 0);
      ASSERT_EQ(m.also.size(), 1u);
      EXPECT_EQ(m.also[0].first, "GB/s");
      EXPECT_GT(m.also[0].second, 0);
    }
  }
};

TEST_F(ZblasBenchTest, NamesAndQuickDefaults) {
  const auto k = kernel("", true);
  EXPECT_EQ(k->name(), "zblas");
  EXPECT_EQ(k->headline(), "zgemv");
  const auto p = k->parameters();
  EXPECT_EQ(p["size"], 4096);
  EXPECT_EQ(p["cols"], 4);
  EXPECT_EQ(p["reps"], 5);
  EXPECT_EQ(p["trans"], "n");
  const auto full = kernel("", false)->parameters();
  EXPECT_EQ(full["size"], 65536);
  EXPECT_EQ(full["reps"], 20);
  EXPECT_EQ(kernel("--size 100 --reps 3", true)->parameters()["size"], 100);
}

TEST_F(ZblasBenchTest, RunsUnderPolicyNoneOnOneThread) {
  const auto k = kernel("", true);
  const auto map = ulibc::Mapping::build(topo(), ulibc::Policy(ulibc::PolicyKind::none), 1);
  expect_valid_run(k->run({.topo = topo(), .map = map, .bound = false}), 5);
}

TEST_F(ZblasBenchTest, RunsUnderScatterOnTwoBoundThreads) {
  const auto k = kernel("", true);
  const auto map = ulibc::Mapping::build(topo(), ulibc::Policy(ulibc::PolicyKind::scatter), 2);
  std::vector<ulibc::harness::RunResult> results;
  {
    const ulibc::ScopedOpenMPTeam team(map);
    results = k->run({.topo = topo(), .map = map, .bound = team.bound()});
  }
  expect_valid_run(results, 5);
}

TEST_F(ZblasBenchTest, RunsEveryOpWithOddSizes) {
  for (const char* trans : {"n", "t", "c"}) {
    const auto k = kernel(std::string("--size 1001 --cols 5 --reps 2 --trans ") + trans, true);
    const auto map = ulibc::Mapping::build(topo(), ulibc::Policy(ulibc::PolicyKind::none), 3);
    expect_valid_run(k->run({.topo = topo(), .map = map}), 2);
  }
}

TEST_F(ZblasBenchTest, RejectsBadOptionsNamingThem) {
  using ulibc::testing::expect_input_error;
  expect_input_error([] { kernel("--size 0", false); }, "--size");
  expect_input_error([] { kernel("--cols 0", false); }, "--cols");
  expect_input_error([] { kernel("--reps 0", false); }, "--reps");
  expect_input_error([] { kernel("--reps -3", true); }, "--reps");
  expect_input_error([] { kernel("--trans x", false); }, "--trans");
  // Beyond memory, and beyond 2^64 bytes: refused before allocating.
  expect_input_error([] { kernel("--size 1000000000000", false); }, "--size 1000000000000");
  expect_input_error([] { kernel("--size 4611686018427387904 --cols 8", false); }, "zblas operands");
}

}  // namespace
