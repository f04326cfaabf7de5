// sdp/schur_system.hpp — the Schur complement system B dx = r of each iteration: B factored once (CHOLESKY), then
// every right-hand side of the iteration solved with the factor.
//
// Near the optimum B can be too ill-conditioned for Cholesky in floating point (gpp100: SDPA stops there). Then
// B + δI is factored instead, δ from 1e-14 of B's largest diagonal entry, ×100 each try, up to 1e-6 of it, and
// every solve is refined against B itself: two rounds, not more. They bring back B's larger eigendirections and
// leave its smallest, which rounding made noise, damped (conjugate gradients to full accuracy amplified that noise:
// gpp100 and qap5 lost the dual).
#pragma once
#include <span>
#include <vector>

namespace ulibc::sdp {

class SchurSystem {
 public:
  explicit SchurSystem(int m) : m_(m), b_(static_cast<std::size_t>(m) * m) {}

  // Where ELEMENTS writes B (m×m column-major; the lower triangle is read).
  std::span<double> matrix() { return b_; }
  // Factors B (or B + δI) on a team of `threads`; false when even the largest shift does not factor.
  bool factor(int threads);
  // v ← B⁻¹ v.
  void solve(std::vector<double>& v);
  double shift() const { return shift_; }  // δ of the last factor

 private:
  static constexpr int kRefinements = 2;
  int m_;
  std::vector<double> b_, exact_, rhs_, residual_;
  double shift_ = 0;
};

}  // namespace ulibc::sdp
