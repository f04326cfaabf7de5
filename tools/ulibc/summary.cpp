// summary.cpp — machine totals derived from a Topology.
#include "summary.hpp"

#include <algorithm>
#include <map>

namespace ulibc::cli {

namespace {
// Cores as the library identifies them (Processor::core, from the kernel's
// sibling sets), so the totals agree with the ranks the policies use.
// Offline processors belong to no core.
std::map<int, int> threads_per_core(const Topology& topo) {
  std::map<int, int> cores;
  for (const Processor& p : topo.processors())
    if (p.core >= 0) ++cores[p.core];
  return cores;
}
}  // namespace

MachineSummary summarize(const Topology& topo) {
  MachineSummary s;
  s.processors = static_cast<int>(topo.processors().size());
  s.online = topo.online().count();
  s.allowed = topo.allowed().count();
  s.usable = topo.usable().count();
  s.packages = static_cast<int>(topo.packages().size());
  s.nodes = static_cast<int>(topo.nodes().size());
  const auto cores = threads_per_core(topo);
  s.cores = static_cast<int>(cores.size());
  for (const auto& [core, n] : cores) {
    s.min_smt = s.min_smt == 0 ? n : std::min(s.min_smt, n);
    s.max_smt = std::max(s.max_smt, n);
  }
  return s;
}

}  // namespace ulibc::cli
