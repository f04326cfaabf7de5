// stream/stream.cpp — the four STREAM loops and the check of their result.
#include "stream/stream.hpp"

#include <cmath>

#include <fmt/format.h>

namespace ulibc::harness::stream {

namespace {

// The loops take __restrict pointers so that GCC vectorises them without a
// run-time overlap check: the three arrays never alias.
void copy(double* __restrict c, const double* __restrict a, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) c[i] = a[i];
}

void scale(double* __restrict b, const double* __restrict c, double q, std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) b[i] = q * c[i];
}

void add(double* __restrict c, const double* __restrict a, const double* __restrict b, std::size_t begin,
         std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) c[i] = a[i] + b[i];
}

void triad(double* __restrict a, const double* __restrict b, const double* __restrict c, double q,
           std::size_t begin, std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + q * c[i];
}

// Equal first: once the values overflow (about 260 repetitions) both sides
// are inf, which is a match, not a NaN error.
double relative_error(double actual, double expected) {
  return actual == expected ? 0 : std::fabs(actual - expected) / std::fabs(expected);
}

}  // namespace

std::string op_name(Op op) {
  switch (op) {
    case Op::copy: return "Copy";
    case Op::scale: return "Scale";
    case Op::add: return "Add";
    case Op::triad: return "Triad";
  }
  return "?";
}

std::size_t bytes_per_element(Op op) {
  return op == Op::copy || op == Op::scale ? 2 * sizeof(double) : 3 * sizeof(double);
}

void initialise(const Arrays& s, Range r) {
  for (std::size_t i = r.begin; i < r.end; ++i) {
    s.a[i] = 1.0;
    s.b[i] = 2.0;
    s.c[i] = 0.0;
  }
}

void apply(Op op, const Arrays& s, Range r) {
  switch (op) {
    case Op::copy: return copy(s.c, s.a, r.begin, r.end);
    case Op::scale: return scale(s.b, s.c, kScalar, r.begin, r.end);
    case Op::add: return add(s.c, s.a, s.b, r.begin, r.end);
    case Op::triad: return triad(s.a, s.b, s.c, kScalar, r.begin, r.end);
  }
}

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

}  // namespace ulibc::harness::stream
