// sssp/sssp_bench.hpp — `ulibc bench sssp`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::sssp {

std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "Shortest paths on road graphs: many-query Dijkstra throughput, Δ-stepping, DIMACS checksums";

}  // namespace ulibc::sssp
