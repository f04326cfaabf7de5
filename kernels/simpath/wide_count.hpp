// simpath/wide_count.hpp — exact path counts of any size, as arrays of 64-bit limbs.
//
// A 16x16 grid has more s-t paths than 128 bits hold. Counts are summed bottom
// up (a node counts its children's paths), so a step's counts need at most
// one bit more than the widest count below it: each step gets exactly the
// limbs it needs and no sum can overflow.
#pragma once
#include <algorithm>
#include <bit>
#include <cstdint>
#include <string>
#include <vector>

#include "harness/page_array.hpp"

namespace ulibc::simpath::detail {

// n numbers of `limbs` limbs each, least significant limb first, each
// after a word the caller tags it with (the reduction: the node's reduced
// name), so that one cache line brings both; not initialised (each is set
// once, by set_sum, before it is read).
class WideCounts {
 public:
  WideCounts() = default;
  WideCounts(std::size_t n, int limbs) : limbs_(limbs), stride_(limbs + 1), data_(n * stride_) {}
  // The same in `room`, another WideCounts' memory, when it holds enough
  // (its pages are resident already: no fault, no zeroing by the kernel).
  WideCounts(std::size_t n, int limbs, harness::PageArray<std::uint64_t>&& room)
      : limbs_(limbs),
        stride_(limbs + 1),
        data_(room.size() >= n * stride_ ? std::move(room) : harness::PageArray<std::uint64_t>(n * stride_)) {}
  // The memory, for another WideCounts; this one is left empty.
  harness::PageArray<std::uint64_t> release() && {
    limbs_ = 0;
    return std::move(data_);
  }

  int limbs() const { return limbs_; }
  std::uint64_t* at(std::size_t i) { return data_.get() + i * stride_ + 1; }
  const std::uint64_t* at(std::size_t i) const { return data_.get() + i * stride_ + 1; }
  std::uint64_t& tag(std::size_t i) { return data_[i * stride_]; }
  std::uint64_t tag(std::size_t i) const { return data_[i * stride_]; }
  std::size_t bytes() const { return data_.size() * sizeof(std::uint64_t); }

  // dst = a + b; a has a_limbs limbs, b b_limbs, dst limbs() (enough by construction).
  void set_sum(std::size_t i, const std::uint64_t* a, int a_limbs, const std::uint64_t* b, int b_limbs) {
    std::uint64_t* dst = at(i);
    if (limbs_ == 1) {  // most steps: the counts below the middle fit a word
      dst[0] = a[0] + b[0];
      return;
    }
    unsigned carry = 0;
    for (int l = 0; l < limbs_; ++l) {
      const std::uint64_t x = l < a_limbs ? a[l] : 0, y = l < b_limbs ? b[l] : 0;
      unsigned long long sum;
      const unsigned c1 = __builtin_uaddll_overflow(x, y, &sum);
      const unsigned c2 = __builtin_uaddll_overflow(sum, carry, &sum);
      dst[l] = sum;
      carry = c1 | c2;
    }
  }

  static int bits(const std::uint64_t* x, int limbs) {
    for (int l = limbs; l-- > 0;)
      if (x[l] != 0) return 64 * l + std::bit_width(x[l]);
    return 0;
  }
  // Limbs for sums of two numbers of at most `bits` bits.
  static int limbs_for_sum(int bits) { return bits / 64 + 1; }

 private:
  int limbs_ = 0;  // 0: empty
  std::size_t stride_ = 1;
  harness::PageArray<std::uint64_t> data_;  // freed straight back to the kernel: see page_array.hpp
};

// The decimal digits of a count.
std::string to_decimal(const std::uint64_t* limbs, int n);

}  // namespace ulibc::simpath::detail
