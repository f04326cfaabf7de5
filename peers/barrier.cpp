// peers/barrier.cpp — one barrier episode: ULIBC's NumaBarrier against GCC's OpenMP barrier.
//
// EPCC style: inside one OpenMP parallel region of T threads, thread 0 times
// K consecutive `#pragma omp barrier`, then K consecutive
// NumaBarrier::arrive_and_wait(omp_get_thread_num()), and divides by K. The
// two kinds alternate in order (repetition r: OpenMP first when r is even),
// after one untimed warm-up round of each, so drift falls on both alike.
// Reported: the median and minimum time per episode over the repetitions
// and the ratio ULIBC / OpenMP of the medians (below 1: ULIBC is faster).
//
// The NumaBarrier comes from the live topology's scatter mapping of T
// threads (its node indices are the groups) or, with --groups G, from G
// synthetic groups (thread t in group t mod G; 1 is a flat barrier, T one
// thread per group), which exercises the second level on a one-node machine.
// Threads are bound (or not) by the OpenMP runtime: set OMP_PROC_BIND and
// OMP_PLACES as wanted.
//
// usage: ulibc_peer_barrier [--threads T] [--episodes K] [--reps R] [--groups G]
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>
#include <vector>

#include "peer_args.hpp"
#include "ulibc.hpp"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int threads = 2;
  int episodes = 20000;
  int reps = 21;
  int groups = 0;  // 0: the mapping's nodes
};

struct Stats {
  double median_ns = 0;
  double min_ns = 0;
};

Stats stats_of(std::vector<double> ns) {
  std::sort(ns.begin(), ns.end());
  const std::size_t n = ns.size();
  return {n % 2 ? ns[n / 2] : (ns[n / 2 - 1] + ns[n / 2]) / 2, ns.front()};
}

constexpr long long kMaxCount = 100000000;

[[noreturn]] void usage(const char* argv0, int rc) {
  std::fprintf(rc ? stderr : stdout,
               "usage: %s [--threads T] [--episodes K] [--reps R] [--groups G]\n"
               "  Times one barrier episode of ULIBC's NumaBarrier and of `#pragma omp barrier`.\n"
               "  --threads T   OpenMP threads (default 2)\n"
               "  --episodes K  consecutive barriers per timed block (default 20000)\n"
               "  --reps R      timed blocks of each kind, interleaved (default 21)\n"
               "  --groups G    G synthetic groups, thread t in group t mod G (default: the nodes of\n"
               "                the live topology's scatter mapping)\n",
               argv0);
  std::exit(rc);
}

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") usage(argv[0], 0);
    if (arg == "--threads" && has_value)
      o.threads = static_cast<int>(ulibc::peers::parse_count(argv[++i], "--threads", 1, kMaxCount));
    else if (arg == "--episodes" && has_value)
      o.episodes = static_cast<int>(ulibc::peers::parse_count(argv[++i], "--episodes", 1, kMaxCount));
    else if (arg == "--reps" && has_value)
      o.reps = static_cast<int>(ulibc::peers::parse_count(argv[++i], "--reps", 1, kMaxCount));
    else if (arg == "--groups" && has_value)
      o.groups = static_cast<int>(ulibc::peers::parse_count(argv[++i], "--groups", 1, kMaxCount));
    else
      usage(argv[0], 2);
  }
  if (o.groups > o.threads) {
    std::fprintf(stderr, "--groups %d: at most one group per thread (--threads %d)\n", o.groups, o.threads);
    std::exit(2);
  }
  return o;
}

std::vector<int> group_vector(const Options& o) {
  std::vector<int> out;
  if (o.groups > 0) {
    for (int t = 0; t < o.threads; ++t) out.push_back(t % o.groups);
    return out;
  }
  const auto topo = ulibc::Topology::load("", ulibc::Detail::placement);
  const auto map = ulibc::Mapping::build(topo, ulibc::Policy(ulibc::PolicyKind::scatter), o.threads);
  for (const auto& p : map.threads()) out.push_back(p.node_index);
  return out;
}

const char* env_or(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v ? v : fallback;
}

// Orphaned: binds to the enclosing parallel region.
void omp_barrier() {
#pragma omp barrier
}

// Inside the parallel region; every thread calls it, thread 0 returns the
// time per episode.
template <class Barrier>
double time_block(int episodes, Barrier barrier) {
#pragma omp barrier
  const auto t0 = Clock::now();
  for (int e = 0; e < episodes; ++e) barrier();
  return std::chrono::duration<double, std::nano>(Clock::now() - t0).count() / episodes;
}

}  // namespace

int main(int argc, char** argv) {
  const Options o = parse(argc, argv);
  const std::vector<int> groups = group_vector(o);
  ulibc::NumaBarrier numa(groups);
  std::vector<double> omp_ns, ulibc_ns;
  int team = 0;

  omp_set_dynamic(0);
#pragma omp parallel num_threads(o.threads)
  {
    const int t = omp_get_thread_num();
    const auto omp_block = [&] { return time_block(o.episodes, omp_barrier); };
    const auto ulibc_block = [&] { return time_block(o.episodes, [&] { numa.arrive_and_wait(t); }); };
    if (t == 0) team = omp_get_num_threads();
    omp_block();  // warm-up
    ulibc_block();
    for (int r = 0; r < o.reps; ++r) {
      const bool omp_first = r % 2 == 0;
      const double first = omp_first ? omp_block() : ulibc_block();
      const double second = omp_first ? ulibc_block() : omp_block();
      if (t == 0) {
        omp_ns.push_back(omp_first ? first : second);
        ulibc_ns.push_back(omp_first ? second : first);
      }
    }
  }
  if (team != o.threads) {
    std::fprintf(stderr, "asked for %d threads, the OpenMP runtime gave %d\n", o.threads, team);
    return 1;
  }

  const int group_count = *std::max_element(groups.begin(), groups.end()) + 1;
  std::printf("threads %d, groups %d, %d episodes x %d reps, OMP_PROC_BIND=%s OMP_PLACES=%s\n", o.threads, group_count,
              o.episodes, o.reps, env_or("OMP_PROC_BIND", "(unset)"), env_or("OMP_PLACES", "(unset)"));
  const Stats om = stats_of(omp_ns), ul = stats_of(ulibc_ns);
  std::printf("%-22s %12s %12s\n", "barrier", "median (ns)", "min (ns)");
  std::printf("%-22s %12.1f %12.1f\n", "omp barrier", om.median_ns, om.min_ns);
  std::printf("%-22s %12.1f %12.1f\n", "ulibc NumaBarrier", ul.median_ns, ul.min_ns);
  std::printf("ratio ulibc / omp (median) %.2f\n", ul.median_ns / om.median_ns);
  return 0;
}
