// harness/timer.hpp — wall-clock timing for kernels, and cycles for EPCC.
#pragma once
#include <chrono>

namespace ulibc::harness {

// Seconds since an arbitrary point, from the monotonic clock (clock_gettime
// CLOCK_MONOTONIC, as STREAM and EPCC use).
inline double now_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

class Timer {
 public:
  Timer() : start_(now_seconds()) {}
  void restart() { start_ = now_seconds(); }
  double seconds() const { return now_seconds() - start_; }

 private:
  double start_;
};

// Processor cycles per microsecond, measured once per process against the
// monotonic clock from the time-stamp counter (the nominal clock on current
// x86). 0 where there is no such counter: cycles are then not reported.
double cycles_per_microsecond();

}  // namespace ulibc::harness
