// spawn/verify.cpp — the checks of the spawn benchmarks' answers.
#include "spawn/verify.hpp"

#include <fmt/format.h>

namespace ulibc::spawn {

Check check_fib(int n, std::uint64_t got) {
  std::uint64_t previous = 0, current = 1;  // F(0), F(1)
  for (int k = 0; k < n; ++k) {
    const std::uint64_t next = previous + current;
    previous = current;
    current = next;
  }
  if (got == previous) return {true, fmt::format("fib({}) = {}", n, got)};
  return {false, fmt::format("fib({}) gave {}, expected {}", n, got, previous)};
}

Check check_linear(std::uint64_t n, std::uint64_t got) {
  if (got == n) return {true, fmt::format("all {} children ran once", n)};
  return {false, fmt::format("{} children counted {} runs", n, got)};
}

}  // namespace ulibc::spawn
