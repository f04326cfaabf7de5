// eigen/projected.hpp — the small dense problems of Jacobi–Davidson: the search space's projection of A, put in a
// sorted Schur form, and the Schur form's eigenvectors at the end. Everything here goes to LAPACK (OpenBLAS).
//
// Matrices are column-major, square j x j with leading dimension j, held in std::vector<Complex>.
#pragma once
#include <complex>
#include <functional>
#include <vector>

namespace ulibc::eigen::detail {

using Complex = std::complex<double>;
using DenseMatrix = std::vector<Complex>;  // column-major, leading dimension = its order

// Smaller is wanted first: the distance to a target, or minus a magnitude or a real part.
using SortKey = std::function<double(Complex)>;

// M = U T U^H with U unitary and T upper triangular (zgees), its diagonal reordered by swaps (ztrexc) so that
// key(T_00) <= key(T_11) <= ...: U's first columns span the wanted invariant subspaces. Hermitian M (zheev) gives
// a diagonal T with real entries. Error(system) if LAPACK fails to converge.
struct SortedSchur {
  DenseMatrix u, t;
};
SortedSchur sorted_schur(const DenseMatrix& m, int j, const SortKey& key, bool hermitian);

// Harmonic extraction about the target tau (Paige, Parlett and van der Vorst 1995; Sleijpen and van der Vorst
// 2000, §3.2): with X = (A - tau I) V, G = X^H X (positive definite) and H = X^H V, the harmonic Ritz vectors V s
// satisfy H s = mu G s, theta = tau + 1/mu. With G = L L^H, C = L^-1 H L^-H is put in sorted Schur form C = Y T Y^H
// by decreasing |mu| (nearest tau first), and S = L^-H Y (j x j) returned: its columns are the coefficients in V
// of the wanted directions, in order. Error(input) when G is not positive definite (the space holds an eigenvector
// for exactly tau).
DenseMatrix harmonic_directions(const DenseMatrix& g, const DenseMatrix& h, int j);

// Q R = A for A j x p (p <= j): Q's p orthonormal columns (zgeqrf + zungqr).
DenseMatrix orthonormal_columns(DenseMatrix a, int j, int p);

// The eigenvectors of an upper triangular k x k matrix R (ztrevc), each of unit 2-norm: R y_i = R_ii y_i.
DenseMatrix triangular_eigenvectors(const DenseMatrix& r, int k);

// C = A^H B C, for the small products: A (rows x p) and B (rows x q) column-major: p x q.
DenseMatrix adjoint_times(const DenseMatrix& a, const DenseMatrix& b, int rows, int p, int q);
// A B: (rows x p) times (p x q).
DenseMatrix times(const DenseMatrix& a, const DenseMatrix& b, int rows, int p, int q);

}  // namespace ulibc::eigen::detail
