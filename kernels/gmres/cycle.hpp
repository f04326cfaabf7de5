// gmres/cycle.hpp — one restart cycle of right-preconditioned GMRES(m), once for every scalar and space.
//
// Saad, "Iterative Methods for Sparse Linear Systems", Algorithm 9.5 (GMRES with right preconditioning): from x,
//   r = b − A x, β = ‖r‖, v_0 = r/β;
//   for j = 0, 1, …:  w = A M⁻¹ v_j;  orthogonalise w against v_0..v_j (h_{0..j+1,j});  v_{j+1} = w / h_{j+1,j};
//                     rotate the column by the earlier Givens rotations, make a new one that zeroes h_{j+1,j};
//                     |g_{j+1}| is then ‖b − A x_j‖ in exact arithmetic;
//   y = H⁻¹ g (triangular), x += M⁻¹ (V y).
// The real solver runs it across MPI ranks (arnoldi.hpp), the complex correction equation in shared memory
// (krylov.hpp). The Space is gram_schmidt.hpp's, and also:
//
//   const Vector& residual(const X& x);       r = b − A x (the space keeps r)
//   void divide(const Vector& in, double d, Vector& out);   out = in / d; in and out may be the same
//   void step(int j);                         v_{j+1} = A M⁻¹ v_j
//   void update(X& x, int j, const Scalar* y);   x += M⁻¹ Σ_{k<j} y_k v_k
//   template <class F> void orthogonalising(F&& f);  runs f, counted as orthogonalisation time
//   void step_done();                         after each step, for the space's own timing
//   bool past_deadline();                     true stops the cycle after a step
#pragma once
#include <cmath>
#include <cstddef>
#include <vector>

#include "gmres/givens.hpp"
#include "gmres/gram_schmidt.hpp"

namespace ulibc::gmres::detail {

struct CycleLimits {
  int m = 1;  // steps at most in the cycle
  Orth orth = Orth::mgs;
  double target = 0;          // stop once the estimate reaches it
  long steps_left = 1;        // steps at most, of the whole solve
  bool measure_loss = false;  // the loss of orthogonality of the newest basis vector, at the end
};

struct CycleStats {
  double start_residual = 0;  // ‖b − A x‖ computed at the start of the cycle
  double estimate = 0;        // |g| after its last step: ‖b − A x‖ at its end, in exact arithmetic
  int steps = 0;              // Arnoldi steps taken (0: the start was already good enough)
  double loss = 0;            // orthogonality_loss of the newest basis vector (when asked for)
  int reductions = 0;         // of the orthogonalisation
};

// One cycle from x (updated). With `hessenberg`, also H as Arnoldi made it, before the rotations (column-major,
// leading dimension m + 1), for its eigenvalues.
template <class Space, class X, class Scalar = typename Space::Scalar>
CycleStats run_cycle(Space& s, X& x, const CycleLimits& limits, std::vector<Scalar>* hessenberg = nullptr) {
  CycleStats end;
  const auto& r = s.residual(x);
  const double beta = std::sqrt(std::real(s.dot(r, r)));
  end.start_residual = end.estimate = beta;
  if (beta <= limits.target || limits.steps_left <= 0 || beta == 0) return end;
  const int m = limits.m;
  const auto ld = static_cast<std::size_t>(m) + 1;
  std::vector<Scalar> h(ld * static_cast<std::size_t>(m), Scalar(0)), g(ld, Scalar(0)), sine(ld, Scalar(0));
  std::vector<double> cosine(ld, 0.0);
  if (hessenberg) hessenberg->assign(h.size(), Scalar(0));
  g[0] = beta;
  s.divide(r, beta, s.basis(0));
  int j = 0;
  while (j < m && j < limits.steps_left) {
    Scalar* hj = h.data() + ld * static_cast<std::size_t>(j);
    s.step(j);
    auto& w = s.basis(j + 1);
    s.orthogonalising([&] {
      end.reductions += gram_schmidt(limits.orth, s, j, w, hj);
      const double norm = std::real(hj[j + 1]);
      if (norm > 0) s.divide(w, norm, w);
    });
    if (hessenberg) std::copy(hj, hj + j + 2, hessenberg->data() + ld * static_cast<std::size_t>(j));
    const double next_length = std::real(hj[j + 1]);  // 0: v_{j+1} would be zero, the solution lies in the basis
    for (int i = 0; i < j; ++i) rotate(cosine[i], sine[i], hj[i], hj[i + 1]);
    Scalar a = hj[j];
    make_rotation(a, hj[j + 1], cosine[j], sine[j]);
    hj[j] = a;
    hj[j + 1] = 0;
    g[j + 1] = -conjugate(sine[j]) * g[j];
    g[j] = cosine[j] * g[j];
    ++j;
    end.estimate = std::abs(g[j]);
    s.step_done();
    if (end.estimate <= limits.target || next_length == 0) break;
    if (s.past_deadline()) break;
  }
  end.steps = j;
  if (limits.measure_loss && j > 0) s.orthogonalising([&] { end.loss = orthogonality_loss(s, j); });
  triangular_solve(j, h.data(), static_cast<int>(ld), g.data());
  s.update(x, j, g.data());
  return end;
}

}  // namespace ulibc::gmres::detail
