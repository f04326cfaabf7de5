// spawn/verify.hpp — the checks of the spawn benchmarks' answers, for the tests and `ulibc bench spawn`.
#pragma once
#include <cstdint>
#include <string>

namespace ulibc::spawn {

struct Check {
  bool valid = false;
  std::string message;  // "fib(30) = 832040", or what was wrong
};

// fib(n) against the Fibonacci number computed by iteration.
Check check_fib(int n, std::uint64_t got);
// The linear tree's counter against the children spawned: a lost or repeated child changes it.
Check check_linear(std::uint64_t n, std::uint64_t got);

}  // namespace ulibc::spawn
