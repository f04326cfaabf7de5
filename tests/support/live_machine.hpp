// live_machine.hpp — the machine the tests run on, and what they read off a mapping.
#pragma once
#include <vector>

#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {

// This machine, loaded once with what placement needs.
inline const Topology& live() {
  static const Topology topo = Topology::load("/", Detail::placement);
  return topo;
}

// The processor of each thread of `m`, in thread order.
inline std::vector<int> procs(const Mapping& m) {
  std::vector<int> out;
  for (const auto& p : m.threads()) out.push_back(p.proc);
  return out;
}

}  // namespace ulibc::testing
