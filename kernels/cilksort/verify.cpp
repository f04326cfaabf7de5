// cilksort/verify.cpp — the check of a sort against std::sort of the same input.
#include "cilksort/verify.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace ulibc::cilksort {

std::vector<std::uint64_t> reference_order(std::span<const std::uint64_t> input) {
  std::vector<std::uint64_t> r(input.begin(), input.end());
  std::sort(r.begin(), r.end());
  return r;
}

Check check_sorted(std::span<const std::uint64_t> sorted, std::span<const std::uint64_t> reference) {
  if (sorted.size() != reference.size())
    return {false, fmt::format("{} keys out for {} in", sorted.size(), reference.size())};
  for (std::size_t i = 1; i < sorted.size(); ++i)
    if (sorted[i] < sorted[i - 1])
      return {false, fmt::format("not ascending at {}: {} after {}", i, sorted[i], sorted[i - 1])};
  for (std::size_t i = 0; i < sorted.size(); ++i)
    if (sorted[i] != reference[i])
      return {false, fmt::format("key {} is {}, where the input's keys in order have {} (a key lost or repeated)", i,
                                 sorted[i], reference[i])};
  return {true, fmt::format("{} keys sorted, the input's keys", sorted.size())};
}

}  // namespace ulibc::cilksort
