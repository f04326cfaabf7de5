// peers/zblas_openblas.cpp — the zblas kernels against OpenBLAS, side by side.
//
// For zdotc, zaxpy, dznrm2 and zgemv (op = N, T, C), at Nishida et al.'s size
// (vectors of 65536 = 256^2, a 65536 x 4 matrix) and at a memory-bound one
// (4M, 4M x 4), both libraries run on the same operands with T threads
// (default 2): ULIBC's kernels on an OpenMP team bound by the scatter
// mapping, with vectors node-distributed and the matrix first touched by its
// rows' threads; OpenBLAS (CBLAS, column-major) with openblas_set_num_threads(T),
// its own pool of threads placed by the OS (they exist before the team is
// bound), called from the program's thread, which is team thread 0. Each repetition times one batch of
// consecutive calls per library, the order alternating (ULIBC first when the
// repetition is even), after an untimed warm-up batch of each, so that drift
// falls on both alike. Reported: the median time per call of each as GFLOP/s
// and GB/s (counted as in kernels/zblas/zblas_bench.cpp), and the speed ratio
// ULIBC / OpenBLAS (above 1: ULIBC is faster): the median of the ratios of
// the repetitions' pairs, which ran back to back.
//
// Before each batch the program rests --gap-ms (150 ms): on a machine with
// no spare processor, one library's idle threads still spinning (libgomp for
// some milliseconds, OpenBLAS for about 2^28 cycles) would otherwise slow the
// other one's batch. The batch then starts with one untimed call, which wakes
// its own threads.
//
// usage: ulibc_peer_zblas [--threads T] [--reps R] [--cols N] [--sizes N,N,...] [--gap-ms G] [--kernels K,...]
#include <cblas.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "harness/memory_check.hpp"
#include "harness/stats.hpp"
#include "peer_args.hpp"
#include "ulibc.hpp"
#include "zblas/zblas.hpp"

namespace {

using Clock = std::chrono::steady_clock;
using ulibc::harness::median;
using ulibc::zblas::Complex;
using ulibc::zblas::Team;
using ulibc::zblas::Trans;

constexpr Complex kAlpha{0.75, -0.5};
constexpr Complex kBeta{0.5, 0.25};

struct Options {
  int threads = 2;
  int reps = 21;
  std::size_t cols = 4;
  std::vector<std::size_t> sizes = {65536, 4194304};
  double gap = 0.15;              // seconds of rest before each batch
  std::vector<std::string> only;  // kernels to run; empty: all
};

[[noreturn]] void usage(const char* argv0, int rc) {
  std::fprintf(rc ? stderr : stdout,
               "usage: %s [--threads T] [--reps R] [--cols N] [--sizes N,N,...] [--gap-ms G] [--kernels K,K,...]\n"
               "  Times zdotc, zaxpy, dznrm2 and zgemv of ULIBC and of OpenBLAS, alternating.\n"
               "  --threads T   threads of both (default 2)\n"
               "  --reps R      timed batches of each library per kernel (default 21)\n"
               "  --cols N      zgemv's matrix columns (default 4)\n"
               "  --sizes L     vector lengths = matrix rows (default 65536,4194304)\n"
               "  --gap-ms G    rest before each batch, for the other library's threads to idle (default 150)\n"
               "  --kernels K   only these of zdotc,zaxpy,dznrm2,zgemv_n,zgemv_t,zgemv_c (default all)\n",
               argv0);
  std::exit(rc);
}

// CBLAS counts are int.
std::size_t parse_count(const std::string& text, const char* option) {
  return static_cast<std::size_t>(ulibc::peers::parse_count(text, option, 1, INT_MAX));
}

std::vector<std::string> split(const std::string& text) {
  std::vector<std::string> items;
  std::stringstream list(text);
  for (std::string item; std::getline(list, item, ',');) items.push_back(item);
  return items;
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") usage(argv[0], 0);
    if (arg == "--threads" && has_value)
      o.threads = static_cast<int>(parse_count(argv[++i], "--threads"));
    else if (arg == "--reps" && has_value)
      o.reps = static_cast<int>(parse_count(argv[++i], "--reps"));
    else if (arg == "--cols" && has_value)
      o.cols = parse_count(argv[++i], "--cols");
    else if (arg == "--gap-ms" && has_value)
      o.gap = static_cast<double>(parse_count(argv[++i], "--gap-ms")) / 1000;
    else if (arg == "--sizes" && has_value) {
      o.sizes.clear();
      for (const std::string& item : split(argv[++i])) o.sizes.push_back(parse_count(item, "--sizes"));
    } else if (arg == "--kernels" && has_value)
      o.only = split(argv[++i]);
    else
      usage(argv[0], 2);
  }
  return o;
}

// One kernel as both libraries call it.
struct Kernel {
  std::string name;
  double flops = 0, bytes = 0;  // per call
  std::function<void()> ulibc, openblas;
};

// Seconds per call of one batch of `calls` consecutive calls, after `gap`
// seconds of rest and one untimed call.
double time_batch(const std::function<void()>& call, int calls, double gap) {
  std::this_thread::sleep_for(std::chrono::duration<double>(gap));
  call();
  const auto t0 = Clock::now();
  for (int c = 0; c < calls; ++c) call();
  return std::chrono::duration<double>(Clock::now() - t0).count() / calls;
}

// Enough calls for 200 MB of traffic (a few milliseconds), at least two.
int calls_for(double bytes) { return static_cast<int>(std::clamp(2e8 / bytes, 2.0, 1000.0)); }

void compare(const Kernel& k, std::size_t size, int reps, double gap) {
  const int calls = calls_for(k.bytes);
  time_batch(k.ulibc, calls, gap);  // warm-up: caches, pages, both thread pools
  time_batch(k.openblas, calls, gap);
  std::vector<double> ulibc_s, openblas_s;
  for (int r = 0; r < reps; ++r) {
    const bool ulibc_first = r % 2 == 0;
    const double first = time_batch(ulibc_first ? k.ulibc : k.openblas, calls, gap);
    const double second = time_batch(ulibc_first ? k.openblas : k.ulibc, calls, gap);
    ulibc_s.push_back(ulibc_first ? first : second);
    openblas_s.push_back(ulibc_first ? second : first);
  }
  // The ratio of each repetition's pair, then their median: a pair ran
  // back to back, so load that comes and goes on a shared machine cancels.
  std::vector<double> ratios;
  for (int r = 0; r < reps; ++r) ratios.push_back(openblas_s[r] / ulibc_s[r]);
  const double u = median(ulibc_s), o = median(openblas_s);
  std::printf("%-8s %9zu %6d  %8.2f %8.2f   %8.2f %8.2f   %6.3f\n", k.name.c_str(), size, calls, k.flops / u * 1e-9,
              k.bytes / u * 1e-9, k.flops / o * 1e-9, k.bytes / o * 1e-9, median(ratios));
}

CBLAS_TRANSPOSE cblas_trans(Trans t) {
  return t == Trans::none ? CblasNoTrans : t == Trans::trans ? CblasTrans : CblasConjTrans;
}

// Pairs of doubles: NodeArray's storage for complex numbers (see zblas_bench.cpp).
struct Parts {
  double re, im;
};

void run_size(const ulibc::Topology& topo, const ulibc::Mapping& map, std::size_t n, const Options& o) {
  const std::size_t cols = o.cols;
  using ulibc::harness::saturating_mul;
  ulibc::harness::require_memory(saturating_mul(saturating_mul(n, cols + 2), sizeof(Complex)),
                                 "a " + std::to_string(n) + " x " + std::to_string(cols) + " matrix and two vectors");
  const ulibc::NodeArray<Parts> u_parts(topo, map, n), v_parts(topo, map, n);
  Complex* u = reinterpret_cast<Complex*>(u_parts.data());
  Complex* v = reinterpret_cast<Complex*>(v_parts.data());
  const Team team(u_parts.partition(), map.size());
  const ulibc::NumaBuffer a_pages = ulibc::allocate_parts(topo, {{.bytes = n * cols * sizeof(Complex), .node = -1}});
  Complex* a = static_cast<Complex*>(a_pages.data());
  std::vector<Complex> s(cols, Complex(0.25, 0.5));
  // First touch by each row's thread, values of modest size.
#pragma omp parallel num_threads(map.size())
  {
    const ulibc::Range r = team.range(omp_get_thread_num());
    for (std::size_t i = r.begin; i < r.end; ++i) {
      u[i] = {std::sin(0.1 * i), std::cos(0.3 * i)};
      v[i] = {std::cos(0.2 * i), std::sin(0.7 * i)};
      for (std::size_t j = 0; j < cols; ++j) a[j * n + i] = {std::sin(0.5 * i + j), std::cos(0.9 * i - j)};
    }
  }

  const int m = static_cast<int>(n), nc = static_cast<int>(cols);
  const double dn = static_cast<double>(n), mn = dn * static_cast<double>(cols);
  Complex sink;
  double norm_sink = 0;
  std::vector<Kernel> kernels = {
      {"zdotc", 8 * dn, 32 * dn, [&] { sink = ulibc::zblas::zdotc(team, u, v); },
       [&] { cblas_zdotc_sub(m, u, 1, v, 1, &sink); }},
      {"zaxpy", 8 * dn, 48 * dn, [&] { ulibc::zblas::zaxpy(team, kAlpha, u, v); },
       [&] { cblas_zaxpy(m, &kAlpha, u, 1, v, 1); }},
      {"dznrm2", 4 * dn, 16 * dn, [&] { norm_sink = ulibc::zblas::dznrm2(team, u); },
       [&] { norm_sink = cblas_dznrm2(m, u, 1); }},
  };
  for (Trans t : {Trans::none, Trans::trans, Trans::conj_trans}) {
    const bool none = t == Trans::none;
    Complex* x = none ? s.data() : u;
    Complex* y = none ? v : s.data();
    const char* name = none ? "zgemv_n" : t == Trans::trans ? "zgemv_t" : "zgemv_c";
    kernels.push_back({name, 8 * mn, 16 * mn + (none ? 16.0 * nc + 32 * dn : 16 * dn + 32.0 * nc),
                       [=, &team] { ulibc::zblas::zgemv(team, t, cols, kAlpha, a, n, x, kBeta, y); },
                       [=] { cblas_zgemv(CblasColMajor, cblas_trans(t), m, nc, &kAlpha, a, m, x, 1, &kBeta, y, 1); }});
  }
  for (const Kernel& k : kernels)
    if (o.only.empty() || std::find(o.only.begin(), o.only.end(), k.name) != o.only.end()) compare(k, n, o.reps, o.gap);
  if (std::isnan(norm_sink) || std::isnan(sink.real())) std::printf("(a result was NaN)\n");
}

}  // namespace

int main(int argc, char** argv) try {
  const Options o = parse(argc, argv);
  std::printf("#");
  for (int i = 0; i < argc; ++i) std::printf(" %s", argv[i]);
  std::printf(
      "\n# ULIBC zblas (OpenMP team of %d bound by scatter, node-placed operands) against\n"
      "# %s (core %s, openblas_set_num_threads(%d)); %d alternating batches each, medians.\n"
      "# ratio = ULIBC speed / OpenBLAS speed, median of the pairs' ratios (above 1: ULIBC faster);\n"
      "# zgemv with %zu columns, alpha = (0.75, -0.5), beta = (0.5, 0.25).\n",
      o.threads, openblas_get_config(), openblas_get_corename(), o.threads, o.reps, o.cols);
  const auto topo = ulibc::Topology::load("", ulibc::Detail::placement);
  const auto map = ulibc::Mapping::build(topo, ulibc::Policy(ulibc::PolicyKind::scatter), o.threads);
  const ulibc::ScopedOpenMPTeam team(map);
  const ulibc::TeamBinding& binding = team.binding();
  std::printf("# team %s:", binding.bound ? "bound" : ("not bound (" + binding.reason + ")").c_str());
  for (int cpu : binding.cpus) std::printf(" %d", cpu);
  std::printf("\n");
  openblas_set_num_threads(o.threads);
  std::printf("%-8s %9s %6s  %8s %8s   %8s %8s   %6s\n", "kernel", "size", "calls", "ULIBC", "GB/s", "OpenBLAS", "GB/s",
              "ratio");
  std::printf("%-8s %9s %6s  %8s %8s   %8s %8s   %6s\n", "", "", "", "GFLOP/s", "", "GFLOP/s", "", "");
  for (std::size_t n : o.sizes) run_size(topo, map, n, o);
} catch (const ulibc::Error& e) {
  std::fprintf(stderr, "%s\n", e.what());
  return e.kind() == ulibc::ErrorKind::input ? 2 : 1;
}
