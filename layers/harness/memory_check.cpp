// harness/memory_check.cpp — refusing, before allocating, a problem that cannot fit.
#include "harness/memory_check.hpp"

#include <fmt/format.h>

#include <limits>

#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::harness {

namespace {
constexpr std::uint64_t kOverflow = std::numeric_limits<std::uint64_t>::max();
}

std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t product = 0;
  return __builtin_mul_overflow(a, b, &product) ? kOverflow : product;
}

std::uint64_t saturating_sum(std::initializer_list<std::uint64_t> parts) {
  std::uint64_t total = 0;
  for (const std::uint64_t part : parts)
    if (__builtin_add_overflow(total, part, &total)) return kOverflow;
  return total;
}

void require_memory(std::uint64_t bytes, const std::string& what) {
  const std::uint64_t available = available_memory();
  if (bytes != kOverflow && (available == 0 || bytes <= available)) return;
  const std::string needed = bytes == kOverflow ? "more than 16 EiB" : format_bytes(bytes);
  throw input_error(
      fmt::format("{} need {}, but only {} is available (MemAvailable)", what, needed, format_bytes(available)));
}

}  // namespace ulibc::harness
