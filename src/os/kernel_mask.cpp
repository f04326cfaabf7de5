// os/kernel_mask.cpp — processor and node sets to and from the kernel's bit masks.
#include "os/kernel_mask.hpp"

#include <bit>

namespace ulibc::os {

KernelMask::KernelMask(const CpuSet& ids) : KernelMask(ids.last()) {
  for (int id : ids) set(id);
}

CpuSet KernelMask::to_set() const {
  CpuSet out;
  const unsigned long* w = words();
  for (std::size_t i = 0; i < count_; ++i)
    for (unsigned long bits = w[i]; bits != 0; bits &= bits - 1)
      out.set(static_cast<int>(i) * kWordBits + std::countr_zero(bits));
  return out;
}

}  // namespace ulibc::os
