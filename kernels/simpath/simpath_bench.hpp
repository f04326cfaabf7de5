// simpath/simpath_bench.hpp — `ulibc bench simpath`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::simpath {

std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "Simpath: exact s-t path counts by ZDD, sequential and edge-based parallel (EBA), in seconds";

}  // namespace ulibc::simpath
