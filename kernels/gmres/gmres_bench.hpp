// gmres/gmres_bench.hpp — `ulibc bench gmres`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::gmres {

// Options --matrix | --generate, --tol, --reps and the solver's knobs; per run the time to solution (tuning
// included) and the sparse product alone (GFLOP/s, GB/s), on one rank whose team the harness places.
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::gmres
