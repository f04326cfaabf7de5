// eigen/eigen_bench.hpp — `ulibc bench eigen`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::eigen {

// Options --generate (a matrix with a known spectrum) or --matrix, the solver's (--nev, --target or --which, --tol,
// --jmin, --jmax, --harmonic, --correction-steps, --precond, --max-iterations) and --reps; per run the JDQR solve's
// time, its products with A and expansions, and where the time went (SpMV, the zblas orthogonalisations, the
// correction equation, the small dense problems), every answer checked by the verifier and, for a generated
// matrix, against its spectrum.
std::unique_ptr<harness::BenchKernel> make_bench();

// What it measures, in one line: `ulibc bench --help` lists it, without linking the kernel.
inline constexpr const char* kBenchSummary =
    "Jacobi–Davidson (JDQR) for a few eigenpairs of a sparse complex matrix: time and where it went";

}  // namespace ulibc::eigen
