// blas/blas_threads.hpp — how many threads OpenBLAS may use, for a scope: the kernels that call BLAS and LAPACK
// from their own OpenMP team (sdp, eigen) run them on one thread each, since OpenBLAS's own threads on small
// matrices cost far more than they save and compete with the team for its processors.
#pragma once
#include <cblas.h>

namespace ulibc::blas {

class BlasThreads {
 public:
  explicit BlasThreads(int threads) : before_(openblas_get_num_threads()) { openblas_set_num_threads(threads); }
  ~BlasThreads() { openblas_set_num_threads(before_); }
  BlasThreads(const BlasThreads&) = delete;
  BlasThreads& operator=(const BlasThreads&) = delete;

 private:
  int before_;
};

}  // namespace ulibc::blas
