// bfs/bfs_bench.hpp — `ulibc bench bfs`.
//
// The Graph500 procedure on a Kronecker graph (--scale, --edgefactor, --seed)
// or an edge file (--file), one result per kernel variant (--variants do,
// numa, top-down, bottom-up), headline GTEPS.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::bfs {

std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "Graph500 BFS: direction-optimizing, plain and NUMA-partitioned, validated, in TEPS";

}  // namespace ulibc::bfs
