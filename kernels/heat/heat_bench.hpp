// heat/heat_bench.hpp — `ulibc bench heat`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::heat {

// Options --rows, --cols, --steps, --grain, --reps, --scheduler; one result per scheduler.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "2-D heat equation by explicit steps on the task runtime: ms per step and steals per step";

}  // namespace ulibc::heat
