// heat/verify.hpp — the check of a heat run: the grid against the scheme's exact solution from u0.
#pragma once
#include <string>

#include "heat/heat.hpp"

namespace ulibc::heat {

// u0 = sin(πx) sin(πy) is an eigenvector of the explicit step: after s steps the grid is g^s u0, with
// g = 1 − 4 rx sin²(π/(2(rows−1))) − 4 ry sin²(π/(2(cols−1))). Compared point by point, to a tolerance of
// 1e-12 relative to the largest value (the rounding of s steps).
struct Check {
  bool valid = false;
  std::string message;
};
double step_factor(const Problem& p);
Check check_grid(const Problem& p, std::span<const double> grid, int steps);

}  // namespace ulibc::heat
