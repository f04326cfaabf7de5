// zblas/zblas_bench.hpp — `ulibc bench zblas`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::zblas {

// The four kernels at the paper's sizes (vectors of 256^2, a 256^2 x 4
// matrix), operands placed by the mapping.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "zgemv, zdotc, zaxpy, dznrm2 (double complex): the Jacobi-Davidson kernels of Nishida et al.";

}  // namespace ulibc::zblas
