// summary.hpp — machine totals derived from a Topology, shared by the text
// and JSON forms of `ulibc topology` so both report the same numbers.
#pragma once
#include "ulibc.hpp"

namespace ulibc::cli {

struct MachineSummary {
  int processors = 0;  // every processor sysfs lists, online or not
  int online = 0;
  int allowed = 0;
  int usable = 0;  // online ∩ allowed: what the policies place threads on
  int packages = 0;
  int nodes = 0;
  int cores = 0;    // distinct Processor::core among online processors
  int min_smt = 0;  // hardware threads per core: the fewest and the most over
  int max_smt = 0;  // all cores (they differ on hybrid parts)
};

MachineSummary summarize(const Topology& topo);

}  // namespace ulibc::cli
