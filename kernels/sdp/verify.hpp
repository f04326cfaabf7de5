// sdp/verify.hpp — whether a solver's answer is what it claims, checked from the problem alone.
//
// The residuals and objectives are recomputed from the problem's entries (not with the solver's block algebra),
// and X and Y are checked to lie in the cone by their smallest eigenvalues (LAPACK). A pdOPT answer must be
// feasible within ε̄ and have a relative gap within ε*; a pUNBD answer a feasible (P) point below the lower bound
// or one whose x certifies (D) infeasible; a dUNBD answer a feasible (D) point above the upper bound or whose Y
// certifies (P) infeasible; pINF, dINF and pdINF answers their certificates (sdp/sdp.hpp), with X and Y in the cone.
// The tests also compare the Schur complement with B computed the plain way, from dense copies of the F_i.
#pragma once
#include <string>
#include <vector>

#include "sdp/block_matrix.hpp"
#include "sdp/problem.hpp"
#include "sdp/sdp.hpp"

namespace ulibc::sdp {

struct SolutionCheck {
  double p_feas_error = 0;  // max |Σ F_k x_k − F_0 − X| over the entries
  double d_feas_error = 0;  // max |F_k • Y − c_k|
  double obj_p = 0, obj_d = 0, relative_gap = 0;
  double min_eig_x = 0, min_eig_y = 0;  // the smallest eigenvalue over all blocks
};
SolutionCheck check_solution(const Problem& problem, const std::vector<double>& x, const BlockMatrix& X,
                             const BlockMatrix& Y);

// "" when `result`'s phase is certified by its point under `par` (feasibility within 10 ε̄ and the cone within
// 1e-8 of the largest entry, since the solver stops on its own rounding), else the first thing that is wrong.
// Phases that claim nothing (noINFO, pFEAS, dFEAS, pdFEAS) are checked for their feasibility claims alone.
std::string verify(const Problem& problem, const Result& result, const Parameters& par = {});

// Whether `value` agrees with `known` given to `digits` significant digits: to 6 of them (relative 1e-6) when the
// known value has more, else within one unit of its last digit (tables round or cut off: SDPLIB lists gpp100's
// −44.94355… as −44.9435).
bool agrees(double value, double known, int digits);

// B_ij = F_i • (X⁻¹ F_j Y), full m×m column-major, from dense copies of the F_i: the tests' reference.
std::vector<double> schur_reference(const Problem& problem, const BlockMatrix& xinv, const BlockMatrix& y);

}  // namespace ulibc::sdp
