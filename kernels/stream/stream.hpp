// stream/stream.hpp — McCalpin's STREAM: Copy, Scale, Add and Triad, and the
// check of every element they leave behind.
//
// Each operation runs over one thread's share [begin, end) of the arrays, so
// that a thread works on exactly the elements it touched first: a static
// block of ordinary arrays, or its own range of node-distributed ones (the
// ULIBC paper's Fig. 6). The benchmark (make_stream_bench) times them.
#pragma once
#include <array>
#include <cstddef>
#include <memory>
#include <string>

#include "harness/bench_kernel.hpp"
#include "ulibc/partition.hpp"

namespace ulibc::harness {

namespace stream {

inline constexpr double kScalar = 3.0;  // STREAM's q
// STREAM's epsilon for doubles: the operations are exact up to rounding, so
// anything larger is a lost or misplaced write, not arithmetic.
inline constexpr double kTolerance = 1e-13;

// Three arrays of n doubles. Views only: whoever allocated them frees them.
struct Arrays {
  double* a = nullptr;
  double* b = nullptr;
  double* c = nullptr;
  std::size_t n = 0;
};

enum class Op { copy, scale, add, triad };
// In STREAM's order; one repetition is these four, and the check replays them.
inline constexpr std::array<Op, 4> kOps = {Op::copy, Op::scale, Op::add, Op::triad};

std::string op_name(Op op);  // "Copy", "Scale", "Add", "Triad"
// The bytes STREAM counts per element (16, 16, 24, 24): what the loop reads
// and writes, not the write-allocate traffic a cache adds on top.
std::size_t bytes_per_element(Op op);

// STREAM's start: a = 1, b = 2, c = 0. Also the first touch of [r.begin, r.end).
void initialise(const Arrays& s, Range r);
// c = a; b = q c; c = a + b; a = b + q c, on [r.begin, r.end) only.
void apply(Op op, const Arrays& s, Range r);

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

}  // namespace stream

// `ulibc bench stream`: options --size, --reps, --arrays; one result per
// variant (malloc under policy none, else ordinary and node arrays).
std::unique_ptr<BenchKernel> make_stream_bench();

}  // namespace ulibc::harness
