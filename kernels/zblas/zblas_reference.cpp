#include "zblas/zblas_reference.hpp"

#include <cmath>
#include <limits>

namespace ulibc::zblas::reference {

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
    for (std::size_t i = 0; i < m; ++i) sum = sum + (trans == Trans::conj_trans ? at(i, j).conj() : at(i, j)) * Wide(x[i]);
    y[j] = (Wide(y[j]) + Wide(alpha) * sum).narrow();
  }
}

}  // namespace ulibc::zblas::reference
