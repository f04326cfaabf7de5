// spawn/spawn_bench.hpp — `ulibc bench spawn`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::spawn {

// Options --fib, --cutoff, --linear, --reps, --scheduler; one result per scheduler.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "task runtime overhead: ns per task of fib (with and without a cutoff) and of a linear spawn tree";

}  // namespace ulibc::spawn
