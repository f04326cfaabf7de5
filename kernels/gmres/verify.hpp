// gmres/verify.hpp — checking a solve without the solver's code.
//
// The solver's own residual comes from its chosen exchange and row kernel; these recompute it another way: x
// gathered whole on every rank by one MPI_Allgatherv, each row's product summed in order in long double straight
// from the matrix's stored parts. And for small systems, the dense direct solve (LAPACK's dgesv) the tests compare
// every variant against.
#pragma once
#include <span>
#include <vector>

#include "gmres/distributed_matrix.hpp"

namespace ulibc::gmres {

// Collective: ‖b − A x‖ / ‖b‖ (‖b − A x‖ when b = 0).
double true_relative_residual(const DistributedMatrix& a, const Vector& b, const Vector& x);

// x of A x = b by LU with partial pivoting, A held whole and made dense: for matrices of a few thousand rows.
// Error(input) for a matrix that is not square, b of another length, or an exactly singular A.
std::vector<double> dense_solve(const sparse::CsrMatrix& a, std::span<const double> b);

}  // namespace ulibc::gmres
