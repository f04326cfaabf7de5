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
  double worst = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < p.rows; ++i) {
    const double sx = std::sin(std::numbers::pi * static_cast<double>(i) / static_cast<double>(p.rows - 1));
    for (std::size_t j = 0; j < p.cols; ++j) {
      const bool edge = i == 0 || j == 0 || i == p.rows - 1 || j == p.cols - 1;
      const double sy = std::sin(std::numbers::pi * static_cast<double>(j) / static_cast<double>(p.cols - 1));
      const double want = edge ? 0.0 : scale * sx * sy;
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
