// binding/openmp_env.hpp — the environment variables by which an OpenMP
// runtime binds its threads itself.
#pragma once
#include <string>
#include <vector>

namespace ulibc::binding {

// "NAME=value" for each of OMP_PLACES, OMP_PROC_BIND, GOMP_CPU_AFFINITY and
// KMP_AFFINITY that is set to something that binds (OMP_PROC_BIND=false and
// KMP_AFFINITY=none|disabled switch binding off, so they are not listed).
std::vector<std::string> openmp_binding_variables();

}  // namespace ulibc::binding
