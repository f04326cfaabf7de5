// registry.cpp — the kernels `ulibc bench` and `ulibc tune` know.
#include "bfs/bfs_bench.hpp"
#include "cilksort/cilksort_bench.hpp"
#include "eigen/eigen_bench.hpp"
#include "epcc/epcc_bench.hpp"
#include "gmres/gmres_bench.hpp"
#include "harness/bench_kernel.hpp"
#include "heat/heat_bench.hpp"
#include "sdp/sdp_bench.hpp"
#include "simpath/simpath_bench.hpp"
#include "spawn/spawn_bench.hpp"
#include "sssp/sssp_bench.hpp"
#include "stream/stream_bench.hpp"
#include "zblas/zblas_bench.hpp"

namespace ulibc::harness {

std::vector<std::unique_ptr<BenchKernel>> all_kernels() {
  std::vector<std::unique_ptr<BenchKernel>> kernels;
  kernels.push_back(stream::make_bench());
  kernels.push_back(epcc::make_bench());
  kernels.push_back(zblas::make_bench());
  kernels.push_back(bfs::make_bench());
  kernels.push_back(simpath::make_bench());
  kernels.push_back(sssp::make_bench());
  kernels.push_back(gmres::make_bench());
  kernels.push_back(spawn::make_bench());
  kernels.push_back(cilksort::make_bench());
  kernels.push_back(heat::make_bench());
  kernels.push_back(sdp::make_bench());
  kernels.push_back(eigen::make_bench());
  return kernels;
}

}  // namespace ulibc::harness
