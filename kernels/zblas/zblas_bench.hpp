// zblas/zblas_bench.hpp — `ulibc bench zblas`.
#pragma once
#include <memory>

#include "harness/bench_kernel.hpp"

namespace ulibc::zblas {

// The four kernels at the paper's sizes (vectors of 256^2, a 256^2 x 4
// matrix), operands placed by the mapping.
std::unique_ptr<harness::BenchKernel> make_bench();

}  // namespace ulibc::zblas
