// global_memory/distribution.cpp — block and cyclic distributions of a global array's elements.
#include "global_memory/distribution.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>

#include "ulibc/error.hpp"

namespace ulibc::global {

Distribution::Distribution(std::uint64_t elements, std::uint64_t unit, int ranks, std::uint64_t chunk)
    : elements_(elements), unit_(unit), ranks_(ranks), chunk_(chunk) {
  if (ranks < 1) throw input_error(fmt::format("global array: {} ranks; it needs at least 1", ranks));
  if (unit < 1) throw input_error("global array: elements of 0 bytes");
  if (elements > std::numeric_limits<std::uint64_t>::max() / unit)
    throw input_error(fmt::format("global array: {} elements of {} bytes overflow 64 bits", elements, unit));
}

Distribution Distribution::block(std::uint64_t elements, std::uint64_t unit, int ranks) {
  return {elements, unit, ranks, 0};
}

Distribution Distribution::cyclic(std::uint64_t elements, std::uint64_t unit, int ranks, std::uint64_t chunk) {
  if (chunk < 1) throw input_error("global array: a cyclic distribution needs chunks of at least 1 element");
  return {elements, unit, ranks, chunk};
}

// Rank r's share of a block distribution starts at floor(r n / P): 128-bit products, so no size overflows.
std::uint64_t Distribution::first_of(int rank) const {
  return static_cast<std::uint64_t>(static_cast<unsigned __int128>(elements_) * static_cast<unsigned>(rank) /
                                    static_cast<unsigned>(ranks_));
}

std::uint64_t Distribution::elements_on(int rank) const {
  if (!is_cyclic()) return first_of(rank + 1) - first_of(rank);
  const std::uint64_t chunks = (elements_ + chunk_ - 1) / chunk_;
  const auto r = static_cast<std::uint64_t>(rank), p = static_cast<std::uint64_t>(ranks_);
  if (r >= chunks) return 0;
  const std::uint64_t held = (chunks - r + p - 1) / p;
  const bool holds_last = (chunks - 1) % p == r;
  return held * chunk_ - (holds_last ? chunks * chunk_ - elements_ : 0);
}

Distribution::Place Distribution::locate(std::uint64_t e) const {
  if (!is_cyclic() || ranks_ == 1) {  // one rank's chunks lie end to end: one run
    // The owner of e is the largest r with first_of(r) <= e: floor(((e + 1) P - 1) / n).
    const auto home =
        static_cast<int>((static_cast<unsigned __int128>(e + 1) * static_cast<unsigned>(ranks_) - 1) / elements_);
    return {.home = home, .index = e - first_of(home), .run = first_of(home + 1) - e};
  }
  const std::uint64_t k = e / chunk_, p = static_cast<std::uint64_t>(ranks_);
  const std::uint64_t chunk_end = std::min((k + 1) * chunk_, elements_);
  return {.home = static_cast<int>(k % p), .index = k / p * chunk_ + e % chunk_, .run = chunk_end - e};
}

}  // namespace ulibc::global
