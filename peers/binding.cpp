// binding.cpp — Binding cost per call: ulibc::bind_current_thread, the C API's
// ulibc_set_affinity (which also checks the processor against the mapping's
// topology) and a bare sched_setaffinity with a stack cpu_set_t, the way a
// hand-written program binds. Two patterns: rebinding to the same processor
// (the call's own cost) and alternating between two processors (each call
// migrates the thread). Repetitions of the three are interleaved so that
// machine noise hits them alike; medians and ratios are printed.
#include <sched.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>
#include <vector>

#include "ulibc.hpp"
#include "ulibc/ulibc.h"

namespace {

using Clock = std::chrono::steady_clock;

struct Options {
  int reps = 31;
  int calls = 20000;
};

Options parse(int argc, char** argv) {
  Options o;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    auto value = [&]() -> int {
      if (i + 1 >= argc) throw ulibc::input_error(arg + " needs a value");
      const int v = std::atoi(argv[++i]);
      if (v <= 0) throw ulibc::input_error(arg + " must be a positive integer");
      return v;
    };
    if (arg == "--reps")
      o.reps = value();
    else if (arg == "--calls")
      o.calls = value();
    else
      throw ulibc::input_error("unknown option " + arg + " (accepted: --reps N, --calls N)");
  }
  return o;
}

void bare_bind(int proc) {
  cpu_set_t set;
  CPU_ZERO(&set);
  CPU_SET(proc, &set);
  if (sched_setaffinity(0, sizeof set, &set) != 0) std::abort();
}

// Nanoseconds per call of bind(procs[i % 2]).
double ns_per_call(const std::function<void(int)>& bind, const int (&procs)[2], int calls) {
  const auto start = Clock::now();
  for (int i = 0; i < calls; ++i) bind(procs[i & 1]);
  return std::chrono::duration<double, std::nano>(Clock::now() - start).count() / calls;
}

double median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

void measure(const char* pattern, const int (&procs)[2], const Options& o) {
  const std::vector<std::pair<const char*, std::function<void(int)>>> ways = {
      {"sched_setaffinity", bare_bind},
      {"ulibc::bind_current_thread", [](int p) { ulibc::bind_current_thread(p); }},
      {"ulibc_set_affinity (C)",
       [](int p) {
         if (ulibc_set_affinity(p) != 0) std::abort();
       }},
  };
  std::vector<std::vector<double>> samples(ways.size());
  for (int r = 0; r < o.reps; ++r)
    for (std::size_t w = 0; w < ways.size(); ++w) samples[w].push_back(ns_per_call(ways[w].second, procs, o.calls));
  const double bare = median(samples[0]);
  std::printf("%s (processors %d and %d), %d reps x %d calls, median ns per call:\n", pattern, procs[0], procs[1],
              o.reps, o.calls);
  for (std::size_t w = 0; w < ways.size(); ++w) {
    const double m = median(samples[w]);
    std::printf("  %-28s %8.1f ns   %.3fx sched_setaffinity\n", ways[w].first, m, m / bare);
  }
  ulibc::restore_affinity();
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const Options o = parse(argc, argv);
    if (ulibc_init() != 0) throw ulibc::input_error(ulibc_last_error());
    const ulibc::CpuSet usable = ulibc::Topology::load("/", ulibc::Detail::placement).usable();
    measure("same processor", {usable.first(), usable.first()}, o);
    // A migration costs tens of microseconds: fewer calls keep the run short.
    if (usable.count() > 1)
      measure("alternating", {usable.first(), usable.last()}, {o.reps, std::max(1, o.calls / 20)});
    return 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "ulibc_peer_binding: error: %s\n", e.what());
    return 2;
  }
}
