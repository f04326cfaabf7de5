// simpath/simpath_bench.hpp — `ulibc bench simpath`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::simpath {

std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::simpath
