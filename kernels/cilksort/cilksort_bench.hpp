// cilksort/cilksort_bench.hpp — `ulibc bench cilksort`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::cilksort {

// Options --size, --cutoff, --merge-cutoff, --reps, --seed, --scheduler; one result per scheduler.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "Cilksort (Cilk-5's parallel merge sort) of random 64-bit keys on the task runtime";

}  // namespace ulibc::cilksort
