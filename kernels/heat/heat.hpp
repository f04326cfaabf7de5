// heat/heat.hpp — heat diffusion on a 2-D grid by explicit time steps, each step's rows split by recursive halving
// on the task runtime: the Cilk and ityrbench "heat" benchmark, the case where ADWS gives each worker the same
// rows step after step.
//
// u_t = u_xx + u_yy on the unit square, u = 0 on the boundary, forward Euler in time and the 5-point Laplacian
// in space: u'(i, j) = u(i, j) + rx (u(i−1, j) − 2u(i, j) + u(i+1, j)) + ry (u(i, j−1) − 2u(i, j) + u(i, j+1)),
// rx = dt/hx², ry = dt/hy². From u0(x, y) = sin(πx) sin(πy), an eigenvector of the discrete operator, every
// step multiplies the grid by one factor (verify.hpp), which checks the whole computation.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <vector>

namespace ulibc::heat {

struct Problem {
  std::size_t rows = 0, cols = 0;  // grid points, boundary included (at least 3 each)
  double rx = 0.2, ry = 0.2;       // dt/hx² and dt/hy²; the scheme is stable for rx + ry <= 1/2
};

// The two grids a run alternates between, allocated untouched: the first parallel loop over them (initialise)
// places their pages where it runs each row.
class Grids {
 public:
  explicit Grids(const Problem& p);  // Error(input) for fewer than 3 rows or columns, or an unstable rx + ry
  const Problem& problem() const { return p_; }
  std::span<double> current() { return {cur_.get(), p_.rows * p_.cols}; }
  std::span<const double> current() const { return {cur_.get(), p_.rows * p_.cols}; }
  std::span<double> next() { return {next_.get(), p_.rows * p_.cols}; }
  void swap() { cur_.swap(next_); }

 private:
  Problem p_;
  std::unique_ptr<double[]> cur_, next_;
};

// sin(πk/(points − 1)) for k = 0 .. points − 1, exactly 0 at both ends: u0(i, j) = rows'[i] · cols'[j], the
// boundary included (the initial grid, and the shape of the exact solution verify.hpp compares with).
std::vector<double> sine_profile(std::size_t points);

// u0 on both grids (the boundary rows and columns 0), rows split as a step splits them. Inside a runtime's run.
void initialise(Grids& g, std::size_t grain_rows);
// `steps` time steps; each a parallel loop over the interior rows, pieces of at most grain_rows rows.
void run(Grids& g, int steps, std::size_t grain_rows);

}  // namespace ulibc::heat
