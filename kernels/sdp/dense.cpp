// sdp/dense.cpp — LAPACK and BLAS calls for one symmetric block.
#include "sdp/dense.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

extern "C" {
void dpotrf_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dpotri_(const char* uplo, const int* n, double* a, const int* lda, int* info);
void dsygst_(const int* itype, const char* uplo, const int* n, double* a, const int* lda, const double* b,
             const int* ldb, int* info);
void dsterf_(const int* n, double* d, double* e, int* info);
void dsyevr_(const char* jobz, const char* range, const char* uplo, const int* n, double* a, const int* lda,
             const double* vl, const double* vu, const int* il, const int* iu, const double* abstol, int* m, double* w,
             double* z, const int* ldz, int* isuppz, double* work, const int* lwork, int* iwork, const int* liwork,
             int* info);
}

namespace ulibc::sdp::dense {

namespace {

// The smallest eigenvalue of the symmetric a, whose lower triangle dsyevr reads and destroys.
double smallest_eigenvalue_destroying(double* a, int n) {
  const int one = 1;
  int found = 0, info = 0, lwork = -1, liwork = -1, iwork_query = 0;
  double w = 0, z = 0, work_query = 0, unused = 0;
  const double abstol = 0;  // LAPACK's default accuracy
  std::vector<int> isuppz(2);
  dsyevr_("N", "I", "L", &n, a, &n, &unused, &unused, &one, &one, &abstol, &found, &w, &z, &one, isuppz.data(),
          &work_query, &lwork, &iwork_query, &liwork, &info);
  lwork = static_cast<int>(work_query);
  liwork = iwork_query;
  std::vector<double> work(static_cast<std::size_t>(lwork));
  std::vector<int> iwork(static_cast<std::size_t>(liwork));
  dsyevr_("N", "I", "L", &n, a, &n, &unused, &unused, &one, &one, &abstol, &found, &w, &z, &one, isuppz.data(),
          work.data(), &lwork, iwork.data(), &liwork, &info);
  if (info != 0)
    throw system_error("dsyevr failed to find the smallest eigenvalue (info " + std::to_string(info) + ")");
  return w;
}

}  // namespace

bool cholesky(std::span<double> a, int n, int lda) {
  int info = 0;
  lda = std::max(lda, n);
  dpotrf_("L", &n, a.data(), &lda, &info);
  return info == 0;
}

bool cholesky_team(std::span<double> a, int n, int threads) {
  if (threads == 1 || n < 2 * kPanel) return cholesky(a, n);
  bool ok = true;
  double* const m = a.data();
  const auto at = [&](int i, int j) { return m + i + static_cast<std::size_t>(j) * n; };
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), team = omp_get_num_threads();
    for (int k = 0; k < n; k += kPanel) {
      const int kb = std::min(kPanel, n - k), rest = n - k - kb;
#pragma omp single
      ok = cholesky({at(k, k), static_cast<std::size_t>(n - k) * n}, kb, n) && ok;
      if (!ok || rest == 0) break;  // every thread reads ok after the single's barrier
      const Range rows = even_share(Range{0, static_cast<std::size_t>(rest)}, static_cast<std::size_t>(t),
                                    static_cast<std::size_t>(team));
      if (!rows.empty())  // A21 ← A21 L11⁻ᵀ
        cblas_dtrsm(CblasColMajor, CblasRight, CblasLower, CblasTrans, CblasNonUnit, static_cast<int>(rows.size()), kb,
                    1.0, at(k, k), n, at(k + kb + static_cast<int>(rows.begin), k), n);
#pragma omp barrier
      for (int c = t * kPanel; c < rest; c += team * kPanel) {  // A22 ← A22 − A21 A21ᵀ, column block by block
        const int width = std::min(kPanel, rest - c), below = rest - c - width;
        const int col = k + kb + c;
        cblas_dsyrk(CblasColMajor, CblasLower, CblasNoTrans, width, kb, -1.0, at(col, k), n, 1.0, at(col, col), n);
        if (below > 0)
          cblas_dgemm(CblasColMajor, CblasNoTrans, CblasTrans, below, width, kb, -1.0, at(col + width, k), n,
                      at(col, k), n, 1.0, at(col + width, col), n);
      }
#pragma omp barrier
    }
  }
  return ok;
}

void invert_from_cholesky(std::span<double> l, int n) {
  int info = 0;
  dpotri_("L", &n, l.data(), &n, &info);
  if (info != 0) throw system_error("dpotri: the Cholesky factor is singular (info " + std::to_string(info) + ")");
  mirror_lower(l, n);
}

double max_step(std::span<const double> l, std::span<const double> d, int n, double cap, std::span<double> work) {
  std::copy(d.begin(), d.begin() + static_cast<std::ptrdiff_t>(n) * n, work.begin());
  const int itype = 1;
  int info = 0;
  dsygst_(&itype, "L", &n, work.data(), &n, l.data(), &n, &info);  // work ← L⁻¹ D L⁻ᵀ (lower triangle)
  if (info != 0) throw system_error("dsygst failed (info " + std::to_string(info) + ")");
  const double lambda = smallest_eigenvalue_destroying(work.data(), n);
  return lambda < 0 ? std::min(cap, -1 / lambda) : cap;
}

// The smallest eigenvalue of the tridiagonal matrix with diagonal `alpha` and off-diagonal `beta` (the first
// alpha.size() − 1 entries).
double smallest_ritz_value(std::vector<double> alpha, std::vector<double> beta) {
  int k = static_cast<int>(alpha.size()), info = 0;
  beta.resize(static_cast<std::size_t>(k));
  dsterf_(&k, alpha.data(), beta.data(), &info);  // the eigenvalues, ascending
  if (info != 0) throw system_error("dsterf failed (info " + std::to_string(info) + ")");
  return alpha[0];
}

double max_step_estimate(std::span<const double> l, std::span<const double> d, int n, double cap,
                         std::span<double> work) {
  // Enough Lanczos steps for the extreme Ritz value to settle on the orders SDPLIB has; a smaller block is cheaper
  // done exactly (the caller's choice).
  constexpr int kSteps = 40, kFirstCheck = 8, kCheckEvery = 4;
  constexpr double kSettled = 1e-3;
  const int steps = std::min(n, kSteps);
  double settled = INFINITY;
  double *v = work.data(), *prev = v + n, *w = prev + n;
  std::vector<double> alpha, beta;
  for (int i = 0; i < n; ++i) v[i] = 1 / std::sqrt(static_cast<double>(n)) * (1 + 0.1 * ((i * 7919) % 13));
  const double norm0 = cblas_dnrm2(n, v, 1);
  cblas_dscal(n, 1 / norm0, v, 1);
  std::fill(prev, prev + n, 0.0);
  for (int j = 0; j < steps; ++j) {
    std::copy(v, v + n, w);  // w = L⁻¹ D L⁻ᵀ v
    cblas_dtrsv(CblasColMajor, CblasLower, CblasTrans, CblasNonUnit, n, l.data(), n, w, 1);
    std::copy(w, w + n, work.data() + 3 * static_cast<std::size_t>(n));
    cblas_dsymv(CblasColMajor, CblasLower, n, 1.0, d.data(), n, work.data() + 3 * static_cast<std::size_t>(n), 1, 0.0,
                w, 1);
    cblas_dtrsv(CblasColMajor, CblasLower, CblasNoTrans, CblasNonUnit, n, l.data(), n, w, 1);
    alpha.push_back(cblas_ddot(n, w, 1, v, 1));
    cblas_daxpy(n, -alpha.back(), v, 1, w, 1);
    if (j > 0) cblas_daxpy(n, -beta.back(), prev, 1, w, 1);
    const double b = cblas_dnrm2(n, w, 1);
    if (b <= 1e-14 * std::abs(alpha.back())) break;  // an invariant subspace: the Ritz values are eigenvalues
    beta.push_back(b);
    // Every few steps, stop once the smallest Ritz value has settled: the step needs 3 digits, not 16.
    if (j + 1 >= kFirstCheck && (j + 1) % kCheckEvery == 0) {
      const double now = smallest_ritz_value(alpha, beta);
      if (std::abs(now - settled) <= kSettled * std::abs(now)) break;
      settled = now;
    }
    std::copy(v, v + n, prev);
    for (int i = 0; i < n; ++i) v[i] = w[i] / b;
  }
  const double lowest = smallest_ritz_value(alpha, beta);
  return lowest < 0 ? std::min(cap, -1 / lowest) : cap;
}

double min_eigenvalue(std::span<const double> a, int n, std::span<double> work) {
  std::copy(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n) * n, work.begin());
  return smallest_eigenvalue_destroying(work.data(), n);
}

void multiply(std::span<const double> a, std::span<const double> b, std::span<double> c, int n, double alpha,
              double beta) {
  cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, n, n, alpha, a.data(), n, b.data(), n, beta, c.data(), n);
}

void symmetrize(std::span<double> a, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) {
      double& lower = a[i + static_cast<std::size_t>(j) * n];
      double& upper = a[j + static_cast<std::size_t>(i) * n];
      lower = upper = (lower + upper) / 2;
    }
}

void mirror_lower(std::span<double> a, int n) {
  for (int j = 0; j < n; ++j)
    for (int i = j + 1; i < n; ++i) a[j + static_cast<std::size_t>(i) * n] = a[i + static_cast<std::size_t>(j) * n];
}

}  // namespace ulibc::sdp::dense
