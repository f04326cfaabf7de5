// epcc/epcc_bench.hpp — `ulibc bench epcc`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::epcc {

// The synchronisation and scheduling overheads on the bound team.
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::epcc
