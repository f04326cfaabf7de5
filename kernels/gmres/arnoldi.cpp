// gmres/arnoldi.cpp — a restart cycle across ranks: cycle.hpp's on this rank's rows, timed in the solver's parts.
#include "gmres/arnoldi.hpp"

#include <mpi.h>

#include <algorithm>
#include <cmath>

#include "mpi/comm.hpp"

extern "C" void dgeev_(const char* jobvl, const char* jobvr, const int* n, double* a, const int* lda, double* wr,
                       double* wi, double* vl, const int* ldvl, double* vr, const int* ldvr, double* work,
                       const int* lwork, int* info);  // LAPACK (OpenBLAS carries it)

namespace ulibc::gmres::detail {

namespace {

// The smallest and largest magnitudes among the eigenvalues of the leading n×n block of `h` (leading dimension ld).
void ritz_extremes(std::vector<double>& h, int n, int ld, CycleEnd& end) {
  std::vector<double> wr(static_cast<std::size_t>(n)), wi(wr.size()), work(4 * wr.size() + 8);
  const int one = 1, lwork = static_cast<int>(work.size());
  int info = 0;
  dgeev_("N", "N", &n, h.data(), &ld, wr.data(), wi.data(), nullptr, &one, nullptr, &one, work.data(), &lwork, &info);
  if (info != 0) return;
  end.ritz_min = std::numeric_limits<double>::infinity();
  for (std::size_t k = 0; k < wr.size(); ++k) {
    const double magnitude = std::hypot(wr[k], wi[k]);
    end.ritz_min = std::min(end.ritz_min, magnitude);
    end.ritz_max = std::max(end.ritz_max, magnitude);
  }
}

// cycle.hpp's Space on this rank: RankSpace's reductions, the operator and M⁻¹ of the solve, each part of the time
// in its stage of `log`; with `timing`, each step's seconds and those of its M⁻¹ and A.
class RankCycle : public RankSpace {
 public:
  RankCycle(Operator& op, const Vector& b, Basis& v, Vector& r, Vector& z, Preconditioner* precond,
            harness::StageLog& log, double deadline = std::numeric_limits<double>::infinity(),
            CycleEnd* timing = nullptr)
      : RankSpace(v, op.matrix().team(), op.matrix().comm()),
        op_(op),
        b_(b),
        r_(r),
        z_(z),
        precond_(precond),
        log_(log),
        deadline_(deadline),
        timing_(timing) {}

  const Vector& residual(const Vector& x) {
    op_.apply(x.data(), r_.data(), log_);
    team().run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) r_[i] = b_[i] - r_[i];
    });
    return r_;
  }

  void divide(const Vector& in, double d, Vector& out) {
    team().run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) out[i] = in[i] / d;
    });
  }

  void step(int j) {
    Vector& w = basis(j + 1);
    const double apply_start = timing_ ? MPI_Wtime() : 0;
    if (timing_ && j == 0) step_start_ = apply_start;
    {
      harness::StageLog::Timed t(log_, "precond");
      precond_->apply(basis(j), z_);
    }
    op_.apply(z_.data(), w.data(), log_);
    if (timing_) timing_->apply_seconds.push_back(MPI_Wtime() - apply_start);
  }

  void update(Vector& x, int j, const double* y) {
    team().run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) r_[i] = 0;
      for (int k = 0; k < j; ++k) {
        const double* vk = basis(k).data();
        for (Index i = r.begin; i < r.end; ++i) r_[i] += y[k] * vk[i];
      }
    });
    {
      harness::StageLog::Timed t(log_, "precond");
      precond_->apply(r_, z_);
    }
    team().run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) x[i] += z_[i];
    });
  }

  template <class F>
  void orthogonalising(F&& f) {
    harness::StageLog::Timed t(log_, "orth");
    f();
  }

  void step_done() {
    if (!timing_) return;
    const double now = MPI_Wtime();
    timing_->step_seconds.push_back(now - step_start_);
    step_start_ = now;
  }

  // Ranks' clocks differ: the one that sees the deadline pass stops them all (only trials give a deadline).
  bool past_deadline() {
    return deadline_ < std::numeric_limits<double>::infinity() && mpi::max(MPI_Wtime() > deadline_ ? 1 : 0, comm()) > 0;
  }

 private:
  Operator& op_;
  const Vector& b_;
  Vector &r_, &z_;
  Preconditioner* precond_;
  harness::StageLog& log_;
  double deadline_;
  CycleEnd* timing_;
  double step_start_ = 0;
};

}  // namespace

Cycle::Cycle(Operator& op, const Vector& b)
    : op_(op),
      team_(op.matrix().team()),
      comm_(op.matrix().comm()),
      b_(b),
      v_(team_),
      r_(team_, team_.rows()),
      z_(team_, team_.rows()) {}

double Cycle::residual_norm(const Vector& x, harness::StageLog& log) {
  RankCycle space(op_, b_, v_, r_, z_, nullptr, log);
  const Vector& r = space.residual(x);
  return std::sqrt(space.dot(r, r));
}

CycleEnd Cycle::run(Vector& x, Preconditioner& precond, const CycleLimits& limits, harness::StageLog& log,
                    std::optional<double> trial_deadline) {
  CycleEnd end;
  const bool trial = trial_deadline.has_value();
  RankCycle space(op_, b_, v_, r_, z_, &precond, log, trial_deadline.value_or(std::numeric_limits<double>::infinity()),
                  trial ? &end : nullptr);
  std::vector<double> raw;  // H before the rotations, for its eigenvalues
  static_cast<CycleStats&>(end) = run_cycle(space, x, limits, trial ? &raw : nullptr);
  if (trial && end.steps > 0) ritz_extremes(raw, end.steps, limits.m + 1, end);
  return end;
}

}  // namespace ulibc::gmres::detail
