// gmres/gmres_bench.hpp — `ulibc bench gmres`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::gmres {

// Options --matrix | --generate, --tol, --reps and the solver's knobs; per run the time to solution (tuning
// included) and the sparse product alone (GFLOP/s, GB/s), on one rank whose team the harness places.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "GMRES(m) time to solution, tuning included, and its sparse product's GFLOP/s (one MPI rank)";

}  // namespace ulibc::gmres
