// sdp/sdp_bench.hpp — `ulibc bench sdp`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::sdp {

// Options --problem (an SDPA file or random:M:SIZES), --elements, --placement and --reps; per run and placement of
// X⁻¹ and Y (a variant each) the time of ELEMENTS, of CHOLESKY and of the whole solve, every solve checked by the
// verifier (the ULIBC paper's Figs. 15–16 are ELEMENTS under each policy and thread count).
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "Semidefinite programming (SDPA's interior-point method): ELEMENTS, CHOLESKY and the whole solve";

}  // namespace ulibc::sdp
