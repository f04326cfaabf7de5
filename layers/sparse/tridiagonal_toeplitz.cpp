// sparse/tridiagonal_toeplitz.cpp — the tridiagonal Toeplitz matrices, their Kronecker sums and their spectra.
#include "sparse/tridiagonal_toeplitz.hpp"

#include <fmt/format.h>

#include <cmath>
#include <numbers>

#include "ulibc/error.hpp"

namespace ulibc::sparse {

namespace {

bool finite(Complex z) { return std::isfinite(z.real()) && std::isfinite(z.imag()); }

void check_toeplitz(const TridiagonalToeplitz& t) {
  if (t.n < 1 || t.n > kMaxDimension)
    throw input_error(fmt::format("a tridiagonal Toeplitz matrix of order {}: expected 1 to {}", t.n, kMaxDimension));
  if (!finite(t.diagonal) || !finite(t.lower) || !finite(t.upper))
    throw input_error("a tridiagonal Toeplitz matrix with a value that is not finite");
}

// Row `row` of I_y ⊗ T_x + T_y ⊗ I_x in column order; a 1-D matrix is the sum with ny = 1 and T_y = 0.
void push_kronecker_row(std::vector<ComplexEntry>& out, const ToeplitzKroneckerSum& s, Index row) {
  const Index nx = s.x.n, ny = s.y.n, ix = row % nx, iy = row / nx;
  if (iy > 0) out.push_back({row, row - nx, s.y.lower});
  if (ix > 0) out.push_back({row, row - 1, s.x.lower});
  out.push_back({row, row, s.x.diagonal + s.y.diagonal});
  if (ix < nx - 1) out.push_back({row, row + 1, s.x.upper});
  if (iy < ny - 1) out.push_back({row, row + nx, s.y.upper});
}

ComplexCsrMatrix kronecker_matrix(const ToeplitzKroneckerSum& s) {
  const Index rows = s.x.n * s.y.n;
  std::vector<ComplexEntry> entries;
  entries.reserve(static_cast<std::size_t>(rows) * 5);
  for (Index row = 0; row < rows; ++row) push_kronecker_row(entries, s, row);
  return ComplexCsrMatrix(rows, rows, entries);
}

}  // namespace

ComplexCsrMatrix tridiagonal_toeplitz_matrix(const TridiagonalToeplitz& t) {
  check_toeplitz(t);
  return kronecker_matrix({t, TridiagonalToeplitz{1, 0, 0, 0}});
}

std::vector<Complex> tridiagonal_toeplitz_eigenvalues(const TridiagonalToeplitz& t) {
  check_toeplitz(t);
  const Complex root = 2.0 * std::sqrt(t.lower * t.upper);
  std::vector<Complex> lambda(static_cast<std::size_t>(t.n));
  for (Index k = 1; k <= t.n; ++k)
    lambda[k - 1] =
        t.diagonal + root * std::cos(static_cast<double>(k) * std::numbers::pi / static_cast<double>(t.n + 1));
  return lambda;
}

ComplexCsrMatrix kronecker_sum_matrix(const ToeplitzKroneckerSum& s) {
  check_toeplitz(s.x);
  check_toeplitz(s.y);
  if (s.x.n > kMaxDimension / s.y.n)
    throw input_error(
        fmt::format("a Kronecker sum of orders {} and {}: more than {} rows", s.x.n, s.y.n, kMaxDimension));
  return kronecker_matrix(s);
}

std::vector<Complex> kronecker_sum_eigenvalues(const ToeplitzKroneckerSum& s) {
  const std::vector<Complex> lx = tridiagonal_toeplitz_eigenvalues(s.x), ly = tridiagonal_toeplitz_eigenvalues(s.y);
  std::vector<Complex> lambda;
  lambda.reserve(lx.size() * ly.size());
  for (const Complex& mu : ly)
    for (const Complex& l : lx) lambda.push_back(l + mu);
  return lambda;
}

TridiagonalToeplitz shifted_convection_diffusion_1d(Index n, Complex convection, Complex shift) {
  check_toeplitz({n, 0, 0, 0});
  const double h = 1.0 / static_cast<double>(n + 1);
  return {n, 2.0 + shift * (h * h), -1.0 - convection * (h / 2), -1.0 + convection * (h / 2)};
}

ToeplitzKroneckerSum shifted_convection_diffusion_2d(Index n, Complex convection_x, Complex convection_y,
                                                     Complex shift) {
  return {shifted_convection_diffusion_1d(n, convection_x, shift), shifted_convection_diffusion_1d(n, convection_y, 0)};
}

}  // namespace ulibc::sparse
