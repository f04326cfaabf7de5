// sdp/dense.hpp — the dense linear algebra of one symmetric block, through LAPACK and BLAS (OpenBLAS).
//
// A block is an n×n column-major array holding the full symmetric matrix (both triangles), so that BLAS's
// general products read it as it is. Nothing here is hand-written where LAPACK has it: Cholesky (dpotrf), the
// inverse from it (dpotri), the congruence L⁻¹ D L⁻ᵀ (dsygst) and the smallest eigenvalue (dsyevr).
#pragma once
#include <span>

namespace ulibc::sdp::dense {

// a ← its Cholesky factor L (lower triangle; the strict upper triangle is left as it was). False when a is not
// numerically positive definite. `lda`: the distance between columns, when a is part of a larger matrix.
bool cholesky(std::span<double> a, int n, int lda = 0);

// The same on a team of `threads` (right-looking by panels of kPanel columns: the panel's triangular solve split by
// rows, the trailing update by column blocks), for the Schur complement, whose order m is the solver's largest.
inline constexpr int kPanel = 64;
bool cholesky_team(std::span<double> a, int n, int threads);

// l (a Cholesky factor from cholesky()) ← the full symmetric inverse of L Lᵀ.
void invert_from_cholesky(std::span<double> l, int n);

// The largest α ≤ cap with L Lᵀ + α D ⪰ 0, for the factor l of a positive definite matrix and symmetric d (full):
// −1/λ_min(L⁻¹ D L⁻ᵀ) when that eigenvalue is negative, else cap. `work` holds n² doubles.
double max_step(std::span<const double> l, std::span<const double> d, int n, double cap, std::span<double> work);

// An estimate of the same step from Lanczos's method on L⁻¹ D L⁻ᵀ (triangular solves and a product per step, no
// n³ work): its smallest Ritz value bounds the smallest eigenvalue from above, so the step it gives may be a little
// long; sdp/cone.hpp checks the step by factoring its result. `work` holds 4n doubles.
double max_step_estimate(std::span<const double> l, std::span<const double> d, int n, double cap,
                         std::span<double> work);

// The smallest eigenvalue of the symmetric a (full); `work` holds n² doubles (a is not changed).
double min_eigenvalue(std::span<const double> a, int n, std::span<double> work);

// c ← α a b + β c for n×n a, b, c (general, column-major).
void multiply(std::span<const double> a, std::span<const double> b, std::span<double> c, int n, double alpha = 1,
              double beta = 0);

// a ← (a + aᵀ)/2.
void symmetrize(std::span<double> a, int n);

// Copies the lower triangle of a onto its upper triangle.
void mirror_lower(std::span<double> a, int n);

}  // namespace ulibc::sdp::dense
