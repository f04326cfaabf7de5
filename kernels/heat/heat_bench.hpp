// heat/heat_bench.hpp — `ulibc bench heat`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::heat {

// Options --rows, --cols, --steps, --grain, --reps, --scheduler; one result per scheduler.
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::heat
