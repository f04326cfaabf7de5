// gmres/arnoldi.hpp — one restart cycle of right-preconditioned GMRES(m): what the solver and the tuner's trials run.
//
// Saad, "Iterative Methods for Sparse Linear Systems", Algorithm 9.5 (GMRES with right preconditioning): from x,
//   r = b − A x, β = ‖r‖, v_0 = r/β;
//   for j = 0, 1, …:  w = A M⁻¹ v_j;  orthogonalise w against v_0..v_j (h_{0..j+1,j});  v_{j+1} = w / h_{j+1,j};
//                     rotate the column by the earlier Givens rotations, make a new one that zeroes h_{j+1,j};
//                     |g_{j+1}| is then ‖b − A x_j‖ in exact arithmetic;
//   y = H⁻¹ g (triangular, by BLAS's dtrsv), x += M⁻¹ (V y).
// With M on the right the residual GMRES minimises is b − A x itself, so the stopping test is on the true residual;
// each cycle still starts by computing it afresh, and only that fresh value may declare convergence.
#pragma once
#include <limits>
#include <vector>

#include "gmres/orthogonalize.hpp"
#include "gmres/preconditioner.hpp"

namespace ulibc::gmres::detail {

struct CycleEnd {
  double start_residual = 0;  // ‖b − A x‖ computed at the start of the cycle
  double estimate = 0;        // |g| after its last step: ‖b − A x‖ at its end, in exact arithmetic
  int steps = 0;              // Arnoldi steps taken (0: the start was already good enough)
  double loss = 0;            // loss_of_orthogonality of the newest basis vector (when asked for)
  int reductions = 0;         // of the orthogonalisation
  // With `ritz`: the eigenvalues of the cycle's square Hessenberg matrix (Ritz values, estimates of A M⁻¹'s
  // extreme eigenvalues), by magnitude: the smallest and the largest.
  double ritz_min = 0, ritz_max = 0;
  // With `ritz` (the tuner's trials), on this rank: each step's time, and the part of it spent applying M⁻¹ and A
  // (the part that differs between preconditioners; the rest, the orthogonalisation, is the same for all).
  std::vector<double> step_seconds, apply_seconds;
};

class Cycle {
 public:
  Cycle(Operator& op, const Vector& b);
  // One cycle from x (updated): at most `m` steps and `steps_left`, ending early once the estimate reaches
  // `target` or MPI_Wtime() passes `deadline`. With `measure_loss`, also the loss of orthogonality at its end; with
  // `ritz`, the extreme Ritz values.
  // Time goes to `split`'s parts. Collective.
  CycleEnd run(Vector& x, int m, Orth orth, Preconditioner& precond, double target, long steps_left, TimeSplit& split,
               bool measure_loss = false, double deadline = std::numeric_limits<double>::infinity(), bool ritz = false);

  // r = b − A x and its norm: the residual as the solver reports it. Collective.
  double residual_norm(const Vector& x, TimeSplit& split);
  Basis& basis() { return v_; }

 private:
  Operator& op_;
  const Team& team_;
  MPI_Comm comm_;
  const Vector& b_;
  Basis v_;
  Vector r_, z_;
};

}  // namespace ulibc::gmres::detail
