// cilksort/algorithm.hpp — Cilksort written once for any fork/join runtime: `fork.both(f, wf, g, wg)` runs f and g
// in parallel (their work hints wf and wg) and returns when both have finished. cilksort.cpp runs it on ULIBC's
// task runtime; the peers' driver runs the same code on OpenMP tasks, so that only the runtime differs.
//
// Frigo, Leiserson and Randall, "The Implementation of the Cilk-5 Multithreaded Language" (PLDI 1998), examples:
// sort the four quarters in parallel, merge them pairwise into the buffer in parallel, merge the halves back; a
// merge splits the longer run at its middle, finds that key's place in the other by binary search, and merges the
// two sides in parallel.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>

namespace ulibc::cilksort::detail {

using Keys = std::span<std::uint64_t>;
using Run = std::span<const std::uint64_t>;

inline double size_of(std::size_t n) { return static_cast<double>(n); }

// The serial merge of a and b into out: which run gives the next key is a select, not a branch (random keys make
// std::merge's branch a coin toss the processor mispredicts half the time).
inline void merge_serial(Run a, Run b, Keys out) {
  std::size_t i = 0, j = 0, k = 0;
  while (i < a.size() && j < b.size()) {
    const bool from_b = b[j] < a[i];
    out[k++] = from_b ? b[j] : a[i];
    j += from_b;
    i += !from_b;
  }
  std::copy(a.begin() + static_cast<std::ptrdiff_t>(i), a.end(), out.begin() + static_cast<std::ptrdiff_t>(k));
  std::copy(b.begin() + static_cast<std::ptrdiff_t>(j), b.end(), out.begin() + static_cast<std::ptrdiff_t>(k));
}

// Merges the sorted runs a and b into out (a.size() + b.size() keys), in parallel above the cutoff.
template <class Fork>
void merge(const Fork& fork, Run a, Run b, Keys out, std::size_t cutoff) {
  if (a.size() < b.size()) std::swap(a, b);  // split the longer run
  if (b.empty()) {
    std::copy(a.begin(), a.end(), out.begin());
    return;
  }
  if (a.size() + b.size() <= cutoff) {
    merge_serial(a, b, out);
    return;
  }
  const std::size_t i = a.size() / 2;
  const std::size_t j = static_cast<std::size_t>(std::lower_bound(b.begin(), b.end(), a[i]) - b.begin());
  const std::size_t left = i + j;
  out[left] = a[i];
  fork.both([=, &fork] { merge(fork, a.first(i), b.first(j), out.first(left), cutoff); }, size_of(left),
            [=, &fork] { merge(fork, a.subspan(i + 1), b.subspan(j), out.subspan(left + 1), cutoff); },
            size_of(out.size() - left - 1));
}

// Sorts keys by quarters with buffer (as long) as scratch: pieces of at most sort_cutoff keys by std::sort.
template <class Fork>
void sort(const Fork& fork, Keys keys, Keys buffer, std::size_t sort_cutoff, std::size_t merge_cutoff) {
  const std::size_t n = keys.size();
  if (n <= sort_cutoff) {
    std::sort(keys.begin(), keys.end());
    return;
  }
  const std::size_t q = n / 4, at[5] = {0, q, 2 * q, 3 * q, n};
  const auto part = [&](Keys s, int k) { return s.subspan(at[k], at[k + 1] - at[k]); };
  const auto sort_part = [&](int k) { sort(fork, part(keys, k), part(buffer, k), sort_cutoff, merge_cutoff); };
  const auto sort_pair = [&](int k) {
    fork.both([&] { sort_part(k); }, size_of(at[k + 1] - at[k]), [&] { sort_part(k + 1); },
              size_of(at[k + 2] - at[k + 1]));
  };
  fork.both([&] { sort_pair(0); }, size_of(at[2]), [&] { sort_pair(2); }, size_of(n - at[2]));
  fork.both([&] { merge(fork, part(keys, 0), part(keys, 1), buffer.first(at[2]), merge_cutoff); }, size_of(at[2]),
            [&] { merge(fork, part(keys, 2), part(keys, 3), buffer.subspan(at[2]), merge_cutoff); },
            size_of(n - at[2]));
  merge(fork, Run(buffer).first(at[2]), Run(buffer).subspan(at[2]), keys, merge_cutoff);
}

}  // namespace ulibc::cilksort::detail
