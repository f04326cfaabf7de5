// sparse/prescribed_spectrum.hpp — a sparse, non-normal matrix whose eigenvalues the caller chooses: A = S·D·S⁻¹.
//
// D = diag(d_0 .. d_{n−1}) holds the eigenvalues. S = (I + E)(I + O), where E has entries only in even rows, at
// the odd columns beside them — (i, i−1) and (i, i+1) for even i, value s — and O only in odd rows, at the even
// columns beside them, value t. No column of E is a row of E, so E² = 0 and (I + E)⁻¹ = I − E; likewise for O:
// the fact that makes a Gauss transformation's inverse (Golub and Van Loan, Matrix Computations, 4th ed., §3.2.1).
// So S⁻¹ = (I − O)(I − E), exactly, and as sparse as S. A is similar to D (§7.1): its eigenvalues are the d_k,
// each as often as it is given, and its eigenvector for d_k is column k of S. Written out,
//
//   B = (I + O)·D·(I − O) = D + O∘(d_j − d_i)        (O·D·O = 0),
//   A = (I + E)·B·(I − E),
//
// a band of half-width 3: at most 7 entries a row (those that come out exactly 0 left out). With s, t ≠ 0 and
// distinct d's A is not normal; the condition number of its eigenvector basis, ‖S‖·‖S⁻¹‖, is at most
// ((1 + 2|s|)(1 + 2|t|))², whatever n, so the d_k stay well conditioned and a computed spectrum is checked against
// them to a tight tolerance. The entries are sums of a few rounded products: A is S·D·S⁻¹ up to a perturbation of
// a few units of rounding in each entry.
#pragma once
#include <vector>

#include "sparse/csr_matrix.hpp"

namespace ulibc::sparse {

struct PrescribedSpectrum {
  std::vector<Complex> eigenvalues;  // d_0 .. d_{n−1}; n = their count
  Complex even_coupling = 1;         // s, in E's even rows
  Complex odd_coupling = 1;          // t, in O's odd rows
};

// A, entries that are exactly 0 left out. Error(input) for no eigenvalues, more than kMaxDimension, or a value
// that is not finite.
ComplexCsrMatrix prescribed_spectrum_matrix(const PrescribedSpectrum& p);
// Column k of S, A's eigenvector for d_k (A·v = d_k·v up to rounding), n values with at most 5 nonzero.
// Error(input) for k outside 0..n−1 and as prescribed_spectrum_matrix.
std::vector<Complex> prescribed_spectrum_eigenvector(const PrescribedSpectrum& p, Index k);

}  // namespace ulibc::sparse
