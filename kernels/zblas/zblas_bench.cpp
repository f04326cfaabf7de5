// zblas/zblas_bench.cpp — `ulibc bench zblas`: Nishida, Nukada and Oyanagi's §4.3 measurement.
//
// The Jacobi–Davidson kernels at the paper's sizes: vectors of --size (256^2)
// complex entries and a --size x --cols (256^2 x 4) column-major matrix.
// Vectors are NodeArrays of the run's mapping and the matrix's rows are split
// the same way and first touched by the thread that owns them, so that every
// thread reads its own node's memory. Each kernel runs --reps times; every
// repetition is kept, the reported figure is their median; every result is
// checked against the serial reference (verify.hpp).
//
// Counted per complex entry (n = --size, m x n' the matrix):
//   zdotc   8n flops (6 for the product, 2 for the sum),    32n bytes (x, y read)
//   zaxpy   8n flops,                                        48n bytes (x read, y read and written)
//   dznrm2  4n flops (two squares, two adds; scaling, rare, not counted), 16n bytes
//   zgemv   8mn' flops, 16mn' bytes of A + the vectors: x read once, y read and written.
#include "zblas/zblas_bench.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

#include "harness/memory_check.hpp"
#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "ulibc/error.hpp"
#include "ulibc/node_array.hpp"
#include "zblas/verify.hpp"
#include "zblas/zblas.hpp"

namespace ulibc::zblas {

namespace {

using harness::BenchKernel;
using harness::Measurement;
using harness::RunContext;
using harness::RunResult;

// The scalars of zaxpy and zgemv: |beta| < 1 keeps y bounded over repetitions.
constexpr Complex kAlpha{0.75, -0.5};
constexpr Complex kBeta{0.5, 0.25};

// Entry i of pseudo-random stream `stream`, parts uniform in [-1, 1):
// splitmix64 of the index, so any thread can fill any part identically.
double noise(std::uint64_t stream, std::uint64_t i) {
  std::uint64_t z = (stream << 48) + i + 0x9e3779b97f4a7c15ULL;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  z ^= z >> 31;
  return static_cast<double>(z >> 11) * 0x1p-52 - 1;
}
Complex entry(std::uint64_t stream, std::uint64_t i) { return {noise(stream, 2 * i), noise(stream, 2 * i + 1)}; }

// Fills rows of `cols` columns (leading dimension ld) at p, each thread its
// own rows of every column: the first touch that places them on its node.
void fill_rows(const Team& team, std::size_t cols, std::size_t ld, Complex* p, std::uint64_t stream) {
#pragma omp parallel num_threads(team.threads())
  for (int t = omp_get_thread_num(); t < team.threads(); t += omp_get_num_threads()) {
    const Range r = team.range(t);
    for (std::size_t j = 0; j < cols; ++j)
      for (std::size_t i = r.begin; i < r.end; ++i) p[j * ld + i] = entry(stream, j * ld + i);
  }
}

std::vector<Complex> random_vector(std::size_t n, std::uint64_t stream) {
  std::vector<Complex> v(n);
  for (std::size_t i = 0; i < n; ++i) v[i] = entry(stream, i);
  return v;
}

// Runs kernel `reps` times, the seconds of each.
template <class Kernel>
std::vector<double> time_reps(int reps, Kernel&& kernel) {
  std::vector<double> seconds;
  for (int r = 0; r < reps; ++r) {
    const harness::Timer timer;
    kernel();
    seconds.push_back(timer.seconds());
  }
  return seconds;
}

Measurement measurement(const std::string& name, double flops, double bytes, const std::vector<double>& seconds) {
  std::vector<double> rates;
  for (double s : seconds) rates.push_back(flops / s * 1e-9);
  Measurement m =
      harness::measurement_of(name, "GFLOP/s", harness::Better::higher, std::move(rates), harness::Summary::median);
  m.also.push_back({"GB/s", m.value * bytes / flops});
  return m;
}

std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) { return a > UINT64_MAX - b ? UINT64_MAX : a + b; }

Trans parse_trans(const std::string& text) {
  if (text == "n") return Trans::none;
  if (text == "t") return Trans::trans;
  if (text == "c") return Trans::conj_trans;
  throw input_error("--trans " + text + ": expected n, t or c");
}

class ZblasBench final : public BenchKernel {
 public:
  std::string name() const override { return "zblas"; }
  std::string description() const override { return kBenchSummary; }

  void add_options(harness::Options& options) override {
    options.add("--size", size_opt_, "vector length, and the matrix's rows (default 65536 = 256^2)");
    options.add("--cols", cols_opt_, "matrix columns for zgemv (default 4)");
    options.add("--reps", reps_opt_, "repetitions of each kernel (default 20)");
    options.add("--trans", trans_text_, "zgemv's op(A): n, t or c (default n)");
  }

  void prepare(const Topology&, int, bool quick) override {
    n_ = size_opt_.value_or(quick ? 4096 : 65536);
    cols_ = cols_opt_.value_or(4);
    reps_ = reps_opt_.value_or(quick ? 5 : 20);
    if (n_ == 0) throw input_error("--size must be at least 1");
    if (cols_ == 0) throw input_error("--cols must be at least 1");
    if (reps_ < 1) throw input_error("--reps must be at least 1, got " + std::to_string(reps_));
    trans_ = parse_trans(trans_text_);
    // The matrix, two long vectors and the saved copy of one, the short vector.
    const std::uint64_t entries =
        saturating_add(harness::saturating_mul(n_, cols_), saturating_add(harness::saturating_mul(n_, 3), cols_));
    harness::require_memory(harness::saturating_mul(entries, sizeof(Complex)),
                            fmt::format("zblas operands (--size {} --cols {})", n_, cols_));
  }

  nlohmann::ordered_json parameters() const override {
    return {{"size", n_},
            {"cols", cols_},
            {"reps", reps_},
            {"trans", trans_text_},
            {"alpha", {kAlpha.real(), kAlpha.imag()}},
            {"beta", {kBeta.real(), kBeta.imag()}}};
  }

  std::string headline() const override { return "zgemv"; }

  std::vector<RunResult> run(const RunContext& ctx) override;

 private:
  std::optional<std::size_t> size_opt_, cols_opt_;
  std::optional<int> reps_opt_;
  std::string trans_text_ = "n";
  std::size_t n_ = 0, cols_ = 0;
  int reps_ = 0;
  Trans trans_ = Trans::none;
};

std::vector<RunResult> ZblasBench::run(const RunContext& ctx) {
  const std::size_t n = n_, cols = cols_;
  // Long vectors u, v (length n, node-distributed), the short one s (cols).
  const NodeArray<Complex> u_array(ctx.topo, ctx.map, n), v_array(ctx.topo, ctx.map, n);
  Complex* const u = u_array.data();
  Complex* const v = v_array.data();
  const Team team(u_array.partition(), ctx.threads());
  fill_rows(team, 1, n, u, 1);
  fill_rows(team, 1, n, v, 2);
  std::vector<Complex> s = random_vector(cols, 3);
  // The matrix, unbound: its pages go where its rows' threads first write them.
  const NumaBuffer a_pages = allocate_parts(ctx.topo, {{.bytes = n * cols * sizeof(Complex), .node = -1}});
  Complex* a = static_cast<Complex*>(a_pages.data());
  fill_rows(team, cols, n, a, 4);
  const std::vector<Complex> v0(v, v + n), s0 = s;

  // zgemv: y = alpha op(A) x + beta y, y the long vector v for op = none, else s.
  const bool none = trans_ == Trans::none;
  Complex* gx = none ? s.data() : u;
  Complex* gy = none ? v : s.data();
  const auto gemv = [&] { zgemv(team, trans_, cols, kAlpha, a, n, gx, kBeta, gy); };
  const double mn = static_cast<double>(n) * static_cast<double>(cols), dn = static_cast<double>(n);
  const double gemv_vectors = none ? 16.0 * cols + 32 * dn : 16 * dn + 32.0 * cols;

  // The reductions first, while v is as filled; then the kernels that write.
  Complex dot;
  double norm = 0;
  const auto dot_s = time_reps(reps_, [&] { dot = zdotc(team, u, v); });
  const auto norm_s = time_reps(reps_, [&] { norm = dznrm2(team, u); });
  const auto gemv_s = time_reps(reps_, gemv);
  const auto axpy_s = time_reps(reps_, [&] { zaxpy(team, kAlpha, u, v); });
  RunResult result;
  result.measurements = {measurement("zgemv", 8 * mn, 16 * mn + gemv_vectors, gemv_s),
                         measurement("zdotc", 8 * dn, 32 * dn, dot_s), measurement("zaxpy", 8 * dn, 48 * dn, axpy_s),
                         measurement("dznrm2", 4 * dn, 16 * dn, norm_s)};

  // Checks against the serial reference (verify.hpp). zaxpy and zgemv run
  // once more, from the saved operands.
  std::vector<KernelError> errors = {{"dznrm2", dznrm2_error(n, u, norm)},
                                     {"zdotc", zdotc_error(n, u, v0.data(), dot)}};
  std::copy(v0.begin(), v0.end(), v);
  zaxpy(team, kAlpha, u, v);
  errors.push_back({"zaxpy", zaxpy_error(n, kAlpha, u, v0.data(), v)});
  std::copy(v0.begin(), v0.end(), v);
  s = s0;
  gemv();
  errors.push_back({"zgemv", zgemv_error(trans_, n, cols, kAlpha, a, n, gx, kBeta, none ? v0.data() : s0.data(), gy)});
  const Check verdict = check(errors, n);
  result.valid = verdict.valid;
  result.check = verdict.message;
  return {result};
}

}  // namespace

std::unique_ptr<BenchKernel> make_bench() { return std::make_unique<ZblasBench>(); }

}  // namespace ulibc::zblas
