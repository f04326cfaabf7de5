// capi/tasks_api.cpp — the C API's task runtime (ulibc.h) over the current mapping: a parallel loop by recursive
// halving under a scheduler chosen by name.
#include "capi/state.hpp"
#include "ulibc/error.hpp"
#include "ulibc/tasks.hpp"
#include "ulibc/ulibc.h"

using ulibc::capi::current;
using ulibc::capi::guarded;

// The workers are the mapping current at creation; a later remap does not change a runtime already made.
struct ulibc_tasks {
  explicit ulibc_tasks(ulibc::tasks::Scheduler s) : rt(current().topo, current().map, {.scheduler = s}) {}
  ulibc::tasks::Runtime rt;
};

extern "C" {

ulibc_tasks* ulibc_tasks_create(const char* scheduler) {
  return guarded([&] { return new ulibc_tasks(ulibc::tasks::parse_scheduler(scheduler ? scheduler : "random")); },
                 static_cast<ulibc_tasks*>(nullptr));
}

int ulibc_tasks_parallel_for(ulibc_tasks* t, size_t begin, size_t end, size_t grain,
                             void (*body)(size_t begin, size_t end, void* arg), void* arg) {
  return guarded(
      [&] {
        if (!t || !body) throw ulibc::input_error("ulibc_tasks_parallel_for: runtime or body is NULL");
        ulibc::tasks::detail::check_loop(begin, end, grain, nullptr);
        t->rt.run([&] { ulibc::tasks::parallel_for(begin, end, grain, [&](size_t i, size_t j) { body(i, j, arg); }); });
        return 0;
      },
      -1);
}

int ulibc_tasks_current_worker(void) { return ulibc::tasks::current_worker(); }

void ulibc_tasks_destroy(ulibc_tasks* t) { delete t; }

}  // extern "C"
