// sdp/cone.hpp — block matrices in the cone of positive semidefinite block-diagonal matrices: factoring,
// inverting, stepping to the boundary, and the products of the HRVW/KSH/M direction, on the team's threads.
//
// OpenBLAS runs on one thread throughout the solve (its own threads would compete with the team for the same
// processors: on two cores that made ELEMENTS ten times slower); the team shares the work instead, each thread
// calling LAPACK and BLAS on its own part: whole blocks when they are small, column slabs of a large block's
// products. A factor holds each dense block's Cholesky factor L (lower triangle) and each LP block's values
// themselves, so that a step length is one question for every kind of block.
#pragma once
#include <vector>

#include "sdp/block_matrix.hpp"

namespace ulibc::sdp {

// factor ← the factor of a; false when some block is not numerically positive definite.
bool factor(const BlockMatrix& a, BlockMatrix& factor, int threads);

// Both at once (X's and Y's, whose blocks the team shares): whether each factored.
std::pair<bool, bool> factor_pair(const BlockMatrix& a, BlockMatrix& fa, const BlockMatrix& b, BlockMatrix& fb,
                                  int threads);

// inverse ← a⁻¹ from a's factor.
void invert(const BlockMatrix& factor, BlockMatrix& inverse, int threads);

// The largest α ≤ cap with x + α dx ⪰ 0 and the largest with y + α dy ⪰ 0, for positive definite x and y given by
// their factors, both at once: exactly (LAPACK's eigenvalues), or estimated by Lanczos's method on the dense blocks
// of at least kEstimateOrder (dense::max_step_estimate: possibly a little long).
enum class StepMethod { exact, estimate };
inline constexpr int kEstimateOrder = 64;
std::pair<double, double> max_steps(const BlockMatrix& fx, const BlockMatrix& dx, const BlockMatrix& fy,
                                    const BlockMatrix& dy, double cap, int threads, StepMethod method);

// out ← sym(a · m · b) for block matrices given in full; `work` is a block matrix of the same shapes. The solver
// passes X⁻¹ as a: the very X⁻¹ that ELEMENTS used, so that dY meets the dual equations as closely as the Schur
// complement system was solved (with the factor of X instead, control2 and hinf1 lose dual feasibility).
void sym_product(const BlockMatrix& a, const BlockMatrix& m, const BlockMatrix& b, BlockMatrix& out, BlockMatrix& work,
                 int threads);

}  // namespace ulibc::sdp
