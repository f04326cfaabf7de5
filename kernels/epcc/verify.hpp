// epcc/verify.hpp — the check of an EPCC run, for the tests and `ulibc bench epcc`.
//
// Timings cannot be checked against a reference, but what the loops counted
// can: every tally must be exact, and every overhead a number.
#pragma once
#include <span>
#include <string>

#include "epcc/epcc.hpp"

namespace ulibc::epcc {

struct Check {
  bool valid = false;
  std::string message;  // "counters exact in 23 tests; 34 overheads finite", or what failed
};
// Every tally exact and every overhead finite.
Check check_overheads(std::span<const Overhead> overheads);

}  // namespace ulibc::epcc
