// sparse/prescribed_spectrum.cpp — S·D·S⁻¹ with S = (I + E)(I + O), built row by row from its tridiagonal factors.
#include "sparse/prescribed_spectrum.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>

#include "ulibc/error.hpp"

namespace ulibc::sparse {

namespace {

void check_spectrum(const PrescribedSpectrum& p) {
  const auto n = static_cast<Index>(p.eigenvalues.size());
  if (n < 1 || n > kMaxDimension)
    throw input_error(fmt::format("a prescribed spectrum of {} eigenvalues: expected 1 to {}", n, kMaxDimension));
  const auto finite = [](Complex z) { return std::isfinite(z.real()) && std::isfinite(z.imag()); };
  if (!std::all_of(p.eigenvalues.begin(), p.eigenvalues.end(), finite) || !finite(p.even_coupling) ||
      !finite(p.odd_coupling))
    throw input_error("a prescribed spectrum with a value that is not finite");
}

// The three factors of A = (I + E)·B·(I − E), entry by entry; each is 0 beyond its neighbours and outside the matrix.
class SimilarityFactors {
 public:
  explicit SimilarityFactors(const PrescribedSpectrum& p) : p_(p), n_(static_cast<Index>(p.eigenvalues.size())) {}

  Index order() const { return n_; }

  // I + sign·E: s at (m, m ± 1) for even m.
  Complex elementary(Index m, Index k, double sign) const {
    if (k < 0 || k >= n_) return 0;
    if (k == m) return 1;
    return m % 2 == 0 && (k == m - 1 || k == m + 1) ? sign * p_.even_coupling : Complex();
  }

  // B = D + O∘(d_j − d_i): O·D·O vanishes, so B is formed directly, each entry rounded once.
  Complex b(Index i, Index j) const {
    if (j < 0 || j >= n_) return 0;
    if (j == i) return d(i);
    return i % 2 == 1 && (j == i - 1 || j == i + 1) ? p_.odd_coupling * (d(j) - d(i)) : Complex();
  }

 private:
  Complex d(Index i) const { return p_.eigenvalues[i]; }

  const PrescribedSpectrum& p_;
  Index n_;
};

// Row i of A, columns i − 3 .. i + 3 (every factor is tridiagonal), summed over the paths i → j → m → k.
std::array<Complex, 7> similarity_row(const SimilarityFactors& f, Index i) {
  std::array<Complex, 7> row{};
  for (Index j = i - 1; j <= i + 1; ++j) {
    const Complex left = f.elementary(i, j, 1);
    if (left == Complex()) continue;
    for (Index m = j - 1; m <= j + 1; ++m) {
      const Complex middle = left * f.b(j, m);
      if (middle == Complex()) continue;
      for (Index k = m - 1; k <= m + 1; ++k) row[k - i + 3] += middle * f.elementary(m, k, -1);
    }
  }
  return row;
}

}  // namespace

ComplexCsrMatrix prescribed_spectrum_matrix(const PrescribedSpectrum& p) {
  check_spectrum(p);
  const SimilarityFactors f(p);
  std::vector<ComplexEntry> entries;
  entries.reserve(static_cast<std::size_t>(f.order()) * 5);
  for (Index i = 0; i < f.order(); ++i) {
    const std::array<Complex, 7> row = similarity_row(f, i);
    for (Index k = std::max<Index>(0, i - 3); k <= std::min(f.order() - 1, i + 3); ++k)
      if (row[k - i + 3] != Complex()) entries.push_back({i, k, row[k - i + 3]});
  }
  return ComplexCsrMatrix(f.order(), f.order(), entries);
}

std::vector<Complex> prescribed_spectrum_eigenvector(const PrescribedSpectrum& p, Index k) {
  check_spectrum(p);
  const auto n = static_cast<Index>(p.eigenvalues.size());
  if (k < 0 || k >= n)
    throw input_error(fmt::format("eigenvector {} of a {} x {} matrix: expected 0 to {}", k, n, n, n - 1));
  // (I + E)(I + O)·e_k: O adds t at k's odd neighbours when k is even, then E adds s times each odd position's
  // value at its even neighbours.
  std::vector<Complex> v(static_cast<std::size_t>(n));
  v[k] = 1;
  if (k % 2 == 0)
    for (const Index i : {k - 1, k + 1})
      if (i >= 0 && i < n) v[i] = p.odd_coupling;
  std::vector<Complex> w = v;
  for (Index i = 0; i < n; i += 2) {
    if (i > 0) w[i] += p.even_coupling * v[i - 1];
    if (i < n - 1) w[i] += p.even_coupling * v[i + 1];
  }
  return w;
}

}  // namespace ulibc::sparse
