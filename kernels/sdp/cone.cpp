// sdp/cone.cpp — factoring, inverting and stepping in the cone of the block structure, block by block.
#include "sdp/cone.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>

#include "sdp/dense.hpp"
#include "ulibc/range.hpp"

namespace ulibc::sdp {

namespace {

// A dense block at least this large has its products split into column slabs over the team; smaller ones go whole
// to one thread each, round robin.
constexpr int kSplitOrder = 64;

bool split(const BlockShape& s) { return !s.diagonal && s.size >= kSplitOrder; }

// Runs body(b) for every block b, each on one thread of a team of `threads`, round robin.
template <class Body>
void for_each_block(int blocks, int threads, Body&& body) {
#pragma omp parallel num_threads(threads)
  for (int b = omp_get_thread_num(); b < blocks; b += omp_get_num_threads()) body(b);
}

}  // namespace

namespace {

// f's block b ← the factor of its own values (f holds a copy of the matrix); false when not positive definite.
bool factor_block(BlockMatrix& f, int b) {
  const std::span<double> v = f.block(b);
  return f.shape(b).diagonal ? std::all_of(v.begin(), v.end(), [](double x) { return x > 0; })
                             : dense::cholesky(v, f.shape(b).size);
}

}  // namespace

bool factor(const BlockMatrix& a, BlockMatrix& f, int threads) {
  f = a;
  std::atomic<bool> ok = true;
  for_each_block(a.blocks(), threads, [&](int b) {
    if (!factor_block(f, b)) ok = false;
  });
  return ok;
}

std::pair<bool, bool> factor_pair(const BlockMatrix& a, BlockMatrix& fa, const BlockMatrix& b, BlockMatrix& fb,
                                  int threads) {
  fa = a;
  fb = b;
  const int blocks = a.blocks();
  std::atomic<bool> a_ok = true, b_ok = true;
  for_each_block(2 * blocks, threads, [&](int item) {
    if (item < blocks ? !factor_block(fa, item) : !factor_block(fb, item - blocks))
      (item < blocks ? a_ok : b_ok) = false;
  });
  return {a_ok, b_ok};
}

void invert(const BlockMatrix& f, BlockMatrix& inverse, int threads) {
  inverse = f;
  for_each_block(f.blocks(), threads, [&](int b) {
    const std::span<double> v = inverse.block(b);
    if (f.shape(b).diagonal)
      for (double& x : v) x = 1 / x;
    else
      dense::invert_from_cholesky(v, f.shape(b).size);
  });
}

std::pair<double, double> max_steps(const BlockMatrix& fx, const BlockMatrix& dx, const BlockMatrix& fy,
                                    const BlockMatrix& dy, double cap, int threads, StepMethod method) {
  const int blocks = fx.blocks();
  std::vector<double> alpha(2 * static_cast<std::size_t>(blocks), cap);  // X's blocks, then Y's
  for_each_block(2 * blocks, threads, [&](int item) {
    const int b = item % blocks;
    const BlockMatrix& f = item < blocks ? fx : fy;
    const std::span<const double> l = f.block(b), d = (item < blocks ? dx : dy).block(b);
    const int n = f.shape(b).size;
    double& a = alpha[item];
    if (f.shape(b).diagonal) {
      for (int k = 0; k < n; ++k)
        if (d[k] < 0) a = std::min(a, -l[k] / d[k]);
      return;
    }
    if (method == StepMethod::estimate && n >= kEstimateOrder) {
      std::vector<double> work(4 * static_cast<std::size_t>(n));
      a = dense::max_step_estimate(l, d, n, cap, work);
      return;
    }
    std::vector<double> work(static_cast<std::size_t>(n) * n);
    a = dense::max_step(l, d, n, cap, work);
  });
  return {*std::min_element(alpha.begin(), alpha.begin() + blocks),
          *std::min_element(alpha.begin() + blocks, alpha.end())};
}

void sym_product(const BlockMatrix& a, const BlockMatrix& m, const BlockMatrix& b, BlockMatrix& out, BlockMatrix& work,
                 int threads) {
#pragma omp parallel num_threads(threads)
  {
    const int t = omp_get_thread_num(), team = omp_get_num_threads();
    int whole = 0;  // small blocks met so far: the round robin's count
    for (int k = 0; k < a.blocks(); ++k) {
      const int n = a.shape(k).size;
      const double *ak = a.block(k).data(), *mk = m.block(k).data(), *bk = b.block(k).data();
      double *wk = work.block(k).data(), *ok = out.block(k).data();
      if (a.shape(k).diagonal) {
        if (whole++ % team == t)
          for (int i = 0; i < n; ++i) ok[i] = ak[i] * mk[i] * bk[i];
        continue;
      }
      // Columns J of this thread (all of a small block's when it is this thread's turn): W[:, J] = M B[:, J], then
      // out[:, J] = A W[:, J]; every column is independent until the symmetrization.
      Range cols{0, static_cast<std::size_t>(n)};
      if (split(a.shape(k)))
        cols = even_share(cols, static_cast<std::size_t>(t), static_cast<std::size_t>(team));
      else if (whole++ % team != t)
        continue;
      const int width = static_cast<int>(cols.size());
      const std::size_t at = cols.begin * static_cast<std::size_t>(n);
      if (width > 0) {
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, width, n, 1.0, mk, n, bk + at, n, 0.0, wk + at, n);
        cblas_dgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, n, width, n, 1.0, ak, n, wk + at, n, 0.0, ok + at, n);
      }
      if (split(a.shape(k))) {
#pragma omp barrier
      }
      for (std::size_t j = cols.begin; j < cols.end; ++j)  // the pairs (i, j), i > j, of these columns
        for (std::size_t i = j + 1; i < static_cast<std::size_t>(n); ++i) {
          double& lower = ok[i + j * n];
          double& upper = ok[j + i * n];
          lower = upper = (lower + upper) / 2;
        }
      if (split(a.shape(k))) {
#pragma omp barrier
      }
    }
  }
}

}  // namespace ulibc::sdp
