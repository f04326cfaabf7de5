// global_memory/distribution.hpp — how a global array's elements are dealt over the ranks: in blocks (rank r holds
// one contiguous share, the shares differing by at most one element) or cyclically (chunks of a fixed number of
// elements dealt round robin). Pure arithmetic: where an element lives, and how far its home holds it contiguously.
#pragma once
#include <cstdint>

namespace ulibc::global {

class Distribution {
 public:
  // `elements` elements of `unit` bytes over `ranks` ranks. Error(input) for ranks < 1, unit < 1, a chunk < 1, or
  // a size whose bytes overflow 64 bits.
  static Distribution block(std::uint64_t elements, std::uint64_t unit, int ranks);
  static Distribution cyclic(std::uint64_t elements, std::uint64_t unit, int ranks, std::uint64_t chunk);

  std::uint64_t elements() const { return elements_; }
  std::uint64_t unit() const { return unit_; }
  std::uint64_t bytes() const { return elements_ * unit_; }
  int ranks() const { return ranks_; }
  bool is_cyclic() const { return chunk_ != 0; }
  std::uint64_t elements_on(int rank) const;  // how many elements rank holds

  // Where element e (< elements()) lives: its home rank, its index in the home's own elements, and how many
  // elements from e on the home holds contiguously (to the end of its share or chunk).
  struct Place {
    int home = 0;
    std::uint64_t index = 0;
    std::uint64_t run = 0;
  };
  Place locate(std::uint64_t e) const;

 private:
  Distribution(std::uint64_t elements, std::uint64_t unit, int ranks, std::uint64_t chunk);
  std::uint64_t first_of(int rank) const;  // block: the rank's first element

  std::uint64_t elements_ = 0, unit_ = 1;
  int ranks_ = 1;
  std::uint64_t chunk_ = 0;  // 0: block
};

}  // namespace ulibc::global
