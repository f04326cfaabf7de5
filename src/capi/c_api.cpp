// capi/c_api.cpp — the C API's mapping functions (ulibc.h) over capi::State.
#include "capi/state.hpp"
#include "ulibc/error.hpp"
#include "ulibc/ulibc.h"

using ulibc::capi::current;
using ulibc::capi::guarded;
using ulibc::capi::placement;

namespace {

ulibc::Policy policy_of(int policy) {
  switch (policy) {
    case ULIBC_SCATTER:
      return ulibc::Policy(ulibc::PolicyKind::scatter);
    case ULIBC_COMPACT:
      return ulibc::Policy(ulibc::PolicyKind::compact);
    case ULIBC_COMPACT_PLUS:
      return ulibc::Policy(ulibc::PolicyKind::compact_plus);
    case ULIBC_NONE:
      return ulibc::Policy(ulibc::PolicyKind::none);
  }
  throw ulibc::input_error("unknown policy " + std::to_string(policy) +
                           "; accepted: ULIBC_SCATTER, ULIBC_COMPACT, ULIBC_COMPACT_PLUS, ULIBC_NONE");
}

}  // namespace

extern "C" {

int ulibc_init(void) {
  return guarded(
      [] {
        ulibc::capi::rebuild(nullptr, nullptr, 0);
        return 0;
      },
      -1);
}

int ulibc_init_with(const char* fsroot, const char* policy, int nthreads) {
  return guarded(
      [&] {
        ulibc::capi::rebuild(fsroot, policy, nthreads);
        return 0;
      },
      -1);
}

const char* ulibc_last_error(void) { return ulibc::capi::last_error(); }

int ulibc_set_affinity_policy(int policy) {
  return guarded(
      [&] {
        const auto p = policy_of(policy);
        ulibc::capi::remap(&p, 0);
        return 0;
      },
      -1);
}

int ulibc_set_mapping(const char* policy, int nthreads) {
  return guarded(
      [&] {
        if (!policy) {
          ulibc::capi::remap(nullptr, nthreads);
        } else {
          const auto p = ulibc::Policy::parse(policy);
          ulibc::capi::remap(&p, nthreads);
        }
        return 0;
      },
      -1);
}

const char* ulibc_get_policy_name(void) {
  return guarded([] { return current().policy_name.c_str(); }, static_cast<const char*>(nullptr));
}

int ulibc_get_num_threads(void) {
  return guarded([] { return current().map.size(); }, -1);
}
int ulibc_get_num_procs(void) {
  return guarded([] { return current().topo.usable().count(); }, -1);
}
int ulibc_get_num_nodes(void) {
  return guarded([] { return static_cast<int>(current().topo.nodes().size()); }, -1);
}
int ulibc_get_online_numa_nodes(void) {
  return guarded([] { return current().map.nodes_used(); }, -1);
}

int ulibc_get_numa_online_cores(int node_index) {
  return guarded(
      [&] {
        const auto& per_node = current().map.threads_per_node();
        if (node_index < 0 || node_index >= static_cast<int>(per_node.size()))
          throw ulibc::input_error("node index " + std::to_string(node_index) + " is outside 0.." +
                                   std::to_string(per_node.size() - 1));
        return per_node[node_index];
      },
      -1);
}

int ulibc_get_numa_procid(int tid) {
  return guarded([&] { return placement(tid).proc; }, -1);
}
int ulibc_get_numa_nodeid(int tid) {
  return guarded([&] { return placement(tid).node_index; }, -1);
}
int ulibc_get_numa_node_osid(int tid) {
  return guarded([&] { return placement(tid).node; }, -1);
}
int ulibc_get_numa_packageid(int tid) {
  return guarded([&] { return placement(tid).package; }, -1);
}
int ulibc_get_numa_coreid(int tid) {
  return guarded([&] { return placement(tid).core_id; }, -1);
}
int ulibc_get_numa_smtid(int tid) {
  return guarded([&] { return placement(tid).smt; }, -1);
}
int ulibc_get_numa_ordcoreid(int tid) {
  return guarded([&] { return placement(tid).ordcore; }, -1);
}

}  // extern "C"
