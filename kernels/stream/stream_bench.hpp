// stream/stream_bench.hpp — `ulibc bench stream`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::stream {

// Options --size, --reps, --arrays; one result per variant (malloc under
// policy none, else ordinary and node arrays).
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::stream
