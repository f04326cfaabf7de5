// capi/state.hpp — what every part of the C API shares: the process's one
// current mapping, and the error convention (catch, keep the message for
// ulibc_last_error(), return the failure value).
#pragma once
#include <exception>
#include <string>

#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::capi {

// Immutable once published: readers hold it without locks.
struct State {
  Topology topo;
  Mapping map;
  std::string policy_name;
};

// The current State, built from the environment on first use.
const State& current();
// Builds and publishes a new State (topology reloaded from fsroot; "" → env).
void rebuild(const char* fsroot, const char* policy, int nthreads);
// Publishes the current topology with a new policy (nullptr keeps) and thread count (0 keeps).
void remap(const Policy* policy, int nthreads);

const Placement& placement(int tid);  // Error(input) for a tid outside the mapping

void set_last_error(const char* message);
const char* last_error();

// Runs f, turning any exception into its message for ulibc_last_error()
// and `on_error` as the result.
template <class F>
auto guarded(F f, decltype(f()) on_error) noexcept {
  try {
    return f();
  } catch (const std::exception& e) {
    set_last_error(e.what());
  } catch (...) {
    set_last_error("unknown error");
  }
  return on_error;
}

}  // namespace ulibc::capi
