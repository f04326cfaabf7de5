// gmres/givens.cpp — rotations and triangular solves: BLAS's where it has them, LAPACK zlartg's rotation by hand.
#include "gmres/givens.hpp"

#include <cblas.h>

#include <cmath>

namespace ulibc::gmres::detail {

void rotate(double c, double s, double& x, double& y) { cblas_drot(1, &x, 1, &y, 1, c, s); }

void rotate(double c, const Complex& s, Complex& x, Complex& y) {
  const Complex new_x = c * x + s * y;
  y = c * y - std::conj(s) * x;
  x = new_x;
}

void make_rotation(double& f, double g, double& c, double& s) { cblas_drotg(&f, &g, &c, &s); }

void make_rotation(Complex& f, const Complex& g, double& c, Complex& s) {
  if (g == 0.0) {
    c = 1;
    s = 0;
    return;
  }
  const double f_abs = std::abs(f), g_abs = std::abs(g);
  if (f_abs == 0) {  // r = |g|: the rotation swaps, up to g's phase
    c = 0;
    s = std::conj(g) / g_abs;
    f = g_abs;
    return;
  }
  // std::abs is hypot, and the phase f/|f| has modulus 1: no |f|² or |g|² that could overflow.
  const double d = std::hypot(f_abs, g_abs);
  const Complex phase = f / f_abs;
  c = f_abs / d;
  s = phase * std::conj(g) / d;
  f = phase * d;
}

void triangular_solve(int j, const double* h, int ld, double* y) {
  cblas_dtrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, h, ld, y, 1);
}

void triangular_solve(int j, const Complex* h, int ld, Complex* y) {
  cblas_ztrsv(CblasColMajor, CblasUpper, CblasNoTrans, CblasNonUnit, j, h, ld, y, 1);
}

}  // namespace ulibc::gmres::detail
