// harness/build_info.cpp — how the kernels were built, for the benchmark record.
#include "harness/build_info.hpp"

namespace ulibc::harness {

BuildInfo build_info() {
  return {.version = ULIBC_VERSION,
          .compiler = ULIBC_KERNEL_COMPILER,
          .build_type = ULIBC_KERNEL_BUILD_TYPE,
          .flags = ULIBC_KERNEL_FLAGS,
          .openmp = _OPENMP};
}

}  // namespace ulibc::harness
