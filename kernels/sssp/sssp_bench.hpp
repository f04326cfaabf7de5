// sssp/sssp_bench.hpp — `ulibc bench sssp`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::harness {

std::unique_ptr<BenchKernel> make_sssp_bench();

}  // namespace ulibc::harness
