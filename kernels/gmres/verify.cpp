// gmres/verify.cpp — the independent residual and the dense reference.
#include "gmres/verify.hpp"

#include <fmt/format.h>

#include <cmath>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

extern "C" void dgesv_(const int* n, const int* nrhs, double* a, const int* lda, int* ipiv, double* b, const int* ldb,
                       int* info);  // LAPACK (OpenBLAS carries it)

namespace ulibc::gmres {

double true_relative_residual(const DistributedMatrix& a, const Vector& b, const Vector& x) {
  const std::vector<int> counts = a.blocks().counts(), displs = a.blocks().displacements();
  std::vector<double> whole(static_cast<std::size_t>(a.global_rows()));
  mpi::check(MPI_Allgatherv(x.data(), static_cast<int>(a.rows()), MPI_DOUBLE, whole.data(), counts.data(),
                            displs.data(), MPI_DOUBLE, a.comm()),
             "MPI_Allgatherv");
  const Index first = a.own().begin;
  long double sums[2] = {0, 0};  // ‖r‖², ‖b‖² of this rank's rows
  for (Index i = 0; i < a.rows(); ++i) {
    long double ax = 0;
    const LocalRows& d = a.diagonal();
    for (Index k = d.row_start[i]; k < d.row_start[i + 1]; ++k)
      ax += static_cast<long double>(d.values[k]) * whole[first + d.columns[k]];
    const LocalRows& o = a.outside();
    for (Index k = o.row_start[i]; k < o.row_start[i + 1]; ++k)
      ax += static_cast<long double>(o.values[k]) * whole[a.ghosts()[o.columns[k]]];
    const long double r = b[i] - ax;
    sums[0] += r * r;
    sums[1] += static_cast<long double>(b[i]) * b[i];
  }
  double totals[2] = {static_cast<double>(sums[0]), static_cast<double>(sums[1])};
  mpi::sum_in_place(totals, a.comm());
  return totals[1] > 0 ? std::sqrt(totals[0] / totals[1]) : std::sqrt(totals[0]);
}

std::vector<double> dense_solve(const sparse::CsrMatrix& a, std::span<const double> b) {
  if (a.rows() != a.cols() || static_cast<Index>(b.size()) != a.rows())
    throw input_error(
        fmt::format("dense solve of a {} x {} matrix with {} right-hand-side values", a.rows(), a.cols(), b.size()));
  const int n = static_cast<int>(a.rows()), one = 1;
  std::vector<double> dense(static_cast<std::size_t>(n) * static_cast<std::size_t>(n), 0.0), x(b.begin(), b.end());
  for (Index i = 0; i < n; ++i)
    for (Index k = a.row_start()[i]; k < a.row_start()[i + 1]; ++k)
      dense[static_cast<std::size_t>(a.columns()[k]) * n + i] = a.values()[k];  // column-major
  std::vector<int> pivots(static_cast<std::size_t>(n));
  int info = 0;
  dgesv_(&n, &one, dense.data(), &n, pivots.data(), x.data(), &n, &info);
  if (info > 0) throw input_error(fmt::format("dense solve: the matrix is singular (U({0},{0}) = 0)", info));
  if (info < 0) throw system_error(fmt::format("dense solve: dgesv refused argument {}", -info));
  return x;
}

}  // namespace ulibc::gmres
