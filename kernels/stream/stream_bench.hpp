// stream/stream_bench.hpp — `ulibc bench stream`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::stream {

// Options --size, --reps, --arrays; one result per variant (malloc under
// policy none, else ordinary and node arrays).
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "STREAM Copy/Scale/Add/Triad bandwidth on ordinary and node-distributed arrays";

}  // namespace ulibc::stream
