// stream/stream.cpp — the four STREAM loops, each over one thread's share of the arrays.
#include "stream/stream.hpp"

namespace ulibc::stream {

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

void triad(double* __restrict a, const double* __restrict b, const double* __restrict c, double q, std::size_t begin,
           std::size_t end) {
  for (std::size_t i = begin; i < end; ++i) a[i] = b[i] + q * c[i];
}

}  // namespace

std::string op_name(Op op) {
  switch (op) {
    case Op::copy:
      return "Copy";
    case Op::scale:
      return "Scale";
    case Op::add:
      return "Add";
    case Op::triad:
      return "Triad";
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
    case Op::copy:
      return copy(s.c, s.a, r.begin, r.end);
    case Op::scale:
      return scale(s.b, s.c, kScalar, r.begin, r.end);
    case Op::add:
      return add(s.c, s.a, s.b, r.begin, r.end);
    case Op::triad:
      return triad(s.a, s.b, s.c, kScalar, r.begin, r.end);
  }
}

}  // namespace ulibc::stream
