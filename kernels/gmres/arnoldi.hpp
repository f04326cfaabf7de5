// gmres/arnoldi.hpp — one restart cycle of right-preconditioned GMRES(m) across ranks: what the solver and the tuner's
// trials run. The cycle is cycle.hpp's (Saad, Algorithm 9.5), on this rank's rows with reductions over the ranks,
// plus what only the tuner needs: the time of each step and the Ritz values of the cycle.
// With M on the right the residual GMRES minimises is b − A x itself, so the stopping test is on the true residual;
// each cycle still starts by computing it afresh, and only that fresh value may declare convergence.
#pragma once
#include <limits>
#include <optional>
#include <vector>

#include "gmres/cycle.hpp"
#include "gmres/orthogonalize.hpp"
#include "gmres/preconditioner.hpp"

namespace ulibc::gmres::detail {

struct CycleEnd : CycleStats {
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
  // One cycle from x (updated) within `limits` (cycle.hpp: its steps, orthogonalisation, target, whether it measures
  // the loss of orthogonality). Its time goes to `log`'s stages. A tuner's trial gives its `trial_deadline`: the cycle
  // then ends early once MPI_Wtime() passes it, and also reports each step's time and the extreme Ritz values.
  // Collective.
  CycleEnd run(Vector& x, Preconditioner& precond, const CycleLimits& limits, harness::StageLog& log,
               std::optional<double> trial_deadline = std::nullopt);

  // r = b − A x and its norm: the residual as the solver reports it. Collective.
  double residual_norm(const Vector& x, harness::StageLog& log);
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
