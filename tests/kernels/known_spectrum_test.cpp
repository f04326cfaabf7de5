// known_spectrum_test.cpp — the test matrices with exact spectra: each exact eigenvalue matched by one of LAPACK's
// (zgeev on a dense copy, n ≤ 60), their structure, the prescribed matrix's eigenvectors at a size LAPACK is not
// needed for, and the refusals.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "expect_error.hpp"
#include "sparse/prescribed_spectrum.hpp"
#include "sparse/tridiagonal_toeplitz.hpp"

extern "C" void zgeev_(const char* jobvl, const char* jobvr, const int* n, std::complex<double>* a, const int* lda,
                       std::complex<double>* w, std::complex<double>* vl, const int* ldvl, std::complex<double>* vr,
                       const int* ldvr, std::complex<double>* work, const int* lwork, double* rwork, int* info);

namespace ulibc::sparse {
namespace {

using testing::expect_input_error;

// The eigenvalues LAPACK computes for a dense copy of `a`.
std::vector<Complex> lapack_eigenvalues(const ComplexCsrMatrix& a) {
  const int n = static_cast<int>(a.rows());
  std::vector<Complex> dense(static_cast<std::size_t>(n) * static_cast<std::size_t>(n));  // column by column
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      dense[static_cast<std::size_t>(a.columns()[static_cast<std::size_t>(k)] * n + i)] =
          a.values()[static_cast<std::size_t>(k)];
  std::vector<Complex> w(static_cast<std::size_t>(n)), work(static_cast<std::size_t>(4 * n));
  std::vector<double> rwork(static_cast<std::size_t>(2 * n));
  const int one = 1, lwork = 4 * n;
  int info = 0;
  zgeev_("N", "N", &n, dense.data(), &n, w.data(), nullptr, &one, nullptr, &one, work.data(), &lwork, rwork.data(),
         &info);
  EXPECT_EQ(info, 0);
  return w;
}

// Every exact eigenvalue paired with a distinct computed one within tolerance·max(1, |λ|), nearest first.
void expect_spectrum(const std::vector<Complex>& exact, std::vector<Complex> computed, double tolerance) {
  ASSERT_EQ(exact.size(), computed.size());
  for (const Complex& lambda : exact) {
    const auto nearest = std::min_element(computed.begin(), computed.end(), [&](const Complex& x, const Complex& y) {
      return std::abs(x - lambda) < std::abs(y - lambda);
    });
    EXPECT_LE(std::abs(*nearest - lambda), tolerance * std::max(1.0, std::abs(lambda)))
        << "exact " << lambda << ", nearest computed " << *nearest;
    computed.erase(nearest);
  }
}

// y = A·x.
std::vector<Complex> times(const ComplexCsrMatrix& a, const std::vector<Complex>& x) {
  std::vector<Complex> y(static_cast<std::size_t>(a.rows()));
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      y[static_cast<std::size_t>(i)] += a.values()[static_cast<std::size_t>(k)] *
                                        x[static_cast<std::size_t>(a.columns()[static_cast<std::size_t>(k)])];
  return y;
}

TEST(TridiagonalToeplitz, IsTheBandItNames) {
  const TridiagonalToeplitz t{4, Complex(2, 1), Complex(-1, 0.5), Complex(0.25, -1)};
  const ComplexCsrMatrix a = tridiagonal_toeplitz_matrix(t);
  ASSERT_EQ(a.rows(), 4);
  EXPECT_EQ(a.nonzeros(), 3 * 4 - 2);
  // Row 1: (1, 0) lower, (1, 1) diagonal, (1, 2) upper.
  EXPECT_EQ(a.row_start()[1], 2);
  EXPECT_EQ(a.columns()[2], 0);
  EXPECT_EQ(a.values()[2], t.lower);
  EXPECT_EQ(a.values()[3], t.diagonal);
  EXPECT_EQ(a.values()[4], t.upper);
}

TEST(TridiagonalToeplitz, EigenvaluesMatchLapack) {
  // Complex a, b, c with |b/c| ≈ 1.2: not normal, yet its eigenvalues stay well enough conditioned at n = 50.
  const TridiagonalToeplitz t{50, Complex(2, -1), Complex(-1.1, 0.3), Complex(-0.9, -0.2)};
  expect_spectrum(tridiagonal_toeplitz_eigenvalues(t), lapack_eigenvalues(tridiagonal_toeplitz_matrix(t)), 1e-10);
}

TEST(TridiagonalToeplitz, ShiftedConvectionDiffusionMatchesLapack) {
  const TridiagonalToeplitz t = shifted_convection_diffusion_1d(40, Complex(8, 3), Complex(-30, 10));
  const double h = 1.0 / 41;
  EXPECT_EQ(t.diagonal, 2.0 + Complex(-30, 10) * (h * h));
  EXPECT_EQ(t.lower, -1.0 - Complex(8, 3) * (h / 2));
  EXPECT_EQ(t.upper, -1.0 + Complex(8, 3) * (h / 2));
  expect_spectrum(tridiagonal_toeplitz_eigenvalues(t), lapack_eigenvalues(tridiagonal_toeplitz_matrix(t)), 1e-10);
}

TEST(TridiagonalToeplitz, KroneckerSumIsTheFivePointStencilAndMatchesLapack) {
  const ToeplitzKroneckerSum s = shifted_convection_diffusion_2d(7, Complex(10, 2), Complex(-4, 6), Complex(5, -20));
  const ComplexCsrMatrix a = kronecker_sum_matrix(s);
  ASSERT_EQ(a.rows(), 49);
  EXPECT_EQ(a.nonzeros(), 49 * 5 - 4 * 7);
  // The centre point 24 = (3, 3): y-lower, x-lower, diagonal, x-upper, y-upper.
  const auto first = static_cast<std::size_t>(a.row_start()[24]);
  EXPECT_EQ(a.columns()[first], 17);
  EXPECT_EQ(a.values()[first], s.y.lower);
  EXPECT_EQ(a.values()[first + 1], s.x.lower);
  EXPECT_EQ(a.values()[first + 2], s.x.diagonal + s.y.diagonal);
  EXPECT_EQ(a.values()[first + 3], s.x.upper);
  EXPECT_EQ(a.values()[first + 4], s.y.upper);
  expect_spectrum(kronecker_sum_eigenvalues(s), lapack_eigenvalues(a), 1e-10);
  // Unequal sides too: 6 x 9.
  const ToeplitzKroneckerSum r{{6, Complex(1, 1), Complex(-1, 0.2), Complex(-0.8, 0)},
                               {9, Complex(3, -2), Complex(0.5, 0.5), Complex(0.4, 0.6)}};
  expect_spectrum(kronecker_sum_eigenvalues(r), lapack_eigenvalues(kronecker_sum_matrix(r)), 1e-10);
}

// n eigenvalues spread over the complex plane, deterministic, with one repeated.
std::vector<Complex> chosen_eigenvalues(Index n) {
  std::vector<Complex> d;
  for (Index k = 0; k < n; ++k)
    d.push_back(Complex(std::cos(0.7 * static_cast<double>(k)) * static_cast<double>(k % 7 + 1),
                        std::sin(1.3 * static_cast<double>(k)) * 3.0 - 1.0));
  d[static_cast<std::size_t>(n - 1)] = d[0];
  return d;
}

TEST(PrescribedSpectrum, EigenvaluesMatchLapackAndTheMatrixIsNotNormal) {
  const PrescribedSpectrum p{chosen_eigenvalues(60), Complex(0.8, -0.3), Complex(-0.5, 0.6)};
  const ComplexCsrMatrix a = prescribed_spectrum_matrix(p);
  ASSERT_EQ(a.rows(), 60);
  EXPECT_LE(a.nonzeros(), 7 * 60);
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      EXPECT_LE(std::abs(a.columns()[static_cast<std::size_t>(k)] - i), 3);
  expect_spectrum(p.eigenvalues, lapack_eigenvalues(a), 1e-11);
  // Not normal: ‖A·e_j‖ and ‖Aᴴ·e_j‖ differ for some j (they agree for every j when A is normal).
  std::vector<Complex> e1(60);
  e1[1] = 1;
  double column_norm = 0, row_norm = 0;
  for (const Complex& z : times(a, e1)) column_norm += std::norm(z);
  for (Index k = a.row_start()[1]; k < a.row_start()[2]; ++k)
    row_norm += std::norm(a.values()[static_cast<std::size_t>(k)]);
  EXPECT_GT(std::abs(row_norm - column_norm), 1e-3);
}

TEST(PrescribedSpectrum, ColumnsOfSAreEigenvectorsAtAnySize) {
  const Index n = 1001;
  const PrescribedSpectrum p{chosen_eigenvalues(n), Complex(1.5, 0.5), Complex(-2, 1)};
  const ComplexCsrMatrix a = prescribed_spectrum_matrix(p);
  EXPECT_LE(a.nonzeros(), 7 * n);
  for (const Index k : {Index{0}, Index{1}, Index{2}, Index{501}, Index{998}, n - 1}) {
    SCOPED_TRACE(k);
    const std::vector<Complex> v = prescribed_spectrum_eigenvector(p, k);
    EXPECT_LE(std::count_if(v.begin(), v.end(), [](const Complex& z) { return z != Complex(); }), 5);
    const std::vector<Complex> av = times(a, v);
    const Complex d = p.eigenvalues[static_cast<std::size_t>(k)];
    for (std::size_t i = 0; i < v.size(); ++i) EXPECT_LE(std::abs(av[i] - d * v[i]), 1e-12 * 50) << i;
  }
}

TEST(PrescribedSpectrum, OneByOneAndTwoByTwo) {
  EXPECT_EQ(prescribed_spectrum_matrix({{Complex(3, 4)}, 1, 1}).values()[0], Complex(3, 4));
  expect_spectrum({1, Complex(0, 2)},
                  lapack_eigenvalues(prescribed_spectrum_matrix({{1, Complex(0, 2)}, Complex(2, 1), 3})), 1e-12);
}

TEST(KnownSpectra, BadParametersAreRefused) {
  expect_input_error([] { tridiagonal_toeplitz_matrix({0, 1, 1, 1}); }, "order 0");
  expect_input_error([] { tridiagonal_toeplitz_eigenvalues({3, 1, Complex(NAN, 0), 1}); }, "not finite");
  expect_input_error([] { kronecker_sum_matrix({{65536, 1, 1, 1}, {65536, 1, 1, 1}}); }, "more than 2147483647 rows");
  expect_input_error([] { shifted_convection_diffusion_1d(-1, 0, 0); }, "order -1");
  expect_input_error([] { prescribed_spectrum_matrix({}); }, "a prescribed spectrum of 0 eigenvalues");
  expect_input_error([] { prescribed_spectrum_matrix({{1, 2}, Complex(INFINITY, 0), 1}); }, "not finite");
  expect_input_error([] { prescribed_spectrum_eigenvector({{1, 2}, 1, 1}, 2); }, "eigenvector 2 of a 2 x 2 matrix");
}

}  // namespace
}  // namespace ulibc::sparse
