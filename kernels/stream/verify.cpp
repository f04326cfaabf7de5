// stream/verify.cpp — STREAM's expected values, replayed on scalars, and the check of every element.
#include "stream/verify.hpp"

#include <fmt/format.h>

#include <cmath>

namespace ulibc::stream {

namespace {

// Equal first: once the values overflow (about 260 repetitions) both sides
// are inf, which is a match, not a NaN error.
double relative_error(double actual, double expected) {
  return actual == expected ? 0 : std::fabs(actual - expected) / std::fabs(expected);
}

}  // namespace

// Written out again rather than calling apply on one element, as STREAM's
// checkSTREAMresults does: a wrong loop must not be able to vouch for itself.
Values expected_after(int reps) {
  Values v{.a = 1.0, .b = 2.0, .c = 0.0};
  for (int rep = 0; rep < reps; ++rep) {
    v.c = v.a;
    v.b = kScalar * v.c;
    v.c = v.a + v.b;
    v.a = v.b + kScalar * v.c;
  }
  return v;
}

Check check(const Arrays& s, int reps) {
  const Values want = expected_after(reps);
  const struct {
    const char* name;
    const double* data;
    double expected;
  } arrays[] = {{"a", s.a, want.a}, {"b", s.b, want.b}, {"c", s.c, want.c}};
  double worst = 0;
  for (const auto& array : arrays)
    for (std::size_t i = 0; i < s.n; ++i) {
      const double error = relative_error(array.data[i], array.expected);
      // Written so that a NaN element fails too.
      if (!(error <= kTolerance))
        return {false, fmt::format("{}[{}] is {:.17g}, expected {:.17g} (relative error {:.2g})", array.name, i,
                                   array.data[i], array.expected, error)};
      worst = std::fmax(worst, error);
    }
  return {true, fmt::format("all 3 x {} elements match (max relative error {:.2g})", s.n, worst)};
}

}  // namespace ulibc::stream
