// simpath/simpath_bench.hpp — `ulibc bench simpath`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::harness {

std::unique_ptr<BenchKernel> make_simpath_bench();

}  // namespace ulibc::harness
