// harness/build_info.hpp — how the kernels were built, for the benchmark record:
// a number means little without the compiler and flags that produced it.
#pragma once
#include <string>

namespace ulibc::harness {

struct BuildInfo {
  std::string version;     // ULIBC's
  std::string compiler;    // "GNU 12.2.0"
  std::string build_type;  // "RelWithDebInfo"
  std::string flags;       // every flag the kernels were compiled with
  int openmp = 0;          // _OPENMP: the OpenMP version as yyyymm
};

BuildInfo build_info();

}  // namespace ulibc::harness
