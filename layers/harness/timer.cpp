// harness/timer.cpp — wall-clock timing for kernels, and cycles for EPCC.
#include "harness/timer.hpp"

#include <thread>

#if defined(__x86_64__) || defined(__i386__)
#include <x86intrin.h>
#endif

namespace ulibc::harness {

double cycles_per_microsecond() {
#if defined(__x86_64__) || defined(__i386__)
  // 20 ms against the monotonic clock puts the error well under 0.1%.
  static const double rate = [] {
    const double t0 = now_seconds();
    const unsigned long long c0 = __rdtsc();
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    const unsigned long long c1 = __rdtsc();
    const double t1 = now_seconds();
    return static_cast<double>(c1 - c0) / ((t1 - t0) * 1e6);
  }();
  return rate;
#else
  return 0;
#endif
}

}  // namespace ulibc::harness
