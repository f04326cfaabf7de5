// zblas/verify.cpp — the serial reference of the zblas kernels, in long double, and the check of their results.
#include "zblas/verify.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

namespace ulibc::zblas {

namespace reference {

namespace {

// The long double complex arithmetic the loops need, on parts (no Annex G).
struct Wide {
  long double re = 0, im = 0;
  Wide() = default;
  Wide(long double r, long double i) : re(r), im(i) {}
  Wide(Complex z) : re(z.real()), im(z.imag()) {}  // NOLINT: widening
  Wide operator+(Wide b) const { return {re + b.re, im + b.im}; }
  Wide operator*(Wide b) const { return {re * b.re - im * b.im, re * b.im + im * b.re}; }
  Wide conj() const { return {re, -im}; }
  Complex narrow() const { return {static_cast<double>(re), static_cast<double>(im)}; }
};

static_assert(std::numeric_limits<long double>::max_exponent >= 2 * std::numeric_limits<double>::max_exponent + 64,
              "dznrm2's reference squares doubles in long double without scaling");

bool is_zero(Complex z) { return z == Complex(0, 0); }
bool is_one(Complex z) { return z == Complex(1, 0); }

}  // namespace

Complex zdotc(std::size_t n, const Complex* x, const Complex* y) {
  Wide sum;
  for (std::size_t i = 0; i < n; ++i) sum = sum + Wide(x[i]).conj() * Wide(y[i]);
  return sum.narrow();
}

void zaxpy(std::size_t n, Complex alpha, const Complex* x, Complex* y) {
  if (is_zero(alpha)) return;
  for (std::size_t i = 0; i < n; ++i) y[i] = (Wide(y[i]) + Wide(alpha) * Wide(x[i])).narrow();
}

double dznrm2(std::size_t n, const Complex* x) {
  long double sumsq = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const long double re = x[i].real(), im = x[i].imag();
    sumsq += re * re + im * im;
  }
  return static_cast<double>(std::sqrt(sumsq));
}

void zgemv(Trans trans, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
           const Complex* x, Complex beta, Complex* y) {
  if (m == 0 || n == 0 || (is_zero(alpha) && is_one(beta))) return;
  const std::size_t leny = trans == Trans::none ? m : n;
  // y = beta y first, zeros without reading y when beta == 0.
  if (!is_one(beta))
    for (std::size_t i = 0; i < leny; ++i) y[i] = is_zero(beta) ? Complex(0, 0) : (Wide(beta) * Wide(y[i])).narrow();
  if (is_zero(alpha)) return;
  const auto at = [&](std::size_t i, std::size_t j) { return Wide(a[j * lda + i]); };
  if (trans == Trans::none) {
    for (std::size_t i = 0; i < m; ++i) {
      Wide sum;
      for (std::size_t j = 0; j < n; ++j) sum = sum + at(i, j) * (Wide(alpha) * Wide(x[j]));
      y[i] = (Wide(y[i]) + sum).narrow();
    }
    return;
  }
  for (std::size_t j = 0; j < n; ++j) {
    Wide sum;
    for (std::size_t i = 0; i < m; ++i)
      sum = sum + (trans == Trans::conj_trans ? at(i, j).conj() : at(i, j)) * Wide(x[i]);
    y[j] = (Wide(y[j]) + Wide(alpha) * sum).narrow();
  }
}

}  // namespace reference

namespace {

double max_abs_diff(const Complex* a, const Complex* b, std::size_t n) {
  double d = 0;
  for (std::size_t i = 0; i < n; ++i) d = std::max(d, std::abs(a[i] - b[i]));
  return d;
}

double max_abs(const Complex* a, std::size_t n) {
  double m = 0;
  for (std::size_t i = 0; i < n; ++i) m = std::max(m, std::abs(a[i]));
  return m;
}

// The largest difference from `want`, relative to want's largest entry.
double vector_error(const Complex* got, const std::vector<Complex>& want) {
  return max_abs_diff(got, want.data(), want.size()) / max_abs(want.data(), want.size());
}

}  // namespace

double dznrm2_error(std::size_t n, const Complex* x, double got) {
  const double want = reference::dznrm2(n, x);
  return std::abs(got - want) / want;
}

double zdotc_error(std::size_t n, const Complex* x, const Complex* y, Complex got) {
  return std::abs(got - reference::zdotc(n, x, y)) / (reference::dznrm2(n, x) * reference::dznrm2(n, y));
}

double zaxpy_error(std::size_t n, Complex alpha, const Complex* x, const Complex* y0, const Complex* got) {
  std::vector<Complex> want(y0, y0 + n);
  reference::zaxpy(n, alpha, x, want.data());
  return vector_error(got, want);
}

double zgemv_error(Trans trans, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
                   const Complex* x, Complex beta, const Complex* y0, const Complex* got) {
  std::vector<Complex> want(y0, y0 + (trans == Trans::none ? m : n));
  reference::zgemv(trans, m, n, alpha, a, lda, x, beta, want.data());
  return vector_error(got, want);
}

Check check(std::span<const KernelError> errors, std::size_t n) {
  const auto badness = [](const KernelError& e) { return std::isnan(e.error) ? INFINITY : e.error; };
  const KernelError worst =
      *std::max_element(errors.begin(), errors.end(),
                        [&](const KernelError& x, const KernelError& y) { return badness(x) < badness(y); });
  const double tolerance = 1e-12 * std::sqrt(static_cast<double>(n));
  return {.valid = badness(worst) <= tolerance,
          .message =
              fmt::format("worst relative error {:.2g} ({}), tolerance {:.2g}", worst.error, worst.kernel, tolerance)};
}

}  // namespace ulibc::zblas
