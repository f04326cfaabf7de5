// zblas.cpp — the parallel kernels: a team loop over each thread's rows
// around three serial inner loops: dot_sums (zdotc, zgemv T/C), update
// (zaxpy, zgemv N) and sum_squares (dznrm2).
//
// The inner loops see complex vectors as interleaved doubles, two complex
// numbers (re, im, re, im) per 32-byte vector, as OpenBLAS's kernels do: a
// product needs a*x lane by lane and a*swap(x) (each pair's parts exchanged),
// never a de-interleaving shuffle. They are written with GCC's vector
// extensions because GCC's auto-vectoriser keeps such accumulators in memory
// or de-interleaves. Scalar complex arithmetic is written on real and
// imaginary parts: std::complex's operator* goes through __muldc3's Annex G
// NaN recovery, which is slow and not what BLAS computes.
#include "zblas/zblas.hpp"

#include <omp.h>

#include <algorithm>
#include <array>
#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

#include "ulibc/error.hpp"

// The inner loops also get an AVX2+FMA build, chosen when the program loads
// (as OpenBLAS chooses its kernels at run time); ULIBC itself targets
// baseline x86-64.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define ZBLAS_CLONES __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define ZBLAS_CLONES
#endif

namespace ulibc::zblas {

// ---------------------------------------------------------------- the team

Team::Team(const NodePartition& part, int threads) : n_(part.size()) {
  if (threads < 1) throw input_error("zblas: a team needs at least one thread, got " + std::to_string(threads));
  std::size_t covered = 0;
  for (int t = 0; t < threads; ++t) {
    ranges_.push_back(part.thread_range(t));
    covered += ranges_.back().size();
  }
  if (covered != n_) throw input_error("zblas: the partition is not one of " + std::to_string(threads) + " threads");
}

Team::Team(std::size_t n, int threads) : n_(n) {
  if (threads == 0) threads = omp_get_max_threads();
  if (threads < 1) throw input_error("zblas: a team needs at least one thread, got " + std::to_string(threads));
  const auto count = static_cast<std::size_t>(threads);
  for (std::size_t t = 0; t < count; ++t) ranges_.push_back(static_schedule_share(Range{0, n}, t, count));
}

namespace {

// ------------------------------------------------------- parallel skeleton

// Calls body(t, range(t)) for every thread t of the team, on thread t of an
// OpenMP team of that size. Should the runtime give fewer threads
// (OMP_THREAD_LIMIT, nesting), the ranges are dealt round-robin: every row
// is still done, only not where it was placed.
template <class Body>
void on_team(const Team& team, Body&& body) {
  const int threads = team.threads();
#pragma omp parallel num_threads(threads) if (threads > 1)
  for (int t = omp_get_thread_num(); t < threads; t += omp_get_num_threads()) body(t, team.range(t));
}

// One cache line per partial, so that threads storing theirs share none.
template <class T>
struct alignas(64) Slot {
  T value{};
};

// A reduction: each thread's partial(range), folded in thread order by
// combine, so that the result depends on the split only, never on timing.
template <class T, class Partial, class Combine>
T reduce(const Team& team, Partial&& partial, Combine&& combine) {
  // On the stack for usual teams: a heap allocation is a fair part of a
  // small call's cost.
  constexpr std::size_t kOnStack = 16;
  const auto threads = static_cast<std::size_t>(team.threads());
  std::array<Slot<T>, kOnStack> stack_slots;
  std::vector<Slot<T>> heap_slots(threads > kOnStack ? threads : 0);
  Slot<T>* slots = threads > kOnStack ? heap_slots.data() : stack_slots.data();
  on_team(team, [&](int t, Range r) { slots[t].value = partial(r); });
  T total = std::move(slots[0].value);
  for (std::size_t t = 1; t < threads; ++t) total = combine(std::move(total), slots[t].value);
  return total;
}

// ------------------------------------------------------ scalar arithmetic

Complex mul(Complex a, Complex b) {
  return {a.real() * b.real() - a.imag() * b.imag(), a.real() * b.imag() + a.imag() * b.real()};
}

// y = beta y; beta == 0 writes zeros without reading y (BLAS's rule).
void scale(Complex beta, Complex* y, std::size_t len) {
  if (beta == Complex(1, 0)) return;
  if (beta == Complex(0, 0)) {
    std::fill(y, y + len, Complex(0, 0));
    return;
  }
  for (std::size_t i = 0; i < len; ++i) y[i] = mul(beta, y[i]);
}

const double* doubles(const Complex* p) { return reinterpret_cast<const double*>(p); }
double* doubles(Complex* p) { return reinterpret_cast<double*>(p); }

// ------------------------------------------------------------ inner loops

// Four doubles: two complex numbers, one AVX2 register (two SSE2 ones). The
// helpers are always inlined, into each clone's own instruction set; GCC's
// note that passing such vectors changes the ABI therefore does not apply.
#pragma GCC diagnostic ignored "-Wpsabi"
using Vec = double __attribute__((vector_size(32)));
using Mask = long long __attribute__((vector_size(32)));
#define ZBLAS_INLINE [[gnu::always_inline]] inline

ZBLAS_INLINE Vec load(const double* p) {
  Vec v;
  std::memcpy(&v, p, sizeof v);  // unaligned
  return v;
}
ZBLAS_INLINE void store(double* p, const Vec& v) { std::memcpy(p, &v, sizeof v); }
ZBLAS_INLINE Vec swap_parts(const Vec& v) { return __builtin_shuffle(v, Mask{1, 0, 3, 2}); }  // (im, re, im, re)
ZBLAS_INLINE Vec broadcast(double a, double b) { return Vec{a, b, a, b}; }

// The four real sums of a complex dot product of column a with x:
// conj(a)^T x = (rr + ii, ri - ir) and a^T x = (rr - ii, ri + ir).
struct DotSums {
  double rr = 0, ii = 0, ri = 0, ir = 0;
  Complex conj_dot() const { return {rr + ii, ri - ir}; }
  Complex dot() const { return {rr - ii, ri + ir}; }
};

// out[j] += the sums of columns a[0..C) against x over `len` complex entries.
// `same` accumulates a*x lane by lane (rr, ii, rr, ii), `swapped` a*swap(x)
// (ri, ir, ri, ir); U independent accumulators per column hide the latency
// of the adds, eight vectors in all.
template <int C>
ZBLAS_CLONES void dot_sums(const double* const* a, const double* x, std::size_t len, DotSums* out) {
  constexpr std::size_t U = C == 1 ? 4 : C == 2 ? 2 : 1;
  Vec same[C][U] = {}, swapped[C][U] = {};
  const std::size_t n = 2 * len, body = n / (4 * U) * (4 * U);
  for (std::size_t k = 0; k < body; k += 4 * U)
    for (std::size_t u = 0; u < U; ++u) {
      const Vec xv = load(x + k + 4 * u), xs = swap_parts(xv);
      for (int j = 0; j < C; ++j) {
        const Vec av = load(a[j] + k + 4 * u);
        same[j][u] += av * xv;
        swapped[j][u] += av * xs;
      }
    }
  for (int j = 0; j < C; ++j) {
    for (std::size_t u = 0; u < U; ++u) {
      out[j].rr += same[j][u][0] + same[j][u][2];
      out[j].ii += same[j][u][1] + same[j][u][3];
      out[j].ri += swapped[j][u][0] + swapped[j][u][2];
      out[j].ir += swapped[j][u][1] + swapped[j][u][3];
    }
    for (std::size_t k = body; k < n; k += 2) {
      out[j].rr += a[j][k] * x[k];
      out[j].ii += a[j][k + 1] * x[k + 1];
      out[j].ri += a[j][k] * x[k + 1];
      out[j].ir += a[j][k + 1] * x[k];
    }
  }
}

// y += sum_j t[j] a[j] over `len` complex entries: t a = tr a + ti (-ai, ar),
// so per column one multiply-add lane by lane and one on the swapped parts.
template <int C>
ZBLAS_CLONES void update(double* y, const double* const* cols, const Complex* t, std::size_t len) {
  const double* a[C];  // local copies: stores to y cannot change them, so they stay in registers
  Vec tr[C], ti[C];
  for (int j = 0; j < C; ++j) {
    a[j] = cols[j];
    tr[j] = broadcast(t[j].real(), t[j].real());
    ti[j] = broadcast(-t[j].imag(), t[j].imag());
  }
  const std::size_t n = 2 * len, body = n / 4 * 4;
  for (std::size_t k = 0; k < body; k += 4) {
    Vec yv = load(y + k);
    for (int j = 0; j < C; ++j) {
      const Vec av = load(a[j] + k);
      yv += tr[j] * av + ti[j] * swap_parts(av);
    }
    store(y + k, yv);
  }
  for (std::size_t k = body; k < n; k += 2)
    for (int j = 0; j < C; ++j) {
      y[k] += t[j].real() * a[j][k] - t[j].imag() * a[j][k + 1];
      y[k + 1] += t[j].real() * a[j][k + 1] + t[j].imag() * a[j][k];
    }
}

// Sum of the squares of the 2 len doubles at x, four accumulators.
ZBLAS_CLONES double sum_squares(const double* x, std::size_t len) {
  Vec acc[4] = {};
  const std::size_t n = 2 * len, body = n / 16 * 16;
  for (std::size_t k = 0; k < body; k += 16)
    for (std::size_t u = 0; u < 4; ++u) {
      const Vec v = load(x + k + 4 * u);
      acc[u] += v * v;
    }
  const Vec v = (acc[0] + acc[1]) + (acc[2] + acc[3]);
  double s = (v[0] + v[1]) + (v[2] + v[3]);
  for (std::size_t k = body; k < n; ++k) s += x[k] * x[k];
  return s;
}

// Calls f(std::integral_constant<int, C>, j) for columns [j, j + C) in
// chunks of four and the rest: each chunk is one pass over the rows.
template <class F>
void by_column_chunks(std::size_t n, F&& f) {
  std::size_t j = 0;
  for (; j + 4 <= n; j += 4) f(std::integral_constant<int, 4>{}, j);
  switch (n - j) {
    case 3:
      f(std::integral_constant<int, 3>{}, j);
      break;
    case 2:
      f(std::integral_constant<int, 2>{}, j);
      break;
    case 1:
      f(std::integral_constant<int, 1>{}, j);
      break;
    default:
      break;
  }
}

// [r.begin, r.end) as a head of at most one entry and the rest, the rest
// starting on a 32-byte boundary of `base` where it can (complex arrays are
// 16-byte aligned at best, as malloc's large blocks are): the inner loops'
// two-entry loads and stores then never straddle a cache line. Operands
// aligned alike (the usual case) all gain.
std::array<Range, 2> aligned_split(const Complex* base, Range r) {
  const auto address = reinterpret_cast<std::uintptr_t>(base + r.begin);
  const std::size_t head = std::min(r.size(), static_cast<std::size_t>(address % 32 / 16));
  return {Range{r.begin, r.begin + head}, Range{r.begin + head, r.end}};
}

// ------------------------------------------------------------------ dznrm2

// A partial norm scale * sqrt(sumsq) (LAPACK's dlassq pair). A NaN sumsq
// stands for "a NaN was seen", an infinite scale for "an Inf was seen".
struct Ssq {
  double scale = 0, sumsq = 0;
};

// Below this the plain sum of squares may have lost digits to squares that
// underflowed (2^-900 leaves 120 bits of headroom over the subnormals).
constexpr double kSafeSum = 0x1p-900;

// The part's norm as its largest magnitude times the root of the sum of
// squares scaled by it: for parts all tiny or holding huge or infinite
// entries only, so two passes and divisions cost little overall.
Ssq scaled_ssq(const double* x, std::size_t len) {
  double big = 0;
  for (std::size_t k = 0; k < 2 * len; ++k) big = std::max(big, std::abs(x[k]));
  if (big == 0 || std::isinf(big)) return {big, 1};
  double sumsq = 0;
  for (std::size_t k = 0; k < 2 * len; ++k) sumsq += (x[k] / big) * (x[k] / big);
  return {big, sumsq};
}

// One thread's part: the fast unscaled sum when it neither overflowed nor
// came near the subnormals (the common case, one pass), else scaled.
Ssq part_ssq(const Complex* x, Range r) {
  double s = 0;
  for (Range p : aligned_split(x, r)) s += sum_squares(doubles(x + p.begin), p.size());
  if (std::isnan(s) || (s >= kSafeSum && s <= DBL_MAX)) return {1, s};
  return scaled_ssq(doubles(x + r.begin), r.size());
}

// NaN wins over everything, then Inf; else the smaller part is rescaled.
Ssq combine(Ssq a, Ssq b) {
  if (std::isnan(a.sumsq)) return a;
  if (std::isnan(b.sumsq)) return b;
  if (a.scale < b.scale) std::swap(a, b);
  if (b.scale == 0 || std::isinf(a.scale)) return a;
  const double r = b.scale / a.scale;
  return {a.scale, a.sumsq + b.sumsq * (r * r)};
}

// ------------------------------------------------------------------- zgemv

// Rows of a zgemv A x are cut into blocks of this many, so that the block
// of y (or x) stays in L1 while every column chunk passes over it.
constexpr std::size_t kRowBlock = 512;

// The addresses of columns [j, j + C) of A, from row `row`.
template <int C>
void column_chunk(const Complex* a, std::size_t lda, std::size_t j, std::size_t row, const double* (&cols)[C]) {
  for (int q = 0; q < C; ++q) cols[q] = doubles(a + (j + static_cast<std::size_t>(q)) * lda + row);
}

// y = beta y + A t on one thread's rows, t = alpha x (empty when alpha == 0).
void gemv_n_rows(Range rows, std::size_t n, const Complex* a, std::size_t lda, const std::vector<Complex>& t,
                 Complex beta, Complex* y) {
  for (std::size_t b = rows.begin; b < rows.end; b += kRowBlock) {
    const std::size_t len = std::min(kRowBlock, rows.end - b);
    scale(beta, y + b, len);
    if (t.empty()) continue;
    by_column_chunks(n, [&](auto chunk, std::size_t j) {
      constexpr int C = decltype(chunk)::value;
      const double* cols[C];
      column_chunk(a, lda, j, b, cols);
      update<C>(doubles(y + b), cols, t.data() + j, len);
    });
  }
}

// sums += op(A)^T x restricted to `rows`: n partial sums.
void gemv_t_rows(Range rows, bool conj, std::size_t n, const Complex* a, std::size_t lda, const Complex* x,
                 std::vector<Complex>& sums) {
  for (std::size_t b = rows.begin; b < rows.end; b += kRowBlock) {
    const std::size_t len = std::min(kRowBlock, rows.end - b);
    by_column_chunks(n, [&](auto chunk, std::size_t j) {
      constexpr int C = decltype(chunk)::value;
      const double* cols[C];
      column_chunk(a, lda, j, b, cols);
      DotSums s[C];
      dot_sums<C>(cols, doubles(x + b), len, s);
      for (int q = 0; q < C; ++q) sums[j + static_cast<std::size_t>(q)] += conj ? s[q].conj_dot() : s[q].dot();
    });
  }
}

std::vector<Complex> add(std::vector<Complex> a, const std::vector<Complex>& b) {
  for (std::size_t j = 0; j < a.size(); ++j) a[j] += b[j];
  return a;
}

}  // namespace

// ------------------------------------------------------------ the kernels

Complex zdotc(const Team& team, const Complex* x, const Complex* y) {
  return reduce<Complex>(
      team,
      [&](Range r) {
        DotSums s;
        for (Range p : aligned_split(y, r)) {
          const double* cols[1] = {doubles(x + p.begin)};
          dot_sums<1>(cols, doubles(y + p.begin), p.size(), &s);
        }
        return s.conj_dot();
      },
      [](Complex a, Complex b) { return a + b; });
}

void zaxpy(const Team& team, Complex alpha, const Complex* x, Complex* y) {
  if (alpha == Complex(0, 0)) return;
  on_team(team, [&](int, Range r) {
    for (Range p : aligned_split(y, r)) {
      const double* cols[1] = {doubles(x + p.begin)};
      update<1>(doubles(y + p.begin), cols, &alpha, p.size());
    }
  });
}

double dznrm2(const Team& team, const Complex* x) {
  const Ssq total = reduce<Ssq>(
      team, [&](Range r) { return part_ssq(x, r); }, combine);
  return total.scale * std::sqrt(total.sumsq);
}

void zgemv(const Team& rows, Trans trans, std::size_t n, Complex alpha, const Complex* a, std::size_t lda,
           const Complex* x, Complex beta, Complex* y) {
  const std::size_t m = rows.size();
  if (lda < std::max<std::size_t>(1, m))
    throw input_error("zgemv: lda " + std::to_string(lda) + " is less than m " + std::to_string(m));
  if (m == 0 || n == 0 || (alpha == Complex(0, 0) && beta == Complex(1, 0))) return;

  if (trans == Trans::none) {
    std::vector<Complex> t;  // alpha x, as reference BLAS forms it per column
    if (alpha != Complex(0, 0))
      for (std::size_t j = 0; j < n; ++j) t.push_back(mul(alpha, x[j]));
    on_team(rows, [&](int, Range r) {
      for (Range p : aligned_split(y, r)) gemv_n_rows(p, n, a, lda, t, beta, y);
    });
    return;
  }
  if (alpha == Complex(0, 0)) return scale(beta, y, n);
  const bool conj = trans == Trans::conj_trans;
  const std::vector<Complex> sums = reduce<std::vector<Complex>>(
      rows,
      [&](Range r) {
        std::vector<Complex> part(n);
        for (Range p : aligned_split(x, r)) gemv_t_rows(p, conj, n, a, lda, x, part);
        return part;
      },
      add);
  scale(beta, y, n);
  for (std::size_t j = 0; j < n; ++j) y[j] += mul(alpha, sums[j]);
}

}  // namespace ulibc::zblas
