// sparse/prescribed_spectrum.cpp — S·D·S⁻¹ with S = (I + E)(I + O), built as band products.
#include "sparse/prescribed_spectrum.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "ulibc/error.hpp"

namespace ulibc::sparse {

namespace {

// An n x n band of half-width w, row by row: what the products of banded factors need, without a sparse product.
class Band {
 public:
  Band(Index n, Index width) : n_(n), width_(width), v_(static_cast<std::size_t>(n * (2 * width + 1))) {}

  Index order() const { return n_; }
  Index width() const { return width_; }
  Index first(Index i) const { return std::max<Index>(0, i - width_); }
  Index last(Index i) const { return std::min(n_ - 1, i + width_); }
  Complex& at(Index i, Index j) { return v_[static_cast<std::size_t>(i * (2 * width_ + 1) + j - i + width_)]; }
  Complex at(Index i, Index j) const { return v_[static_cast<std::size_t>(i * (2 * width_ + 1) + j - i + width_)]; }

  friend Band operator*(const Band& a, const Band& b) {
    Band c(a.n_, a.width_ + b.width_);
    for (Index i = 0; i < a.n_; ++i)
      for (Index j = a.first(i); j <= a.last(i); ++j) {
        const Complex aij = a.at(i, j);
        if (aij == Complex()) continue;
        for (Index k = b.first(j); k <= b.last(j); ++k) c.at(i, k) += aij * b.at(j, k);
      }
    return c;
  }

 private:
  Index n_, width_;
  std::vector<Complex> v_;
};

// I + sign·X, where X holds `coupling` at (i, i ± 1) for the rows i of the given parity (0: E, 1: O).
Band elementary(Index n, int parity, Complex coupling, double sign) {
  Band m(n, 1);
  for (Index i = 0; i < n; ++i) {
    m.at(i, i) = 1;
    if (i % 2 != parity) continue;
    if (i > 0) m.at(i, i - 1) = sign * coupling;
    if (i < n - 1) m.at(i, i + 1) = sign * coupling;
  }
  return m;
}

void check_spectrum(const PrescribedSpectrum& p) {
  const auto n = static_cast<Index>(p.eigenvalues.size());
  if (n < 1 || n > kMaxDimension)
    throw input_error(fmt::format("a prescribed spectrum of {} eigenvalues: expected 1 to {}", n, kMaxDimension));
  const auto finite = [](Complex z) { return std::isfinite(z.real()) && std::isfinite(z.imag()); };
  if (!std::all_of(p.eigenvalues.begin(), p.eigenvalues.end(), finite) || !finite(p.even_coupling) ||
      !finite(p.odd_coupling))
    throw input_error("a prescribed spectrum with a value that is not finite");
}

}  // namespace

ComplexCsrMatrix prescribed_spectrum_matrix(const PrescribedSpectrum& p) {
  check_spectrum(p);
  const auto n = static_cast<Index>(p.eigenvalues.size());
  const std::vector<Complex>& d = p.eigenvalues;
  // B = D + O∘(d_j − d_i): O·D·O vanishes, so B is formed directly, each entry rounded once.
  Band b(n, 1);
  for (Index i = 0; i < n; ++i) {
    b.at(i, i) = d[static_cast<std::size_t>(i)];
    if (i % 2 != 1) continue;
    for (const Index j : {i - 1, i + 1})
      if (j >= 0 && j < n)
        b.at(i, j) = p.odd_coupling * (d[static_cast<std::size_t>(j)] - d[static_cast<std::size_t>(i)]);
  }
  const Band a = elementary(n, 0, p.even_coupling, 1) * b * elementary(n, 0, p.even_coupling, -1);
  std::vector<ComplexEntry> entries;
  entries.reserve(static_cast<std::size_t>(n) * 7);
  for (Index i = 0; i < n; ++i)
    for (Index j = a.first(i); j <= a.last(i); ++j)
      if (a.at(i, j) != Complex()) entries.push_back({i, j, a.at(i, j)});
  return ComplexCsrMatrix(n, n, entries);
}

std::vector<Complex> prescribed_spectrum_eigenvector(const PrescribedSpectrum& p, Index k) {
  check_spectrum(p);
  const auto n = static_cast<Index>(p.eigenvalues.size());
  if (k < 0 || k >= n)
    throw input_error(fmt::format("eigenvector {} of a {} x {} matrix: expected 0 to {}", k, n, n, n - 1));
  // (I + E)(I + O)·e_k: O adds t at k's odd neighbours when k is even, then E adds s times each odd position's
  // value at its even neighbours.
  std::vector<Complex> v(static_cast<std::size_t>(n));
  v[static_cast<std::size_t>(k)] = 1;
  if (k % 2 == 0)
    for (const Index i : {k - 1, k + 1})
      if (i >= 0 && i < n) v[static_cast<std::size_t>(i)] = p.odd_coupling;
  std::vector<Complex> w = v;
  for (Index i = 0; i < n; i += 2) {
    if (i > 0) w[static_cast<std::size_t>(i)] += p.even_coupling * v[static_cast<std::size_t>(i - 1)];
    if (i < n - 1) w[static_cast<std::size_t>(i)] += p.even_coupling * v[static_cast<std::size_t>(i + 1)];
  }
  return w;
}

}  // namespace ulibc::sparse
