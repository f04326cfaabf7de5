// binding/openmp_environment.cpp — a mapping as the environment of an OpenMP program.
#include "ulibc/openmp_environment.hpp"

#include <algorithm>

#include "config/environment.hpp"

namespace ulibc {

namespace {

// "{0},{8},{16}": one place per thread, in thread order.
std::string places_of(const Mapping& map) {
  std::string places;
  for (const Placement& p : map.threads()) places += (places.empty() ? "{" : ",{") + std::to_string(p.proc) + "}";
  return places;
}

}  // namespace

OpenMPEnvironment openmp_environment(const Mapping& map) {
  OpenMPEnvironment env;
  const std::string threads = std::to_string(map.size());
  env.set.emplace_back(config::kOpenMPNumThreads, threads);
  if (map.policy().kind() == PolicyKind::none) {
    env.set.emplace_back("OMP_PROC_BIND", "false");
  } else {
    // With as many places as threads, OMP_PROC_BIND=close puts thread i on place i.
    env.set.emplace_back("OMP_PLACES", places_of(map));
    env.set.emplace_back("OMP_PROC_BIND", "close");
  }
  // A ULIBC-aware program builds the same mapping (and, seeing OMP_PLACES,
  // leaves the binding to its runtime, which already follows that mapping).
  env.set.emplace_back(config::kPolicy, map.policy().name());
  env.set.emplace_back(config::kNumThreads, threads);
  // Older binding variables would fight the places: GCC's GOMP_CPU_AFFINITY
  // applies when OMP_PLACES is unset, Intel's KMP_AFFINITY takes precedence.
  for (const std::string_view name : config::kOpenMPBindingVariables)
    if (std::none_of(env.set.begin(), env.set.end(), [&](const auto& kv) { return kv.first == name; }))
      env.unset.emplace_back(name);
  return env;
}

}  // namespace ulibc
