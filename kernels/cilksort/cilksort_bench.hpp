// cilksort/cilksort_bench.hpp — `ulibc bench cilksort`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::cilksort {

// Options --size, --cutoff, --merge-cutoff, --reps, --seed, --scheduler; one result per scheduler.
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::cilksort
