// simpath/state_words.hpp — states as whole 64-bit words: hashing, copying, comparing.
//
// A state is its frontier's mates padded with zero bytes to whole words
// (FrontierPlan::state_words, at least two), so these work on words. Most
// states are two words: inline copies and compares beat calls to memcpy and
// memcmp of a variable size.
#pragma once
#include <cstdint>
#include <cstring>

namespace ulibc::simpath::detail {

inline std::uint64_t hash_words(const std::uint64_t* w, int words) {
  std::uint64_t h = 0x243F6A8885A308D3ull ^ static_cast<std::uint64_t>(words);
  for (int i = 0; i < words; ++i) {
    h ^= w[i];
    h *= 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  }
  h *= 0xBF58476D1CE4E5B9ull;
  return h ^ (h >> 31);
}

inline void copy_words(const std::uint64_t* from, std::uint64_t* to, int words) {
  if (words == 2) {
    to[0] = from[0];
    to[1] = from[1];
  } else {
    std::memcpy(to, from, static_cast<std::size_t>(words) * 8);
  }
}

inline bool equal_words(const std::uint64_t* a, const std::uint64_t* b, int words) {
  if (words == 2) return a[0] == b[0] && a[1] == b[1];
  return std::memcmp(a, b, static_cast<std::size_t>(words) * 8) == 0;
}

}  // namespace ulibc::simpath::detail
