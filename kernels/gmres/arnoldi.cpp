// gmres/arnoldi.cpp — a restart cycle: Arnoldi with Givens rotations, then the update of x.
#include "gmres/arnoldi.hpp"

#include <cblas.h>
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

}  // namespace

Cycle::Cycle(Operator& op, const Vector& b)
    : op_(op),
      team_(op.matrix().team()),
      comm_(op.matrix().comm()),
      b_(b),
      v_(team_),
      r_(team_, team_.rows()),
      z_(team_, team_.rows()) {}

double Cycle::residual_norm(const Vector& x, TimeSplit& split) {
  op_.apply(x.data(), r_.data(), split);
  team_.run([&](int, IndexRange<Index> r) {
    for (Index i = r.begin; i < r.end; ++i) r_[i] = b_[i] - r_[i];
  });
  return std::sqrt(dot(r_, r_, team_, comm_));
}

CycleEnd Cycle::run(Vector& x, int m, Orth orth, Preconditioner& precond, double target, long steps_left,
                    TimeSplit& split, bool measure_loss, double deadline, bool ritz) {
  CycleEnd end;
  const double beta = residual_norm(x, split);
  end.start_residual = end.estimate = beta;
  if (beta <= target || steps_left <= 0 || beta == 0) return end;
  const auto ld = static_cast<std::size_t>(m) + 1;
  std::vector<double> h(ld * static_cast<std::size_t>(m), 0.0), g(ld, 0.0), c(ld, 0.0), s(ld, 0.0);
  std::vector<double> raw(ritz ? h.size() : 0);  // H before the rotations, for its eigenvalues
  g[0] = beta;
  {
    Vector& v0 = v_[0];
    team_.run([&](int, IndexRange<Index> r) {
      for (Index i = r.begin; i < r.end; ++i) v0[i] = r_[i] / beta;
    });
  }
  int j = 0;
  double step_start = MPI_Wtime();
  while (j < m && j < steps_left) {
    double* hj = h.data() + ld * static_cast<std::size_t>(j);
    Vector& w = v_[j + 1];
    const double apply_start = ritz ? MPI_Wtime() : 0;
    {
      Timed t(split.precond);
      precond.apply(v_[j], z_);
    }
    op_.apply(z_.data(), w.data(), split);
    if (ritz) end.apply_seconds.push_back(MPI_Wtime() - apply_start);
    {
      Timed t(split.orth);
      end.reductions += orthogonalize(orth, v_, j, w, hj, team_, comm_);
      const double norm = hj[j + 1];
      if (norm > 0)
        team_.run([&](int, IndexRange<Index> r) {
          for (Index i = r.begin; i < r.end; ++i) w[i] /= norm;
        });
    }
    if (ritz) std::copy(hj, hj + j + 2, raw.data() + ld * static_cast<std::size_t>(j));
    const double next_length = hj[j + 1];  // 0: v_{j+1} would be zero, the solution lies in the basis already
    for (int i = 0; i < j; ++i) cblas_drot(1, &hj[i], 1, &hj[i + 1], 1, c[i], s[i]);
    double a = hj[j], bb = hj[j + 1];
    cblas_drotg(&a, &bb, &c[j], &s[j]);
    hj[j] = a;
    hj[j + 1] = 0;
    g[j + 1] = -s[j] * g[j];
    g[j] = c[j] * g[j];
    ++j;
    end.estimate = std::abs(g[j]);
    if (ritz) {
      const double now = MPI_Wtime();
      end.step_seconds.push_back(now - step_start);
      step_start = now;
    }
    if (end.estimate <= target || next_length == 0) break;
    // Ranks' clocks differ: the one that sees the deadline pass stops them all (only trials give a deadline).
    if (deadline < std::numeric_limits<double>::infinity() && mpi::max(MPI_Wtime() > deadline ? 1 : 0, comm_) > 0)
      break;
  }
  end.steps = j;
  if (measure_loss && j > 0) {
    Timed t(split.orth);
    end.loss = loss_of_orthogonality(v_, j, team_, comm_);
  }
  if (ritz && j > 0) ritz_extremes(raw, j, static_cast<int>(ld), end);
  // y = H⁻¹ g (H upper triangular j×j, column-major with leading dimension m + 1), then x += M⁻¹ (V y).
  cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, h.data(), static_cast<int>(ld), g.data(), 1);
  team_.run([&](int, IndexRange<Index> r) {
    for (Index i = r.begin; i < r.end; ++i) r_[i] = 0;
    for (int k = 0; k < j; ++k) {
      const double* vk = v_[k].data();
      for (Index i = r.begin; i < r.end; ++i) r_[i] += g[static_cast<std::size_t>(k)] * vk[i];
    }
  });
  {
    Timed t(split.precond);
    precond.apply(r_, z_);
  }
  team_.run([&](int, IndexRange<Index> r) {
    for (Index i = r.begin; i < r.end; ++i) x[i] += z_[i];
  });
  return end;
}

}  // namespace ulibc::gmres::detail
