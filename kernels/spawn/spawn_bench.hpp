// spawn/spawn_bench.hpp — `ulibc bench spawn`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::spawn {

// Options --fib, --cutoff, --linear, --reps, --scheduler; one result per scheduler.
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::spawn
