// sdp/schur_system.cpp — factoring the Schur complement, shifted when it must be, and refined solves.
#include "sdp/schur_system.hpp"

#include <cblas.h>

#include <algorithm>

#include "sdp/dense.hpp"

extern "C" void dpotrs_(const char* uplo, const int* n, const int* nrhs, const double* a, const int* lda, double* b,
                        const int* ldb, int* info);

namespace ulibc::sdp {

bool SchurSystem::factor(int threads, bool end_game) {
  const std::size_t m = static_cast<std::size_t>(m_);
  exact_ = b_;
  double largest = 0;
  for (std::size_t i = 0; i < m; ++i) largest = std::max(largest, b_[i + i * m]);
  const double first = end_game ? kNoiseShift * largest : 0;
  for (double delta = first; delta <= 1e-6 * largest; delta = delta == 0 ? 1e-14 * largest : delta * 100) {
    if (delta > 0) {
      b_ = exact_;
      for (std::size_t i = 0; i < m; ++i) b_[i + i * m] += delta;
    }
    if (dense::cholesky_team(b_, m_, threads)) {
      shift_ = delta;
      return true;
    }
  }
  return false;
}

void SchurSystem::solve(std::vector<double>& v) {
  const int one = 1;
  int info = 0;
  rhs_ = v;
  dpotrs_("L", &m_, &one, b_.data(), &m_, v.data(), &m_, &info);
  for (int round = 0; round < kRefinements; ++round) {
    residual_ = rhs_;  // r − B v
    cblas_dsymv(CblasColMajor, CblasLower, m_, -1.0, exact_.data(), m_, v.data(), 1, 1.0, residual_.data(), 1);
    dpotrs_("L", &m_, &one, b_.data(), &m_, residual_.data(), &m_, &info);
    for (int i = 0; i < m_; ++i) v[i] += residual_[i];
  }
}

}  // namespace ulibc::sdp
