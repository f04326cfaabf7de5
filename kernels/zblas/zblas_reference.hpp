// zblas/zblas_reference.hpp — the serial verifier of the parallel kernels.
//
// Reference BLAS's loops as written, one thread, sums in long double (x87's
// 64-bit significand on x86: a few more digits than any double result
// needs), so that the bench can check each kernel without a BLAS library.
// Same arguments and the same rules (quick returns, beta == 0, NaN and Inf)
// as the kernels in zblas.hpp.
#pragma once
#include <cstddef>

#include "zblas/zblas.hpp"

namespace ulibc::zblas::reference {

Complex zdotc(std::size_t n, const Complex* x, const Complex* y);
void zaxpy(std::size_t n, Complex alpha, const Complex* x, Complex* y);
// sqrt of the sum of squares in long double, whose exponent range holds the
// square of any double: no scaling needed, NaN and Inf propagate as they fall.
double dznrm2(std::size_t n, const Complex* x);
void zgemv(Trans trans, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
           const Complex* x, Complex beta, Complex* y);

}  // namespace ulibc::zblas::reference
