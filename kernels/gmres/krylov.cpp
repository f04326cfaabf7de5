// gmres/krylov.cpp — cycle.hpp's GMRES cycle on complex vectors in shared memory.
#include "gmres/krylov.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "gmres/cycle.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {

// Below this many entries a loop costs less than the fork and join of a parallel region.
constexpr std::ptrdiff_t kMinParallelEntries = 4096;

// cycle.hpp's Space over n complex entries: the caller's product, M⁻¹ and inner product; every inner product is
// its own reduction (in shared memory a reduction is no dearer than the sum it makes).
class SharedSpace {
 public:
  using Scalar = Complex;
  using Vector = std::vector<Complex>;

  SharedSpace(std::size_t n, const ComplexApply& apply, const ComplexApply& precond, const ComplexDot& dot,
              const Complex* b)
      : n_(static_cast<std::ptrdiff_t>(n)), apply_(apply), precond_(precond), dot_(dot), b_(b), r_(n), z_(n) {}

  Vector& basis(int k) {
    while (static_cast<int>(v_.size()) <= k) v_.emplace_back(static_cast<std::size_t>(n_));
    return v_[k];
  }
  Complex dot(const Vector& x, const Vector& y) const { return dot_(x.data(), y.data()); }
  std::vector<Complex> dots(int k, const Vector& w, bool with_length) {
    std::vector<Complex> sums;
    for (int j = 0; j <= k; ++j) sums.push_back(dot(basis(j), w));
    if (with_length) sums.push_back(dot(w, w));
    return sums;
  }
  void subtract(int k, const Complex* h, Vector& w) {
    for (int j = 0; j <= k; ++j) subtract(h[j], basis(j), w);
  }
  void subtract(Complex h, const Vector& v, Vector& w) const {
#pragma omp parallel for schedule(static) if (n_ >= kMinParallelEntries)
    for (std::ptrdiff_t i = 0; i < n_; ++i) w[i] -= h * v[i];
  }

  const Vector& residual(const Complex* x) {
    apply_(x, r_.data());
#pragma omp parallel for schedule(static) if (n_ >= kMinParallelEntries)
    for (std::ptrdiff_t i = 0; i < n_; ++i) r_[i] = b_[i] - r_[i];
    return r_;
  }
  void divide(const Vector& in, double d, Vector& out) const {
#pragma omp parallel for schedule(static) if (n_ >= kMinParallelEntries)
    for (std::ptrdiff_t i = 0; i < n_; ++i) out[i] = in[i] / d;
  }
  void step(int j) {
    Vector& w = basis(j + 1);
    apply_(preconditioned(basis(j)), w.data());
  }
  void update(Complex* x, int j, const Complex* y) {
#pragma omp parallel for schedule(static) if (n_ >= kMinParallelEntries)
    for (std::ptrdiff_t i = 0; i < n_; ++i) {
      Complex sum = 0;
      for (int k = 0; k < j; ++k) sum += y[k] * v_[k][i];
      r_[i] = sum;
    }
    const Complex* z = preconditioned(r_);
#pragma omp parallel for schedule(static) if (n_ >= kMinParallelEntries)
    for (std::ptrdiff_t i = 0; i < n_; ++i) x[i] += z[i];
  }
  template <class F>
  void orthogonalising(F&& f) {
    f();
  }
  void step_done() {}
  bool past_deadline() { return false; }

 private:
  // M⁻¹ v, or v itself when there is no M.
  const Complex* preconditioned(const Vector& v) {
    if (!precond_) return v.data();
    precond_(v.data(), z_.data());
    return z_.data();
  }

  std::ptrdiff_t n_;
  const ComplexApply& apply_;
  const ComplexApply& precond_;
  const ComplexDot& dot_;
  const Complex* b_;
  Vector r_, z_;
  std::vector<Vector> v_;
};

}  // namespace

KrylovEnd gmres_few_steps(std::size_t n, const ComplexApply& apply, const ComplexApply& precond, const ComplexDot& dot,
                          const Complex* b, Complex* x, int max_steps, double rel_tol, Orth orth) {
  if (max_steps < 0) throw input_error(fmt::format("gmres_few_steps: {} steps: none or more", max_steps));
  if (!(rel_tol >= 0)) throw input_error(fmt::format("gmres_few_steps: tolerance {}: zero or more", rel_tol));
  if (!apply || !dot) throw input_error("gmres_few_steps: the product A x and the inner product are required");
  if (n == 0) return {};
  SharedSpace space(n, apply, precond, dot, b);
  const double b_norm = std::sqrt(std::real(dot(b, b)));
  // More than n steps cannot add to an n-dimensional space: past n, only rounding errors would be orthogonalised.
  const int m = static_cast<int>(std::min<std::size_t>(static_cast<std::size_t>(max_steps), n));
  const detail::CycleStats end = detail::run_cycle(space, x, {std::max(m, 1), orth, rel_tol * b_norm, m, false});
  return {end.steps, end.estimate};
}

}  // namespace ulibc::gmres
