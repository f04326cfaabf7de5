// capi/barrier_api.cpp — the C API's NUMA barrier (ulibc.h) over the current mapping.
#include "capi/state.hpp"
#include "ulibc/barrier.hpp"
#include "ulibc/error.hpp"
#include "ulibc/ulibc.h"

using ulibc::capi::current;
using ulibc::capi::guarded;

// The team is the mapping current at creation; a later remap does not
// change a barrier already made.
struct ulibc_barrier {
  explicit ulibc_barrier(const ulibc::Mapping& map) : barrier(map) {}
  ulibc::NumaBarrier barrier;
};

extern "C" {

ulibc_barrier* ulibc_barrier_create(void) {
  return guarded([] { return new ulibc_barrier(current().map); }, static_cast<ulibc_barrier*>(nullptr));
}

int ulibc_barrier_wait(ulibc_barrier* b, int tid) {
  return guarded(
      [&] {
        if (!b) throw ulibc::input_error("ulibc_barrier_wait: barrier is NULL");
        b->barrier.arrive_and_wait(tid);
        return 0;
      },
      -1);
}

void ulibc_barrier_destroy(ulibc_barrier* b) { delete b; }

}  // extern "C"
