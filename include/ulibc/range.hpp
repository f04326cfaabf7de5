// ulibc/range.hpp — a half-open index range [begin, end) and its even split.
//
// Every parallel loop that hands each thread a contiguous share uses these,
// so that two passes over the same data (a count and a fill, a sum and a
// scan) give every thread the same share.
#pragma once
#include <algorithm>
#include <concepts>
#include <cstddef>
#include <span>

namespace ulibc {

template <std::integral Index>
struct IndexRange {
  Index begin = 0;
  Index end = 0;
  Index size() const { return end - begin; }
  bool empty() const { return begin == end; }
  bool operator==(const IndexRange&) const = default;
};

using Range = IndexRange<std::size_t>;

// Share `index` of `count` (0 <= index < count) of r: shares differ in size
// by at most one and cover r in order. The product is taken in 128 bits, so
// no range is too long to split.
template <std::integral Index>
IndexRange<Index> even_share(IndexRange<Index> r, std::size_t index, std::size_t count) {
  const auto n = static_cast<unsigned __int128>(r.size());
  return {static_cast<Index>(r.begin + static_cast<Index>(n * index / count)),
          static_cast<Index>(r.begin + static_cast<Index>(n * (index + 1) / count))};
}

// Share `index` of `count` as OpenMP's schedule(static) without a chunk
// size deals r out in libgomp: the first r.size() % count shares are one
// longer (10 over 4: 3, 3, 2, 2, where even_share gives 2, 3, 2, 3). A
// loop that must first-touch exactly what a `#pragma omp for` will later
// work on takes its shares from here.
template <std::integral Index>
IndexRange<Index> static_schedule_share(IndexRange<Index> r, std::size_t index, std::size_t count) {
  const std::size_t n = r.size(), base = n / count, extra = n % count;
  const std::size_t begin = index * base + (index < extra ? index : extra);
  return {static_cast<Index>(r.begin + begin), static_cast<Index>(r.begin + begin + base + (index < extra ? 1 : 0))};
}

// Share `index` of `count` of the items 0..prefix.size()-2 when item i weighs prefix[i+1] - prefix[i] (a CSR's
// row offsets: rows weighed by their entries): share k starts at the first item whose prefix reaches k/count of
// the total, so shares carry even weight, not even counts. A share may be empty when one item outweighs it.
template <std::integral Offset>
IndexRange<std::size_t> weighted_share(std::span<const Offset> prefix, std::size_t index, std::size_t count) {
  const std::size_t items = prefix.empty() ? 0 : prefix.size() - 1;
  const auto boundary = [&](std::size_t k) -> std::size_t {
    if (k == count) return items;
    const auto total = static_cast<unsigned __int128>(prefix.back() - prefix.front());
    const auto target = prefix.front() + static_cast<Offset>(total * k / count);
    return static_cast<std::size_t>(std::lower_bound(prefix.begin(), prefix.end() - 1, target) - prefix.begin());
  };
  return {boundary(index), boundary(index + 1)};
}

}  // namespace ulibc
