// sdp/schur_system.hpp — the Schur complement system B dx = r of each iteration: B factored once (CHOLESKY), then
// every right-hand side of the iteration solved with the factor.
//
// Near the optimum B can be too ill-conditioned for Cholesky in floating point (gpp100: SDPA stops there). Then
// B + δI is factored instead, δ from 1e-14 of B's largest diagonal entry, ×100 each try, up to 1e-6 of it, and
// every solve is refined against B itself: two rounds, not more. They bring back B's larger eigendirections and
// leave its smallest, which rounding made noise, damped (conjugate gradients to full accuracy amplified that noise:
// gpp100 and qap5 lost the dual).
//
// Once both sides are feasible, B is shifted even where it factors: by at least kNoiseShift of its largest diagonal
// entry, about ten units of rounding of it. Near the optimum B grows singular along directions that leave the primal
// objective unchanged (control5's and hinf1's optimal faces); there B's smallest eigenvalues are rounding noise, and
// solving them exactly turns the right-hand side's rounding into steps of 1e9 along those directions: x drifts, and x
// times the dual residual is a gap floor that depends on the order of rounding (control5 ended at 3e-8 to 1.1e-6 by
// OpenBLAS's kernel type and thread count). The shift leaves those directions damped and the refinement recovers the
// others: control5 ends pdOPT, and hinf1 at the same gap to three digits, under each of OpenBLAS's x86-64 kernel
// types that an AVX2 processor runs (Haswell, Zen, SandyBridge, Nehalem, Prescott) and on 1-4 threads.
#pragma once
#include <span>
#include <vector>

namespace ulibc::sdp {

class SchurSystem {
 public:
  explicit SchurSystem(int m) : m_(m), b_(static_cast<std::size_t>(m) * m) {}

  // Where ELEMENTS writes B (m×m column-major; the lower triangle is read).
  std::span<double> matrix() { return b_; }
  // Factors B (or B + δI) on a team of `threads`; false when even the largest shift does not factor. `end_game`:
  // both sides are feasible, so δ ≥ kNoiseShift · B's largest diagonal entry.
  bool factor(int threads, bool end_game = false);
  // v ← B⁻¹ v.
  void solve(std::vector<double>& v);
  double shift() const { return shift_; }  // δ of the last factor

 private:
  static constexpr int kRefinements = 2;
  static constexpr double kNoiseShift = 1e-15;
  int m_;
  std::vector<double> b_, exact_, rhs_, residual_;
  double shift_ = 0;
};

}  // namespace ulibc::sdp
