// zblas/verify.hpp — the serial reference of the zblas kernels and the check of their results, for the tests and
// `ulibc bench zblas`.
//
// The reference is reference BLAS's loops as written, one thread, sums in
// long double (x87's 64-bit significand on x86: a few more digits than any
// double result needs), so that a kernel is checked without a BLAS library.
// Same arguments and the same rules (quick returns, beta == 0, NaN and Inf)
// as the kernels in zblas.hpp. The check measures each kernel's error
// relative to the size of its result and holds the worst to a tolerance.
#pragma once
#include <cstddef>
#include <span>
#include <string>

#include "zblas/zblas.hpp"

namespace ulibc::zblas {

// Named apart from the parallel kernels, whose plain-array overloads take the same arguments.
namespace reference {

Complex zdotc(std::size_t n, const Complex* x, const Complex* y);
void zaxpy(std::size_t n, Complex alpha, const Complex* x, Complex* y);
// sqrt of the sum of squares in long double, whose exponent range holds the
// square of any double: no scaling needed, NaN and Inf propagate as they fall.
double dznrm2(std::size_t n, const Complex* x);
void zgemv(Trans trans, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
           const Complex* x, Complex beta, Complex* y);

}  // namespace reference

// Each kernel's result `got` against the reference on the same operands, the
// error relative to the size of the result: dznrm2 to the norm, zdotc to
// |x||y| (Cauchy–Schwarz), zaxpy's and zgemv's vectors to their largest
// entry. y0 is y as it was before the kernel ran (zgemv: y's length, m for
// Trans::none, else n). NaN when a result is NaN where the reference is not.
double dznrm2_error(std::size_t n, const Complex* x, double got);
double zdotc_error(std::size_t n, const Complex* x, const Complex* y, Complex got);
double zaxpy_error(std::size_t n, Complex alpha, const Complex* x, const Complex* y0, const Complex* got);
double zgemv_error(Trans trans, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
                   const Complex* x, Complex beta, const Complex* y0, const Complex* got);

struct KernelError {
  const char* kernel;  // "zdotc"
  double error;        // as the *_error functions give it
};
// The worst of `errors` (one at least; a NaN worst of all) against 1e-12 sqrt(n), the rounding a
// sum of n terms may gather. message: "worst relative error 3.1e-16 (zgemv),
// tolerance 2.6e-10".
struct Check {
  bool valid = false;
  std::string message;
};
Check check(std::span<const KernelError> errors, std::size_t n);

}  // namespace ulibc::zblas
