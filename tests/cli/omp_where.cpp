// omp_where — an ordinary OpenMP program that knows nothing of ULIBC: prints
// "thread cpu" for each thread of one parallel region, for `ulibc run` tests.
#include <omp.h>
#include <sched.h>

#include <cstdio>
#include <vector>

int main() {
  std::vector<int> cpu(static_cast<std::size_t>(omp_get_max_threads()), -1);
  int team = 0;
#pragma omp parallel
  {
    cpu[static_cast<std::size_t>(omp_get_thread_num())] = sched_getcpu();
#pragma omp single
    team = omp_get_num_threads();
  }
  for (int t = 0; t < team; ++t) std::printf("%d %d\n", t, cpu[static_cast<std::size_t>(t)]);
}
