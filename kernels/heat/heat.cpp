// heat/heat.cpp — the heat equation's explicit steps, row pieces by recursive halving.
#include "heat/heat.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <string>

#include "ulibc/error.hpp"
#include "ulibc/tasks.hpp"

namespace ulibc::heat {

Grids::Grids(const Problem& p) : p_(p), cur_(new double[p.rows * p.cols]), next_(new double[p.rows * p.cols]) {
  if (p.rows < 3 || p.cols < 3)
    throw input_error("heat: a grid of " + std::to_string(p.rows) + " x " + std::to_string(p.cols) +
                      " points; at least 3 x 3 (the boundary and one interior point)");
  if (!(p.rx > 0 && p.ry > 0 && p.rx + p.ry <= 0.5))
    throw input_error("heat: rx + ry must lie in (0, 1/2] for the explicit scheme to be stable");
}

std::vector<double> sine_profile(std::size_t points) {
  std::vector<double> s(points, 0.0);
  for (std::size_t k = 1; k + 1 < points; ++k)
    s[k] = std::sin(std::numbers::pi * static_cast<double>(k) / static_cast<double>(points - 1));
  return s;
}

void initialise(Grids& g, std::size_t grain_rows) {
  const Problem& p = g.problem();
  const std::vector<double> sx = sine_profile(p.rows), sy = sine_profile(p.cols);
  const std::span<double> a = g.current(), b = g.next();
  tasks::parallel_for(0, p.rows, grain_rows, [&](std::size_t r0, std::size_t r1) {
    for (std::size_t i = r0; i < r1; ++i)
      for (std::size_t j = 0; j < p.cols; ++j) {
        a[i * p.cols + j] = sx[i] * sy[j];
        b[i * p.cols + j] = 0.0;
      }
  });
}

namespace {

// Rows [r0, r1) of out from in (interior rows only; the boundary stays 0).
void step_rows(const Problem& p, const double* __restrict in, double* __restrict out, std::size_t r0, std::size_t r1) {
  const std::size_t n = p.cols;
  for (std::size_t i = r0; i < r1; ++i) {
    const double* up = in + (i - 1) * n;
    const double* row = in + i * n;
    const double* down = in + (i + 1) * n;
    double* o = out + i * n;
    o[0] = 0.0;
#pragma omp simd
    for (std::size_t j = 1; j < n - 1; ++j)
      o[j] = row[j] + p.rx * (up[j] - 2 * row[j] + down[j]) + p.ry * (row[j - 1] - 2 * row[j] + row[j + 1]);
    o[n - 1] = 0.0;
  }
}

}  // namespace

void run(Grids& g, int steps, std::size_t grain_rows) {
  const Problem& p = g.problem();
  for (int s = 0; s < steps; ++s) {
    const double* in = g.current().data();
    double* out = g.next().data();
    // Rows 0 and rows−1 are the boundary: the loop runs over all rows, so that step and initialise split the
    // grid alike (ADWS then gives a worker the rows it first touched), and skips them.
    tasks::parallel_for(0, p.rows, grain_rows, [&](std::size_t r0, std::size_t r1) {
      step_rows(p, in, out, std::max<std::size_t>(r0, 1), std::min(r1, p.rows - 1));
    });
    g.swap();
  }
}

}  // namespace ulibc::heat
