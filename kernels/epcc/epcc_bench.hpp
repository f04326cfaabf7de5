// epcc/epcc_bench.hpp — `ulibc bench epcc`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::epcc {

// The synchronisation and scheduling overheads on the bound team.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "EPCC OpenMP overheads: synchronisation (with ULIBC's NUMA barrier) and loop scheduling";

}  // namespace ulibc::epcc
