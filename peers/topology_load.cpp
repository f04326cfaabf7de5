// peers/topology_load.cpp — how long one topology load takes: ULIBC against hwloc.
//
// For each machine (the live one, then every --fsroot snapshot) both loaders
// run in the same process, interleaved: repetition r times ulibc then hwloc,
// r+1 hwloc then ulibc, so drift (frequency, page cache, other load) falls on
// both alike. One load is everything a caller pays for a fresh topology:
//   ulibc  Topology::load(root, detail) and its destruction (--detail: full,
//          the default, or placement: no caches or huge page counts)
//   hwloc  hwloc_topology_init + hwloc_topology_load + hwloc_topology_destroy
//          (default flags and filters: CPUs, NUMA nodes, caches; no I/O;
//          --hwloc-no-caches filters the caches out, like --detail placement)
// hwloc reads HWLOC_FSROOT when it loads, so the variable is set (or unset
// for the live machine) before the repetitions, outside the timed region.
// hwloc loads its plugins (libhwloc-plugins: PCI, OpenCL, GL, XML) when the
// first topology is created and unloads them when the last is destroyed, so
// a lone init/load/destroy pays for dlopen-ing them every time (2.4 ms
// instead of 1 ms on the machine docs/PERFORMANCE.md names). A program keeps
// its topology, so one extra topology is held for the whole run: the plugins
// stay loaded, as they would, and the timed loads are hwloc's best case;
// --hwloc-reload-plugins times the lone cycle instead.
//
// usage: ulibc_peer_topology_load [--reps N] [--warmup N] [--fsroot DIR]... [--no-live]
//                                  [--detail full|placement] [--hwloc-no-caches] [--hwloc-reload-plugins]
#include <hwloc.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "peer_args.hpp"
#include "ulibc.hpp"

namespace {

using Clock = std::chrono::steady_clock;

ulibc::Detail g_detail = ulibc::Detail::full;
bool g_hwloc_caches = true;
bool g_hwloc_resident = true;  // one topology held all along: plugins loaded once

struct Target {
  std::string label;
  std::string root;  // "" for the live machine
};

struct Stats {
  double median_us = 0;
  double min_us = 0;
};

Stats stats_of(std::vector<double> us) {
  std::sort(us.begin(), us.end());
  const std::size_t n = us.size();
  return {n % 2 ? us[n / 2] : (us[n / 2 - 1] + us[n / 2]) / 2, us.front()};
}

// Keeps a computed value alive so the optimiser cannot drop the work.
template <class T>
void keep(const T& value) {
  asm volatile("" : : "g"(&value) : "memory");
}

struct Counts {
  int pus = 0;
  int nodes = 0;
};

double time_ulibc(const std::string& root, Counts* counts) {
  const auto t0 = Clock::now();
  {
    const auto topo = ulibc::Topology::load(root.empty() ? "/" : root, g_detail);
    keep(topo);
    if (counts) *counts = {topo.online().count(), static_cast<int>(topo.nodes().size())};
  }
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

double time_hwloc(Counts* counts) {
  const auto t0 = Clock::now();
  hwloc_topology_t topo;
  if (hwloc_topology_init(&topo) != 0 ||
      (!g_hwloc_caches && hwloc_topology_set_cache_types_filter(topo, HWLOC_TYPE_FILTER_KEEP_NONE) != 0) ||
      hwloc_topology_load(topo) != 0) {
    std::fprintf(stderr, "hwloc: topology load failed\n");
    std::exit(1);
  }
  keep(topo);
  if (counts)
    *counts = {hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_PU), hwloc_get_nbobjs_by_type(topo, HWLOC_OBJ_NUMANODE)};
  hwloc_topology_destroy(topo);
  return std::chrono::duration<double, std::micro>(Clock::now() - t0).count();
}

[[noreturn]] void usage(const char* argv0, int rc) {
  std::fprintf(rc ? stderr : stdout,
               "usage: %s [--reps N] [--warmup N] [--fsroot DIR]... [--no-live] [--detail D] [--hwloc-no-caches]\n"
               "       [--hwloc-reload-plugins]\n"
               "  Times one topology load of ULIBC and of hwloc, interleaved in one process.\n"
               "  --reps N      timed loads of each library per machine (default 200)\n"
               "  --warmup N    untimed loads of each first (default 5)\n"
               "  --fsroot DIR  also time this sysfs/procfs snapshot (repeatable)\n"
               "  --no-live     skip the live machine\n"
               "  --detail D    what ulibc reads: full (default) or placement (no caches, huge pages)\n"
               "  --hwloc-no-caches  filter hwloc's caches out\n"
               "  --hwloc-reload-plugins  hold no topology between loads: each pays for loading hwloc's plugins\n",
               argv0);
  std::exit(rc);
}

// One target: both loads counted once, warmed up, then timed in turns; one line of the table. False when ULIBC
// cannot load it (said on stderr).
bool measure(const Target& t, int reps, int warmup) {
  if (t.root.empty())
    unsetenv("HWLOC_FSROOT");
  else
    setenv("HWLOC_FSROOT", t.root.c_str(), 1);

  Counts uc, hc;
  try {
    time_ulibc(t.root, &uc);
  } catch (const ulibc::Error& e) {
    std::fprintf(stderr, "%s: ulibc: %s\n", t.label.c_str(), e.what());
    return false;
  }
  time_hwloc(&hc);
  for (int i = 0; i < warmup; ++i) {
    time_ulibc(t.root, nullptr);
    time_hwloc(nullptr);
  }
  std::vector<double> u, h;
  u.reserve(static_cast<std::size_t>(reps));
  h.reserve(static_cast<std::size_t>(reps));
  for (int r = 0; r < reps; ++r) {
    if (r % 2 == 0) {
      u.push_back(time_ulibc(t.root, nullptr));
      h.push_back(time_hwloc(nullptr));
    } else {
      h.push_back(time_hwloc(nullptr));
      u.push_back(time_ulibc(t.root, nullptr));
    }
  }
  const Stats us = stats_of(u), hs = stats_of(h);
  const std::string pus = std::to_string(uc.pus) + "/" + std::to_string(hc.pus);
  std::printf("%-28s %6d %9s %14.1f %14.1f %14.1f %14.1f %7.1fx %7.1fx\n", t.label.c_str(), reps, pus.c_str(),
              us.median_us, us.min_us, hs.median_us, hs.min_us, hs.median_us / us.median_us, hs.min_us / us.min_us);
  if (uc.nodes != hc.nodes) std::printf("  note: ulibc sees %d NUMA nodes, hwloc %d\n", uc.nodes, hc.nodes);
  std::fflush(stdout);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  int reps = 200;
  int warmup = 5;
  bool live = true;
  std::vector<Target> targets;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    const bool has_value = i + 1 < argc;
    if (arg == "--help" || arg == "-h") usage(argv[0], 0);
    if (arg == "--reps" && has_value)
      reps = static_cast<int>(ulibc::peers::parse_count(argv[++i], "--reps", 1, 1000000));
    else if (arg == "--warmup" && has_value)
      warmup = static_cast<int>(ulibc::peers::parse_count(argv[++i], "--warmup", 0, 1000000));
    else if (arg == "--fsroot" && has_value) {
      std::string root = argv[++i];
      std::string label = root;
      while (label.size() > 1 && label.back() == '/') label.pop_back();
      if (const auto slash = label.find_last_of('/'); slash != std::string::npos && label.size() > 1)
        label = label.substr(slash + 1);
      targets.push_back({"snapshot " + label, root});
    } else if (arg == "--no-live")
      live = false;
    else if (arg == "--detail" && has_value) {
      const std::string d = argv[++i];
      if (d != "full" && d != "placement") usage(argv[0], 2);
      g_detail = d == "full" ? ulibc::Detail::full : ulibc::Detail::placement;
    } else if (arg == "--hwloc-no-caches")
      g_hwloc_caches = false;
    else if (arg == "--hwloc-reload-plugins")
      g_hwloc_resident = false;
    else
      usage(argv[0], 2);
  }
  if (live) targets.insert(targets.begin(), {"live machine", ""});
  hwloc_topology_t resident = nullptr;
  if (g_hwloc_resident && hwloc_topology_init(&resident) != 0) {
    std::fprintf(stderr, "hwloc: topology init failed\n");
    return 1;
  }
  if (targets.empty()) usage(argv[0], 2);

  std::printf("%-28s %6s %9s %14s %14s %14s %14s %8s %8s\n", "machine", "reps", "PUs u/h", "ulibc median", "ulibc min",
              "hwloc median", "hwloc min", "ratio", "ratio");
  std::printf("%-28s %6s %9s %14s %14s %14s %14s %8s %8s\n", "", "", "", "(us)", "(us)", "(us)", "(us)", "median",
              "min");
  std::fflush(stdout);
  for (const auto& t : targets)
    if (!measure(t, reps, warmup)) return 1;
  std::printf("PUs u/h: online processors seen by ulibc / hwloc.  ratio: hwloc time / ulibc time.\n");
  std::printf("hwloc's plugins: %s\n",
              g_hwloc_resident ? "loaded once (a topology held all along)" : "loaded and unloaded by every timed load");
  if (resident) hwloc_topology_destroy(resident);
  return 0;
}
