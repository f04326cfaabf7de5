// random/random_stream.hpp — the counter-based generator that the graph generators, the road problems and
// the eigensolver's random starts share.
//
// A generator keys every random choice by (seed, the index of what is being
// chosen: a tuple, a vertex, a street), never by a position in one sequential
// stream. Any thread can then draw any part, in any order, with the same
// result: the output does not depend on the number of threads.
#pragma once
#include <cstdint>

namespace ulibc::rng {

// 2^64 divided by the golden ratio, rounded to odd: splitmix64's increment.
constexpr std::uint64_t kGolden = 0x9e3779b97f4a7c15ULL;

// splitmix64's finaliser (Stafford's "Mix13"): a bijection on 64-bit words in
// which every output bit depends on every input bit. Applied to a counter
// stepped by kGolden it is splitmix64, whose output passes BigCrush: that is
// what makes a counter a generator.
constexpr std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

// A counter-based stream: word w of stream `index` is mix64 of a state that
// is a pure function of (key, index, w). Each stream is splitmix64 seeded
// with the index's own mixed value, so neighbouring indices share nothing.
class Stream {
 public:
  Stream(std::uint64_t key, std::uint64_t index) : state_(mix64(key + index * kGolden)) {}
  std::uint64_t next() {
    state_ += kGolden;
    return mix64(state_);
  }

 private:
  std::uint64_t state_;
};

}  // namespace ulibc::rng
