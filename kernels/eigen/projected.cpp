// eigen/projected.cpp — the small dense problems, through LAPACK and BLAS.
#include "eigen/projected.hpp"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "ulibc/error.hpp"

extern "C" {  // LAPACK (OpenBLAS carries it); std::complex<double> is laid out as Fortran's COMPLEX*16
void zgees_(const char* jobvs, const char* sort, int (*select)(const void*), const int* n, void* a, const int* lda,
            int* sdim, void* w, void* vs, const int* ldvs, void* work, const int* lwork, double* rwork, int* bwork,
            int* info);
void ztrexc_(const char* compq, const int* n, void* t, const int* ldt, void* q, const int* ldq, const int* ifst,
             const int* ilst, int* info);
void zheev_(const char* jobz, const char* uplo, const int* n, void* a, const int* lda, double* w, void* work,
            const int* lwork, double* rwork, int* info);
void zpotrf_(const char* uplo, const int* n, void* a, const int* lda, int* info);
void ztrtrs_(const char* uplo, const char* trans, const char* diag, const int* n, const int* nrhs, const void* a,
             const int* lda, void* b, const int* ldb, int* info);
void zgeqrf_(const int* m, const int* n, void* a, const int* lda, void* tau, void* work, const int* lwork, int* info);
void zungqr_(const int* m, const int* n, const int* k, void* a, const int* lda, const void* tau, void* work,
             const int* lwork, int* info);
void ztrevc_(const char* side, const char* howmny, const int* select, const int* n, void* t, const int* ldt, void* vl,
             const int* ldvl, void* vr, const int* ldvr, const int* mm, int* m, void* work, double* rwork, int* info);
}

namespace ulibc::eigen::detail {

namespace {

void check(int info, const char* routine) {
  if (info != 0) throw system_error(std::string(routine) + " failed (info " + std::to_string(info) + ")");
}

std::size_t at(int i, int j, int ld) { return static_cast<std::size_t>(i) + static_cast<std::size_t>(j) * ld; }

// Moves the diagonal entries of the Schur form (t, u) into key order: selection by adjacent swaps (ztrexc keeps
// the form and updates u). O(j^3) for the j <= a few dozen of a search space.
void sort_schur(SortedSchur& s, int j, const SortKey& key) {
  for (int pos = 0; pos < j; ++pos) {
    int best = pos;
    for (int i = pos + 1; i < j; ++i)
      if (key(s.t[at(i, i, j)]) < key(s.t[at(best, best, j)])) best = i;
    if (best == pos) continue;
    const int ifst = best + 1, ilst = pos + 1;  // Fortran's 1-based
    int info = 0;
    ztrexc_("V", &j, s.t.data(), &j, s.u.data(), &j, &ifst, &ilst, &info);
    check(info, "ztrexc");
  }
}

SortedSchur hermitian_schur(const DenseMatrix& m, int j, const SortKey& key) {
  SortedSchur s{m, DenseMatrix(static_cast<std::size_t>(j) * j, Complex(0))};
  std::vector<double> w(static_cast<std::size_t>(j)), rwork(static_cast<std::size_t>(std::max(1, 3 * j - 2)));
  std::vector<Complex> work(static_cast<std::size_t>(std::max(1, 2 * j)));
  const int lwork = static_cast<int>(work.size());
  int info = 0;
  zheev_("V", "U", &j, s.u.data(), &j, w.data(), work.data(), &lwork, rwork.data(), &info);
  check(info, "zheev");
  std::vector<int> order(static_cast<std::size_t>(j));
  for (int i = 0; i < j; ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return key(w[a]) < key(w[b]); });
  DenseMatrix sorted(s.u.size());
  for (int c = 0; c < j; ++c) {
    const int from = order[c];
    std::copy_n(s.u.begin() + static_cast<std::ptrdiff_t>(at(0, from, j)), j,
                sorted.begin() + static_cast<std::ptrdiff_t>(at(0, c, j)));
    s.t[at(c, c, j)] = w[from];
  }
  s.u = std::move(sorted);
  return s;
}

}  // namespace

SortedSchur sorted_schur(const DenseMatrix& m, int j, const SortKey& key, bool hermitian) {
  if (hermitian) return hermitian_schur(m, j, key);
  SortedSchur s{DenseMatrix(static_cast<std::size_t>(j) * j), m};  // zgees overwrites t with T and fills u
  std::vector<Complex> w(static_cast<std::size_t>(j)), work(static_cast<std::size_t>(std::max(1, 4 * j)));
  std::vector<double> rwork(static_cast<std::size_t>(j));
  const int lwork = static_cast<int>(work.size());
  int sdim = 0, info = 0;
  zgees_("V", "N", nullptr, &j, s.t.data(), &j, &sdim, w.data(), s.u.data(), &j, work.data(), &lwork, rwork.data(),
         nullptr, &info);
  check(info, "zgees");
  sort_schur(s, j, key);
  return s;
}

DenseMatrix harmonic_directions(const DenseMatrix& g, const DenseMatrix& h, int j) {
  DenseMatrix l = g;
  int info = 0;
  zpotrf_("L", &j, l.data(), &j, &info);
  if (info != 0)
    throw input_error(
        "harmonic extraction: (A - target I) is singular on the search space (the target is an "
        "eigenvalue); use standard extraction or move the target");
  // C = L^-1 H L^-H: solve L X = H, then C^H = L^-1 X^H.
  DenseMatrix c = h;
  ztrtrs_("L", "N", "N", &j, &j, l.data(), &j, c.data(), &j, &info);
  check(info, "ztrtrs");
  DenseMatrix ch(c.size());
  for (int r = 0; r < j; ++r)
    for (int q = 0; q < j; ++q) ch[at(q, r, j)] = std::conj(c[at(r, q, j)]);
  ztrtrs_("L", "N", "N", &j, &j, l.data(), &j, ch.data(), &j, &info);
  check(info, "ztrtrs");
  for (int r = 0; r < j; ++r)
    for (int q = 0; q < j; ++q) c[at(q, r, j)] = std::conj(ch[at(r, q, j)]);
  // Largest |mu| first: theta = tau + 1/mu nearest tau.
  SortedSchur s = sorted_schur(
      c, j, [](Complex mu) { return -std::abs(mu); }, false);
  // S = L^-H Y.
  ztrtrs_("L", "C", "N", &j, &j, l.data(), &j, s.u.data(), &j, &info);
  check(info, "ztrtrs");
  return s.u;
}

DenseMatrix orthonormal_columns(DenseMatrix a, int j, int p) {
  if (p == 0) return a;
  std::vector<Complex> tau(static_cast<std::size_t>(p)), work(static_cast<std::size_t>(std::max(1, 64 * p)));
  const int lwork = static_cast<int>(work.size());
  int info = 0;
  zgeqrf_(&j, &p, a.data(), &j, tau.data(), work.data(), &lwork, &info);
  check(info, "zgeqrf");
  zungqr_(&j, &p, &p, a.data(), &j, tau.data(), work.data(), &lwork, &info);
  check(info, "zungqr");
  return a;
}

DenseMatrix triangular_eigenvectors(const DenseMatrix& r, int k) {
  DenseMatrix t = r, y(static_cast<std::size_t>(k) * k);
  std::vector<Complex> work(static_cast<std::size_t>(2 * k));
  std::vector<double> rwork(static_cast<std::size_t>(k));
  int m = 0, info = 0, one = 1;
  ztrevc_("R", "A", nullptr, &k, t.data(), &k, nullptr, &one, y.data(), &k, &k, &m, work.data(), rwork.data(), &info);
  check(info, "ztrevc");
  for (int c = 0; c < k; ++c) {
    const double norm = cblas_dznrm2(k, y.data() + at(0, c, k), 1);
    if (norm > 0)
      for (int i = 0; i < k; ++i) y[at(i, c, k)] /= norm;
  }
  return y;
}

namespace {

// op(A) B for op(A) p x k and B k x q, column-major with leading dimensions their row counts: p x q.
DenseMatrix product(CBLAS_TRANSPOSE op, const DenseMatrix& a, int lda, const DenseMatrix& b, int p, int k, int q) {
  DenseMatrix c(static_cast<std::size_t>(p) * q);
  const Complex one = 1, zero = 0;
  if (p > 0 && q > 0)
    cblas_zgemm(CblasColMajor, op, CblasNoTrans, p, q, k, &one, a.data(), std::max(1, lda), b.data(), std::max(1, k),
                &zero, c.data(), p);
  return c;
}

}  // namespace

DenseMatrix adjoint_times(const DenseMatrix& a, const DenseMatrix& b, int rows, int p, int q) {
  return product(CblasConjTrans, a, rows, b, p, rows, q);
}

DenseMatrix times(const DenseMatrix& a, const DenseMatrix& b, int rows, int p, int q) {
  return product(CblasNoTrans, a, rows, b, rows, p, q);
}

}  // namespace ulibc::eigen::detail
