// ulibc/openmp_environment.hpp — the environment under which an unmodified OpenMP program places its
// threads as a mapping does, the way one would by hand with OMP_PLACES and OMP_PROC_BIND (`ulibc run`).
#pragma once
#include <string>
#include <utility>
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc {

// Variables to set, in this order, then variables to remove.
struct OpenMPEnvironment {
  std::vector<std::pair<std::string, std::string>> set;
  std::vector<std::string> unset;
};

// OMP_NUM_THREADS, and one place per thread in thread order ("{0},{8},{16}") with OMP_PROC_BIND=close,
// so that thread i runs on place i; under policy none OMP_PROC_BIND=false and no places. ULIBC_POLICY and
// ULIBC_NUM_THREADS let a ULIBC-aware program build the same mapping. The other binding variables
// (GOMP_CPU_AFFINITY, KMP_AFFINITY, and OMP_PLACES under none) are removed: they would fight the places.
OpenMPEnvironment openmp_environment(const Mapping& map);

}  // namespace ulibc
