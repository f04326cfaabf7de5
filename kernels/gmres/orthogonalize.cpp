// gmres/orthogonalize.cpp — classical, modified and twice-classical Gram–Schmidt across ranks and threads.
#include "gmres/orthogonalize.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

Vector& Basis::operator[](int k) {
  while (static_cast<int>(v_.size()) <= k) v_.emplace_back(team_, team_.rows());
  return v_[k];
}

namespace {

// v_j·w for j = 0..k and, when `with_length`, w·w last: this rank's sums, per thread then in thread order.
// Four basis vectors per sweep over w, as PETSc's VecMDot and VecMAXPY do: w is read (or written) once for four
// of them instead of once each, and a rank's w outgrows the core's own cache long before it outgrows memory. The
// sums run as SIMD reductions: a single running sum would wait on each addition in turn.
constexpr int kBlock = 4;

std::vector<double> local_dots(Basis& v, int k, const Vector& w, bool with_length, const Team& team) {
  const std::size_t n = static_cast<std::size_t>(k) + 1 + (with_length ? 1 : 0);
  std::vector<const double*> rows;
  for (int j = 0; j <= k; ++j) rows.push_back(v[j].data());
  if (with_length) rows.push_back(w.data());
  while (rows.size() % kBlock) rows.push_back(nullptr);  // padding: a block's missing vectors
  std::vector<double> partial(rows.size() * static_cast<std::size_t>(team.threads()), 0.0);
  const double* __restrict x = w.data();
  team.run([&](int t, IndexRange<Index> r) {
    double* mine = partial.data() + rows.size() * static_cast<std::size_t>(t);
    for (std::size_t j = 0; j < rows.size(); j += kBlock) {
      const double* __restrict v0 = rows[j];
      const double* __restrict v1 = rows[j + 1] ? rows[j + 1] : x;
      const double* __restrict v2 = rows[j + 2] ? rows[j + 2] : x;
      const double* __restrict v3 = rows[j + 3] ? rows[j + 3] : x;
      double s0 = 0, s1 = 0, s2 = 0, s3 = 0;
#pragma omp simd reduction(+ : s0, s1, s2, s3)
      for (Index i = r.begin; i < r.end; ++i) {
        s0 += v0[i] * x[i];
        s1 += v1[i] * x[i];
        s2 += v2[i] * x[i];
        s3 += v3[i] * x[i];
      }
      mine[j] = s0;
      mine[j + 1] = s1;
      mine[j + 2] = s2;
      mine[j + 3] = s3;
    }
  });
  std::vector<double> sums(n, 0.0);
  for (int t = 0; t < team.threads(); ++t)
    for (std::size_t j = 0; j < n; ++j) sums[j] += partial[rows.size() * static_cast<std::size_t>(t) + j];
  return sums;
}

// w -= Σ_j h[j]·v_j, j = 0..k, four vectors per sweep.
void subtract_projections(Basis& v, int k, const double* h, Vector& w, const Team& team) {
  std::vector<const double*> rows;
  std::vector<double> coefficients(h, h + k + 1);
  for (int j = 0; j <= k; ++j) rows.push_back(v[j].data());
  while (rows.size() % kBlock) {  // padding: zero times the first vector
    rows.push_back(rows.front());
    coefficients.push_back(0);
  }
  double* __restrict y = w.data();
  team.run([&](int, IndexRange<Index> r) {
    for (std::size_t j = 0; j < rows.size(); j += kBlock) {
      const double* __restrict v0 = rows[j];
      const double* __restrict v1 = rows[j + 1];
      const double* __restrict v2 = rows[j + 2];
      const double* __restrict v3 = rows[j + 3];
      const double h0 = coefficients[j], h1 = coefficients[j + 1], h2 = coefficients[j + 2], h3 = coefficients[j + 3];
#pragma omp simd
      for (Index i = r.begin; i < r.end; ++i) y[i] -= h0 * v0[i] + h1 * v1[i] + h2 * v2[i] + h3 * v3[i];
    }
  });
}

}  // namespace

double dot(const Vector& x, const Vector& y, const Team& team, MPI_Comm comm) {
  return mpi::sum(team.sum([&](Index i) { return x[i] * y[i]; }), comm);
}

double RankSpace::dot(const Vector& x, const Vector& y) const { return gmres::dot(x, y, team_, comm_); }

std::vector<double> RankSpace::dots(int k, const Vector& w, bool with_length) {
  std::vector<double> sums = local_dots(v_, k, w, with_length, team_);
  mpi::sum_in_place(sums, comm_);
  return sums;
}

void RankSpace::subtract(int k, const double* h, Vector& w) { subtract_projections(v_, k, h, w, team_); }

void RankSpace::subtract(double h, const Vector& v, Vector& w) const {
  const double* vj = v.data();
  team_.run([&](int, IndexRange<Index> r) {
    for (Index i = r.begin; i < r.end; ++i) w[i] -= h * vj[i];
  });
}

int orthogonalize(Orth how, Basis& v, int k, Vector& w, double* h, const Team& team, MPI_Comm comm) {
  RankSpace space(v, team, comm);
  return detail::gram_schmidt(how, space, k, w, h);
}

double loss_of_orthogonality(Basis& v, int k, const Team& team, MPI_Comm comm) {
  RankSpace space(v, team, comm);
  return detail::orthogonality_loss(space, k);
}

}  // namespace ulibc::gmres
