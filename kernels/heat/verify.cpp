// heat/verify.cpp — the heat grid against the scheme's exact solution.
#include "heat/verify.hpp"

#include <fmt/format.h>

#include <cmath>
#include <limits>
#include <numbers>

namespace ulibc::heat {

double step_factor(const Problem& p) {
  const auto s2 = [](std::size_t points) {
    const double s = std::sin(std::numbers::pi / (2.0 * static_cast<double>(points - 1)));
    return s * s;
  };
  return 1 - 4 * p.rx * s2(p.rows) - 4 * p.ry * s2(p.cols);
}

Check check_grid(const Problem& p, std::span<const double> grid, int steps) {
  const double scale = std::pow(step_factor(p), steps);
  const std::vector<double> sx = sine_profile(p.rows), sy = sine_profile(p.cols);
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < p.rows; ++i) {
    for (std::size_t j = 0; j < p.cols; ++j) {
      const double want = scale * sx[i] * sy[j];
      const double error = std::abs(grid[i * p.cols + j] - want);
      if (!(error <= worst)) {  // NaN counts as the worst
        worst = std::isnan(error) ? std::numeric_limits<double>::infinity() : error;
        at = i * p.cols + j;
      }
    }
  }
  const double relative = scale > 0 ? worst / scale : worst;
  if (relative <= 1e-12) return {true, fmt::format("{} steps: every point within {:.1e} of g^s u0", steps, relative)};
  return {false, fmt::format("{} steps: point ({}, {}) is {}, off by {:.2e} of the largest value", steps, at / p.cols,
                             at % p.cols, grid[at], relative)};
}

}  // namespace ulibc::heat
