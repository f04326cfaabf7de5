// sparse/convection_diffusion.hpp — the model problems of the sparse solvers: finite differences of an elliptic
// boundary-value problem with a convection term, on a grid of N points per direction in 2-D or 3-D.
//
//   −Δu + β·∇u = f on the unit square (cube), u = 0 on the boundary, with β = (b, b[, b]),
//
// on the interior points of a uniform grid of spacing h = 1/(N+1), second differences for −Δu and central
// differences for β·∇u, the equations multiplied by h²: every row has 2d on the diagonal (d the dimension) and,
// for each neighbour along an axis, −1 − b·h/2 toward the lower index and −1 + b·h/2 toward the higher one
// (neighbours outside the grid are the boundary's zeros and drop out). Unknowns are numbered x fastest, then y,
// then z. With b = 0 (poisson) the matrix is symmetric positive definite; with b ≠ 0 (convdiff) it is not
// symmetric, and for |b|·h/2 < 1 it stays diagonally dominant, an M-matrix.
#pragma once
#include <string>

#include "sparse/csr_matrix.hpp"

namespace ulibc::sparse {

struct ModelProblem {
  int dimensions = 2;        // 2: the 5-point stencil; 3: the 7-point one
  Index points = 0;          // N, interior points per direction
  double convection = 0;     // b
  std::string name() const;  // "poisson2d:400", "convdiff3d:80" — what parse_model_problem reads back
};

// b of the convdiff problems: strong enough that the matrix is far from symmetric, weak enough
// (b·h/2 ≤ 0.5 from N = 19 on) that central differences stay stable.
inline constexpr double kModelConvection = 20;

// "poisson2d:N", "poisson3d:N" (b = 0) or "convdiff2d:N", "convdiff3d:N" (b = kModelConvection).
// Error(input) naming the text for anything else, N < 1, or N^d beyond kMaxDimension.
ModelProblem parse_model_problem(const std::string& text);

// The matrix of N^d rows, entries sorted, built without a file.
CsrMatrix model_matrix(const ModelProblem& p);

}  // namespace ulibc::sparse
