// capi/binding_api.cpp — the C API's binding functions (ulibc.h).
#include "capi/state.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/ulibc.h"

using ulibc::capi::current;
using ulibc::capi::guarded;

extern "C" {

int ulibc_set_affinity(int proc) {
  return guarded(
      [&] {
        // The mapping's topology knows which processors this process may use:
        // say so, rather than relay the kernel's bare EINVAL.
        const ulibc::Topology& topo = current().topo;
        const ulibc::Processor* p = topo.processor(proc);
        if (!p || !p->usable())
          throw ulibc::input_error("processor " + std::to_string(proc) +
                                   " is not usable (online and allowed: " + topo.usable().to_list() + ")");
        ulibc::bind_current_thread(proc);
        return 0;
      },
      -1);
}

int ulibc_clear_affinity(void) {
  return guarded(
      [] {
        ulibc::restore_affinity();
        return 0;
      },
      -1);
}

int ulibc_bind_thread_as(int tid) {
  return guarded(
      [&] {
        ulibc::bind_current_thread(ulibc::capi::placement(tid));
        return 0;
      },
      -1);
}

int ulibc_openmp_team_plan(void) {
  return guarded(
      [] {
        const ulibc::TeamBinding plan =
            ulibc::detail::start_openmp_binding(current().map, ulibc::outside_rule_from_env());
        if (!plan.bound) ulibc::capi::set_last_error(plan.reason.c_str());
        return plan.bound ? 1 : 0;
      },
      -1);
}

int ulibc_openmp_team_result(int nthreads, int team_size, int failures) {
  return guarded(
      [&] {
        ulibc::check_openmp_team_size(nthreads, team_size);
        if (failures > 0)
          throw ulibc::input_error(std::to_string(failures) +
                                   " OpenMP thread(s) could not be bound (ulibc_bind_thread failed)");
        return 1;
      },
      -1);
}

}  // extern "C"
