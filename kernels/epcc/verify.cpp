// epcc/verify.cpp — the check of an EPCC run: exact tallies, finite overheads.
#include "epcc/verify.hpp"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <cmath>
#include <vector>

namespace ulibc::epcc {

Check check_overheads(std::span<const Overhead> overheads) {
  std::vector<std::string> faults;
  int counted = 0;
  for (const Overhead& o : overheads) {
    if (o.tally) {
      ++counted;
      if (!o.tally->exact())
        faults.push_back(fmt::format("{} counted {} of {}", o.name, o.tally->counted, o.tally->expected));
    }
    const bool finite = !o.us.empty() && std::ranges::all_of(o.us, [](double us) { return std::isfinite(us); });
    if (!finite) faults.push_back(o.name + " overhead not finite");
  }
  if (!faults.empty()) return {.valid = false, .message = fmt::format("{}", fmt::join(faults, "; "))};
  return {.valid = true,
          .message = fmt::format("counters exact in {} tests; {} overheads finite", counted, overheads.size())};
}

}  // namespace ulibc::epcc
