// eigen/verify.hpp — what a Jacobi–Davidson answer must satisfy, checked without the solver's code.
//
// The partial Schur form A Q = Q R the solver returns is checked column by column: Q orthonormal, R upper
// triangular, and ‖A q_i − Q r_i‖ ≤ tol·|R_ii| (what locking column i promised; the products here are the
// verifier's own plain loops). The eigenvectors' residuals ‖A x − λ x‖/‖x‖ are recomputed the same way for the
// report. Against a known spectrum, "none skipped": every eigenvalue better placed than the worst one found (nearer
// the target, larger) must have been found.
#pragma once
#include <string>
#include <vector>

#include "eigen/eigen.hpp"

namespace ulibc::eigen {

struct Check {
  bool ok = true;
  std::string failure;            // the first thing wrong, in words; "" when ok
  std::vector<double> residuals;  // per eigenpair: ‖A x − λ x‖ / ‖x‖
  double orthogonality = 0;       // max |(Q^H Q − I)_ij|
};

// The Schur form and eigenpairs of `r` for the matrix a, solved with options o.
Check verify(const sparse::ComplexCsrMatrix& a, const Result& r, const Options& o);

// ‖A x − λ x‖ / ‖x‖, serially.
double residual_norm(const sparse::ComplexCsrMatrix& a, Complex lambda, const Complex* x);

// "" when `found` are the wanted eigenvalues of a matrix whose whole spectrum is `exact` (o.which, o.target): each
// found value matches an exact one to `match_tol` relative (|found − exact| ≤ match_tol·max(1, |exact|)), no exact
// value is matched twice, and every exact value strictly better than the worst found one was found. Else the first
// thing wrong.
std::string missing_wanted(const std::vector<Complex>& exact, const std::vector<Complex>& found, const Options& o,
                           double match_tol);

}  // namespace ulibc::eigen
