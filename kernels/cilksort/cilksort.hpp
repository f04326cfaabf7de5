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

struct Cutoffs {
  std::size_t sort = 2048;   // pieces this small are sorted serially (Cilk-5's QUICKSIZE)
  std::size_t merge = 2048;  // merges this small run serially (its MERGESIZE)
};

// Sorts `keys` ascending, using `buffer` (as long as keys) as scratch. Inside a tasks::Runtime run; outside one it
// runs serially. Error(input) when the buffer's size differs or a cutoff is below 4 (a quarter must not be empty).
void sort(std::span<std::uint64_t> keys, std::span<std::uint64_t> buffer, Cutoffs cutoffs = {});

// The benchmark's input: keys[i] from a SplitMix64 sequence started at `seed`, filled in parallel.
void fill_random(std::span<std::uint64_t> keys, std::uint64_t seed);

}  // namespace ulibc::cilksort
