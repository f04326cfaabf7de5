// harness/memory_check.hpp — refusing, before allocating, a problem that cannot fit.
#pragma once
#include <cstdint>
#include <initializer_list>
#include <string>

namespace ulibc::harness {

// Throws Error(input) when `bytes` exceed the memory the machine can give now
// (ulibc::available_memory), naming `what` and both sizes: "STREAM arrays
// (3 x 8.0 GiB) need 24.0 GiB, but only 5.2 GiB is available". Also refuses
// sizes whose byte count overflowed (bytes == UINT64_MAX).
void require_memory(std::uint64_t bytes, const std::string& what);

// a * b, or UINT64_MAX when that overflows: size arithmetic for require_memory.
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b);
// The sum of `parts`, or UINT64_MAX when it overflows.
std::uint64_t saturating_sum(std::initializer_list<std::uint64_t> parts);

}  // namespace ulibc::harness
