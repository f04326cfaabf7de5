// zblas/zblas.hpp — the Jacobi–Davidson BLAS kernels, double complex, OpenMP-parallel.
//
// zgemv, zdotc, zaxpy and dznrm2 with the semantics of reference BLAS (unit
// stride, column-major A), each parallelised over its outermost loop as in
// Nishida, Nukada and Oyanagi's IBM x440 paper, §4.3. A Team says who does what: thread t of an OpenMP
// team of team.threads() works on rows team.range(t), the vector elements or
// matrix rows that NodeArrays built from the same mapping hold on its node.
// Reductions combine per-thread partials in thread order, so a result depends
// only on the split, never on timing. The serial reference that checks them
// is verify.hpp; the benchmark that times them is zblas_bench.hpp.
#pragma once
#include <complex>
#include <cstddef>
#include <vector>

#include "ulibc/partition.hpp"

namespace ulibc::zblas {

using Complex = std::complex<double>;

// op(A) of zgemv: A, A^T or A^H (BLAS's 'N', 'T', 'C').
enum class Trans { none, trans, conj_trans };

class Team {
 public:
  // The split of a NodePartition: thread t on part.thread_range(t). Error(input)
  // unless the partition is one of exactly `threads` threads.
  Team(const NodePartition& part, int threads);
  // An even split of n over `threads` (0: omp_get_max_threads()), for plain arrays.
  explicit Team(std::size_t n, int threads = 0);

  int threads() const { return static_cast<int>(ranges_.size()); }
  std::size_t size() const { return n_; }  // the rows split: vector length, or zgemv's m
  Range range(int thread) const { return ranges_[thread]; }

 private:
  std::size_t n_ = 0;
  std::vector<Range> ranges_;
};

// conj(x)^T y over n = team.size() elements.
Complex zdotc(const Team& team, const Complex* x, const Complex* y);
// y += alpha x; nothing at all when alpha == 0 (y untouched even where x is NaN).
void zaxpy(const Team& team, Complex alpha, const Complex* x, Complex* y);
// ||x||_2, scaled: no overflow for entries near 1e300, no underflow for 1e-300.
// NaN if any entry has a NaN part, else Inf if any has an infinite part
// (LAPACK 3.10's dznrm2, and what OpenBLAS returns).
double dznrm2(const Team& team, const Complex* x);
// y = alpha op(A) x + beta y, A m x n column-major (lda >= m), m = rows.size().
// y has m entries for Trans::none (split with A's rows), else n; x the other
// length. BLAS's rules: nothing when m or n is 0 or (alpha == 0 and beta == 1);
// beta == 0 sets y without reading it; alpha == 0 reads neither A nor x.
void zgemv(const Team& rows, Trans trans, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
           const Complex* x, Complex beta, Complex* y);

// The same on plain arrays, split evenly over `threads` (0: omp_get_max_threads()).
inline Complex zdotc(std::size_t n, const Complex* x, const Complex* y, int threads = 0) {
  return zdotc(Team(n, threads), x, y);
}
inline void zaxpy(std::size_t n, Complex alpha, const Complex* x, Complex* y, int threads = 0) {
  zaxpy(Team(n, threads), alpha, x, y);
}
inline double dznrm2(std::size_t n, const Complex* x, int threads = 0) { return dznrm2(Team(n, threads), x); }
inline void zgemv(Trans trans, std::size_t m, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
                  const Complex* x, Complex beta, Complex* y, int threads = 0) {
  zgemv(Team(m, threads), trans, n, alpha, a, lda, x, beta, y);
}

}  // namespace ulibc::zblas
