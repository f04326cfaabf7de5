// peers/tasks_peers.cpp — the peers of the task kernels (`ulibc bench spawn`, `ulibc bench cilksort`), run the same
// way on the same input (peers/tasks_vs_peers.py runs them side by side):
//
//   fib N        fib(N) with a task per call, the parent making the other call itself (Cilk's fib), on oneTBB's
//                task_group or OpenMP tasks (libgomp): ns per task, N's 2·F(N+1) − 2 tasks.
//   linear N     one group of N children that each add 1 to a counter: ns per task.
//   sort N       N random 64-bit keys (the same SplitMix64 keys as `ulibc bench cilksort --seed`), sorted by
//                oneTBB's parallel_sort, std::sort(std::execution::par) (libstdc++'s parallel algorithms on
//                oneTBB), or Cilksort on OpenMP tasks (the kernel's own algorithm.hpp, so that only the runtime
//                differs): seconds; every sort checked against std::sort of the same keys.
//
// usage: ulibc_peer_tasks (fib|linear|sort) N --with tbb|omp|stdpar --threads T [--reps R] [--seed S]
//                         [--cutoff C] [--merge-cutoff C]
// oneTBB gets T threads through global_control, OpenMP through num_threads (placement: OMP_PLACES/OMP_PROC_BIND
// as the caller sets them). Output (stdout), one JSON line: {"peer": ..., "mode": ..., "with": ..., "threads": T,
// "n": N, "values": [...], "unit": "ns/task"|"s", "valid": true, "check": "..."}. Exit 2 for bad options.
#include <omp.h>
#include <tbb/global_control.h>
#include <tbb/parallel_sort.h>
#include <tbb/task_group.h>
#include <tbb/version.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <execution>
#include <memory>
#include <string>
#include <vector>

#include "cilksort/algorithm.hpp"
#include "cilksort/cilksort.hpp"
#include "cilksort/verify.hpp"
#include "peer_args.hpp"
#include "spawn/spawn.hpp"
#include "spawn/verify.hpp"

namespace {

using Clock = std::chrono::steady_clock;
double since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

std::uint64_t fib_tbb(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
  tbb::task_group g;
  g.run([&] { a = fib_tbb(n - 1); });
  const std::uint64_t b = fib_tbb(n - 2);
  g.wait();
  return a + b;
}

std::uint64_t fib_omp(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
#pragma omp task shared(a) firstprivate(n)
  a = fib_omp(n - 1);
  const std::uint64_t b = fib_omp(n - 2);
#pragma omp taskwait
  return a + b;
}

std::uint64_t linear_tbb(std::uint64_t n) {
  std::atomic<std::uint64_t> count{0};
  tbb::task_group g;
  for (std::uint64_t k = 0; k < n; ++k) g.run([&] { count.fetch_add(1, std::memory_order_relaxed); });
  g.wait();
  return count.load();
}

std::uint64_t linear_omp(std::uint64_t n) {
  std::atomic<std::uint64_t> count{0};
  for (std::uint64_t k = 0; k < n; ++k) {
#pragma omp task shared(count)
    count.fetch_add(1, std::memory_order_relaxed);
  }
#pragma omp taskwait
  return count.load();
}

// Cilksort's fork on OpenMP tasks: the first half as a task, the second by the caller, then taskwait.
struct OmpFork {
  template <class F, class G>
  void both(F&& f, double, G&& g, double) const {
    auto* first = &f;
#pragma omp task firstprivate(first)
    (*first)();
    g();
#pragma omp taskwait
  }
};

// Runs body on `threads` threads: OpenMP's team with one thread making the root task, or oneTBB's arena.
template <class Body>
auto on_team(const std::string& with, int threads, Body body) {
  decltype(body()) out{};
  if (with == "omp") {
#pragma omp parallel num_threads(threads)
#pragma omp single
    out = body();
  } else {
    out = body();
  }
  return out;
}

void print(const std::string& mode, const std::string& with, int threads, long long n, const std::vector<double>& v,
           const char* unit, bool valid, const std::string& check) {
  std::string values;
  for (double x : v) {
    if (!values.empty()) values += ',';
    values += std::to_string(x);
  }
  std::printf(
      "{\"peer\":\"oneTBB %d.%d / libgomp\",\"mode\":\"%s\",\"with\":\"%s\",\"threads\":%d,\"n\":%lld,"
      "\"values\":[%s],\"unit\":\"%s\",\"valid\":%s,\"check\":\"%s\"}\n",
      TBB_VERSION_MAJOR, TBB_VERSION_MINOR, mode.c_str(), with.c_str(), threads, n, values.c_str(), unit,
      valid ? "true" : "false", check.c_str());
}

[[noreturn]] void usage(const std::string& why) {
  std::fprintf(stderr,
               "%s\nusage: ulibc_peer_tasks (fib|linear|sort) N --with tbb|omp|stdpar --threads T [--reps R] "
               "[--seed S] [--cutoff C] [--merge-cutoff C]\n",
               why.c_str());
  std::exit(2);
}

// Every repetition's figure and the verifier's word on the last one checked.
struct Outcome {
  std::vector<double> values;
  bool valid = true;
  std::string check;
};

// fib or the linear tree, `reps` times on the peer runtime `with`: ns per task.
Outcome time_spawn(const std::string& mode, long long n, const std::string& with, int threads, int reps) {
  Outcome o;
  if (mode == "fib") {
    const double tasks = static_cast<double>(ulibc::spawn::fib_calls(static_cast<int>(n)) - 1);
    for (int r = 0; r < reps && o.valid; ++r) {
      const auto t = Clock::now();
      const std::uint64_t f = on_team(with, threads, [&] { return with == "tbb" ? fib_tbb(n) : fib_omp(n); });
      o.values.push_back(since(t) * 1e9 / tasks);
      const auto c = ulibc::spawn::check_fib(static_cast<int>(n), f);
      o.valid = c.valid;
      o.check = c.message;
    }
    return o;
  }
  const auto count = static_cast<std::uint64_t>(n);
  for (int r = 0; r < reps && o.valid; ++r) {
    const auto t = Clock::now();
    const std::uint64_t got =
        on_team(with, threads, [&] { return with == "tbb" ? linear_tbb(count) : linear_omp(count); });
    o.values.push_back(since(t) * 1e9 / static_cast<double>(n));
    const auto c = ulibc::spawn::check_linear(count, got);
    o.valid = c.valid;
    o.check = c.message;
  }
  return o;
}

// Cilksort's keys sorted `reps` times by `with` (oneTBB's parallel_sort, std::sort(par), or Cilksort on OpenMP
// tasks): seconds per sort.
Outcome time_sort(long long n, const std::string& with, int threads, int reps, std::uint64_t seed,
                  const ulibc::cilksort::Cutoffs& cut) {
  Outcome o;
  const auto size = static_cast<std::size_t>(n);
  std::unique_ptr<std::uint64_t[]> keys(new std::uint64_t[size]), buffer(new std::uint64_t[size]);
  const std::span<std::uint64_t> k(keys.get(), size), b(buffer.get(), size);
  std::vector<std::uint64_t> reference;
  for (int r = 0; r < reps && o.valid; ++r) {
    ulibc::cilksort::fill_random(k, seed);  // outside a task runtime: serially
    if (reference.empty()) reference = ulibc::cilksort::reference_order(k);
    const auto t = Clock::now();
    if (with == "tbb") {
      tbb::parallel_sort(k.begin(), k.end());
    } else if (with == "stdpar") {
      std::sort(std::execution::par, k.begin(), k.end());
    } else {
      on_team(with, threads, [&] {
        ulibc::cilksort::detail::sort(OmpFork{}, k, b, cut.sort, cut.merge);
        return 0;
      });
    }
    o.values.push_back(since(t));
    const auto c = ulibc::cilksort::check_sorted(k, reference);
    o.valid = c.valid;
    o.check = c.message;
  }
  return o;
}

}  // namespace

int main(int argc, char** argv) {
  using ulibc::peers::parse_count;
  if (argc < 3) usage("a mode and N are needed");
  const std::string mode = argv[1];
  if (mode != "fib" && mode != "linear" && mode != "sort") usage("mode \"" + mode + "\": fib, linear or sort");
  const long long n = parse_count(argv[2], "N", mode == "fib" ? 2 : 1, mode == "fib" ? 45 : 2'000'000'000);
  std::string with;
  int threads = 1, reps = 5;
  std::uint64_t seed = 1;
  ulibc::cilksort::Cutoffs cut;
  for (int i = 3; i < argc; i += 2) {
    const std::string opt = argv[i];
    if (i + 1 >= argc) usage(opt + " needs a value");
    const std::string val = argv[i + 1];
    if (opt == "--with") {
      with = val;
    } else if (opt == "--threads") {
      threads = static_cast<int>(parse_count(val, "--threads", 1, 4096));
    } else if (opt == "--reps") {
      reps = static_cast<int>(parse_count(val, "--reps", 1, 1000));
    } else if (opt == "--seed") {
      seed = static_cast<std::uint64_t>(parse_count(val, "--seed", 0, 1LL << 62));
    } else if (opt == "--cutoff") {
      cut.sort = static_cast<std::size_t>(parse_count(val, "--cutoff", 4, 1LL << 40));
    } else if (opt == "--merge-cutoff") {
      cut.merge = static_cast<std::size_t>(parse_count(val, "--merge-cutoff", 4, 1LL << 40));
    } else {
      usage("unknown option " + opt);
    }
  }
  const bool sorting = mode == "sort";
  if (!(with == "tbb" || with == "omp" || (sorting && with == "stdpar")))
    usage("--with \"" + with + "\": tbb or omp" + (sorting ? ", or stdpar" : ""));
  tbb::global_control limit(tbb::global_control::max_allowed_parallelism, static_cast<std::size_t>(threads));

  const Outcome o = sorting ? time_sort(n, with, threads, reps, seed, cut) : time_spawn(mode, n, with, threads, reps);
  print(mode, with, threads, n, o.values, sorting ? "s" : "ns/task", o.valid, o.check);
  return o.valid ? 0 : 1;
}
