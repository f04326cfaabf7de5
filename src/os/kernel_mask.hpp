// os/kernel_mask.hpp — the bit mask in which the kernel takes and gives processor and node sets
// (sched_setaffinity, sched_getaffinity, mbind, get_mempolicy): id i is bit i % 64 of word i / 64.
// Convention (os/os.hpp's rule): nothing here fails; ids are 0..CpuSet::kMaxId, which the set types guarantee.
#pragma once
#include <algorithm>
#include <cstddef>
#include <vector>

#include "ulibc/cpuset.hpp"

namespace ulibc::os {

class KernelMask {
 public:
  static constexpr int kWordBits = 8 * sizeof(unsigned long);

  // An empty mask with room for ids 0..last, and no more: the kernel zero-fills the rest, so binding to
  // processor 3 passes one word, as a hand-written call would. Up to 1024 ids it lives on the stack
  // (binding is a hot call).
  explicit KernelMask(int last) : count_(static_cast<std::size_t>(std::max(last, 0) / kWordBits + 1)) {
    if (count_ > kInline) heap_.assign(count_, 0ul);
  }
  // `ids` in a mask just long enough for its largest (one word when empty).
  explicit KernelMask(const CpuSet& ids);

  void set(int id) { words()[id / kWordBits] |= 1ul << (id % kWordBits); }
  // The ids whose bits are set: what the kernel wrote into the mask.
  CpuSet to_set() const;

  unsigned long* data() { return words(); }
  std::size_t bits() const { return count_ * kWordBits; }
  std::size_t bytes() const { return count_ * sizeof(unsigned long); }

 private:
  static constexpr std::size_t kInline = 1024 / kWordBits;
  unsigned long* words() { return heap_.empty() ? inline_ : heap_.data(); }
  const unsigned long* words() const { return heap_.empty() ? inline_ : heap_.data(); }

  std::size_t count_;
  unsigned long inline_[kInline] = {};
  std::vector<unsigned long> heap_;
};

}  // namespace ulibc::os
