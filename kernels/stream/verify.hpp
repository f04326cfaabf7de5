// stream/verify.hpp — the check of every element STREAM leaves behind, for the tests and `ulibc bench stream`.
//
// As STREAM's checkSTREAMresults: the operations replayed on scalars give
// what every element must hold, and each element is compared with it.
#pragma once
#include <string>

#include "stream/stream.hpp"

namespace ulibc::stream {

// STREAM's epsilon for doubles: the operations are exact up to rounding, so
// anything larger is a lost or misplaced write, not arithmetic.
inline constexpr double kTolerance = 1e-13;

// What every element of a, b, c holds after initialise and `reps` repetitions
// of kOps: the same operations replayed on scalars (checkSTREAMresults).
struct Values {
  double a = 0, b = 0, c = 0;
};
Values expected_after(int reps);

// Compares every element of a, b, c with expected_after(reps) to relative
// kTolerance. message: "all 3 x 262144 elements match (max relative error 0)",
// or the first mismatch: "b[77] is 46, expected 45 (relative error 0.022)".
struct Check {
  bool valid = false;
  std::string message;
};
Check check(const Arrays& s, int reps);

}  // namespace ulibc::stream
