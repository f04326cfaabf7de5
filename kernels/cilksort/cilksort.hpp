// cilksort/cilksort.hpp — Cilksort, Cilk-5's parallel merge sort with a parallel merge, on the task runtime.
//
// The algorithm (algorithm.hpp) is Cilk-5's, the benchmark of Shiina and Taura's Itoyori (SWoPP 2023 §3). Below the
// cutoffs the pieces are sorted (std::sort) and merged (std::merge) serially. Every fork carries the sizes of its
// parts as work hints, so that ADWS deals the array out to the workers in order.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace ulibc::cilksort {

// Cilk-5's were 2048 keys (QUICKSIZE, MERGESIZE); Itoyori's Cilksort runs with 16384, "large enough for the best
// performance" (SWoPP 2023 §3), and so it is here: on this project's machine 10^7 keys sorted 10% faster by one
// worker with 16384 than with 2048, and no slower by two.
struct Cutoffs {
  std::size_t sort = 16384;   // pieces this small are sorted serially
  std::size_t merge = 16384;  // merges this small run serially
};

// Sorts `keys` ascending, using `buffer` (as long as keys) as scratch. Inside a tasks::Runtime run; outside one it
// runs serially. Error(input) when the buffer's size differs or a cutoff is below 4 (a quarter must not be empty).
void sort(std::span<std::uint64_t> keys, std::span<std::uint64_t> buffer, Cutoffs cutoffs = {});

// The benchmark's input: keys[i] from a SplitMix64 sequence started at `seed`, filled in parallel.
void fill_random(std::span<std::uint64_t> keys, std::uint64_t seed);

}  // namespace ulibc::cilksort
