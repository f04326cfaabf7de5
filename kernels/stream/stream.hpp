// stream/stream.hpp — McCalpin's STREAM: Copy, Scale, Add and Triad over one thread's share of three arrays.
//
// Each operation runs over one thread's share [begin, end) of the arrays, so
// that a thread works on exactly the elements it touched first: a static
// block of ordinary arrays, or its own range of node-distributed ones (the
// ULIBC paper's Fig. 6). The check of what they leave behind is verify.hpp;
// the benchmark that times them is stream_bench.hpp.
#pragma once
#include <array>
#include <cstddef>
#include <string>

#include "ulibc/range.hpp"

namespace ulibc::stream {

inline constexpr double kScalar = 3.0;  // STREAM's q

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

}  // namespace ulibc::stream
