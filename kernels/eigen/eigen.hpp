// eigen/eigen.hpp — Jacobi–Davidson (JDQR) for a few eigenpairs of a large sparse complex matrix.
//
// Fokkema, Sleijpen and van der Vorst, "Jacobi–Davidson style QR and QZ algorithms for the reduction of matrix
// pencils", SIAM J. Sci. Comput. 20(1), 1998, §2 (Algorithm 2.1, JDQR): a partial Schur form A Q = Q R is built
// one column at a time. A search space V (orthonormal, orthogonal to the Schur vectors Q found so far) is expanded
// by an approximate solution t of the correction equation
//
//     (I - Q~ Q~^H) (A - theta I) (I - Q~ Q~^H) t = -r,   Q~ = [Q, u],   t ⊥ Q~,
//
// where (theta, u) is the wanted Ritz pair of the projection of A on V and r = (I - Q Q^H)(A u - theta u) its
// residual. A Ritz pair whose residual is small enough is locked as the next Schur vector (deflation) and the search
// goes on in the rest of V; V is restarted to its jmin best directions when it reaches jmax. The correction
// equation is solved approximately by a few steps of GMRES (kernels/gmres: the same template as the linear
// solver's). Small dense problems go to LAPACK (eigen/projected.hpp); the long vectors live in memory placed by the
// mapping, and their products and orthogonalisations are the zblas kernels (Nishida, Nukada and Oyanagi's).
//
// Wanted eigenvalues: those nearest a target (standard or harmonic Ritz extraction; harmonic finds interior
// eigenvalues more reliably), of largest magnitude, or of largest real part. A Hermitian mode uses zheev on the
// projections and gives real eigenvalues.
#pragma once
#include <complex>
#include <string>
#include <vector>

#include "harness/stage_log.hpp"
#include "sparse/csr_matrix.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::eigen {

using Complex = std::complex<double>;

enum class Which { target, largest_magnitude, largest_real };
enum class Extraction { standard, harmonic };
enum class Precond { none, jacobi };

std::string which_name(Which w);
std::string extraction_name(Extraction e);
std::string precond_name(Precond p);

struct Options {
  int nev = 1;  // eigenpairs wanted, 1 <= nev < n
  Which which = Which::target;
  Complex target = 0;  // for Which::target
  Extraction extraction = Extraction::standard;
  bool hermitian = false;           // A = A^H (checked): real eigenvalues, zheev on the projections
  double tol = 1e-8;                // a pair is converged when ||A u - theta u|| <= tol * |theta| (tol when theta = 0)
  int jmin = 10, jmax = 20;         // restart to jmin directions when the search space reaches jmax (jmin < jmax)
  int correction_steps = 10;        // GMRES steps per correction equation
  Precond precond = Precond::none;  // for GMRES, applied between the projections
  long max_iterations = 10000;      // expansions of the search space, all eigenpairs together
  // Below this residual (relative, as tol) the correction equation is shifted by the Ritz value; above it, by the
  // target (Which::target only): far from convergence the Ritz value is a poor shift and may pull the search away.
  double shift_switch = 1e-2;
  unsigned long long seed = 1;  // of the start vector
};
// Error(input) naming the option for nev outside 1..n-1, jmin/jmax out of order or beyond n, tol <= 0 or not finite,
// a target that is not finite, correction_steps < 0, max_iterations < 1, harmonic extraction without a target.
void check_options(const Options& o, sparse::Index n);

struct Result {
  // The converged eigenvalues, in the order they were locked (the diagonal of R), and their eigenvectors
  // (n x found, column-major, unit 2-norm) and Schur vectors Q (n x found, orthonormal).
  std::vector<Complex> values;
  std::vector<Complex> vectors;
  std::vector<Complex> schur_vectors;
  std::vector<Complex> schur_form;  // R, found x found, upper triangular
  int found = 0;
  bool converged = false;  // found == nev
  long iterations = 0;     // expansions of the search space
  long matvecs = 0;        // products with A, the correction equation's included
  long correction_steps = 0;
  long restarts = 0;
  // Where the time went: "spmv" (A times a vector), "orth" (the zblas kernels outside the correction equation:
  // orthogonalisations, residuals, updates), "dense" (the small dense problems, LAPACK) and "correction" (the
  // correction equation, with its own products with A inside it as "correction/spmv").
  harness::StageLog time{"solve"};
  // The wanted pair the search was refining when it stopped short (found < nev): its Ritz value and residual.
  Complex last_theta = 0;
  double last_residual = 0;
};

// The nev wanted eigenpairs of a (n x n). Runs on the OpenMP team of map.size() threads, which the caller binds
// (ScopedOpenMPTeam); the long vectors are split over them as NodePartition(map, n) splits. Error(input) for a
// matrix that is not square, bad options, or a non-Hermitian matrix in Hermitian mode (naming an entry). Stopping
// short of nev pairs is not an error: Result::converged says so and holds what did converge.
Result solve(const sparse::ComplexCsrMatrix& a, const Options& o, const Topology& topo, const Mapping& map);

}  // namespace ulibc::eigen
