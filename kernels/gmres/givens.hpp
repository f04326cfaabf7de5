// gmres/givens.hpp — the small dense algebra of a GMRES cycle, real and complex: plane rotations and the
// triangular solve, by BLAS where BLAS has them.
//
// The rotation G = [c s; −conj(s) c], c real, is the convention of LAPACK's zlartg (Saad, "Iterative Methods for
// Sparse Linear Systems", §6.5.9 for the real case): G [f; g] = [r; 0]. With real f and g it is BLAS's drotg, and
// the real cycle keeps calling drotg and drot so that its arithmetic does not change.
#pragma once
#include <complex>

namespace ulibc::gmres::detail {

using Complex = std::complex<double>;

// [x; y] ← G [x; y].
void rotate(double c, double s, double& x, double& y);
void rotate(double c, const Complex& s, Complex& x, Complex& y);

// The rotation that zeroes g below f: on return f holds r, and c, s the rotation.
void make_rotation(double& f, double g, double& c, double& s);
void make_rotation(Complex& f, const Complex& g, double& c, Complex& s);

// y ← H⁻¹ y, H upper triangular j×j, column-major with leading dimension ld.
void triangular_solve(int j, const double* h, int ld, double* y);
void triangular_solve(int j, const Complex* h, int ld, Complex* y);

}  // namespace ulibc::gmres::detail
