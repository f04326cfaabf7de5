// sssp/sssp_bench.hpp — `ulibc bench sssp`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::sssp {

std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::sssp
