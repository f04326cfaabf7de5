// sparse/tridiagonal_toeplitz.hpp — complex tridiagonal Toeplitz matrices and their 2-D Kronecker sums, whose
// eigenvalues are known in closed form: test matrices with exact spectra for the eigensolvers.
//
// T = tridiag(b, a, c) of order n — a on the diagonal, b below it, c above it — has the eigenvalues
//
//   λ_k = a + 2·sqrt(b·c)·cos(kπ/(n+1)),   k = 1..n
//
// (Noschese, Pasquini, Reichel, "Tridiagonal Toeplitz matrices: properties and novel applications", Numer. Linear
// Algebra Appl. 20 (2013), §2; either square root gives the same set, as cos(kπ/(n+1)) = −cos((n+1−k)π/(n+1))).
// With b·c ≠ 0 they are distinct and T is diagonalisable; T is normal only when |b| = |c|, and its eigenvalues grow
// ill-conditioned, like |b/c|^(n/2), as |b/c| leaves 1 (with b·c = 0 it is a Jordan block: one eigenvalue, defective).
//
// The 2-D operator on an nx x ny grid, unknowns numbered x fastest as in sparse/convection_diffusion.hpp, is the
// Kronecker sum I_y ⊗ T_x + T_y ⊗ I_x; its eigenvalues are every sum λ_i(T_x) + λ_j(T_y) (Horn and Johnson, Topics in
// Matrix Analysis, Theorem 4.4.5).
//
// Central differences of the shifted convection-diffusion equation −u'' + β·u' + σ·u on (0, 1), u(0) = u(1) = 0,
// at the n interior points of spacing h = 1/(n+1), multiplied by h², give a = 2 + σ·h², b = −1 − β·h/2,
// c = −1 + β·h/2: the 1-D model problem of sparse/convection_diffusion.hpp with complex convection and a complex shift.
#pragma once
#include <vector>

#include "sparse/csr_matrix.hpp"

namespace ulibc::sparse {

struct TridiagonalToeplitz {
  Index n = 0;           // the order
  Complex diagonal = 0;  // a
  Complex lower = 0;     // b, on the subdiagonal
  Complex upper = 0;     // c, on the superdiagonal
};

// The n x n matrix, every position of the band stored (zeros included: the structure does not depend on the values).
// Error(input) for n outside 1..kMaxDimension or a value that is not finite.
ComplexCsrMatrix tridiagonal_toeplitz_matrix(const TridiagonalToeplitz& t);
// λ_1 .. λ_n of the formula above, in that order.
std::vector<Complex> tridiagonal_toeplitz_eigenvalues(const TridiagonalToeplitz& t);

// I_y ⊗ T_x + T_y ⊗ I_x: nx·ny rows, x fastest.
struct ToeplitzKroneckerSum {
  TridiagonalToeplitz x, y;
};
// Error(input) as for one factor, or when nx·ny exceeds kMaxDimension.
ComplexCsrMatrix kronecker_sum_matrix(const ToeplitzKroneckerSum& s);
// λ_i(T_x) + λ_j(T_y), i fastest.
std::vector<Complex> kronecker_sum_eigenvalues(const ToeplitzKroneckerSum& s);

// −u'' + β·u' + σ·u at n interior points, scaled by h² (above).
TridiagonalToeplitz shifted_convection_diffusion_1d(Index n, Complex convection, Complex shift);
// −Δu + β·∇u + σ·u on the n x n interior points of the unit square, β = (βx, βy): the shift is added once.
ToeplitzKroneckerSum shifted_convection_diffusion_2d(Index n, Complex convection_x, Complex convection_y,
                                                     Complex shift);

}  // namespace ulibc::sparse
