// cilksort/verify.hpp — the check of a sort: ascending, and the same keys as the input.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace ulibc::cilksort {

struct Check {
  bool valid = false;
  std::string message;  // "100000000 keys sorted, the input's keys", or the first thing wrong
};

// The input's keys in order, by std::sort of a copy: made once per input, compared with every sort of it.
std::vector<std::uint64_t> reference_order(std::span<const std::uint64_t> input);
// Equal to the reference element by element: ascending, and a permutation of the input (the reference is).
Check check_sorted(std::span<const std::uint64_t> sorted, std::span<const std::uint64_t> reference);

}  // namespace ulibc::cilksort
