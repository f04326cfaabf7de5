#include "os/process.hpp"

#include <numaif.h>
#include <sched.h>

#include <bit>
#include <cerrno>
#include <cstring>
#include <vector>

#include "ulibc/error.hpp"

namespace ulibc::os {

namespace {
// Bits of `words` as a set.
CpuSet set_of(const std::vector<unsigned long>& words) {
  CpuSet out;
  constexpr int kWordBits = 8 * sizeof(unsigned long);
  for (std::size_t w = 0; w < words.size(); ++w)
    for (unsigned long bits = words[w]; bits != 0; bits &= bits - 1)
      out.set(static_cast<int>(w) * kWordBits + std::countr_zero(bits));
  return out;
}
}  // namespace

CpuSet thread_affinity() {
  // The kernel rejects a buffer smaller than its own mask (EINVAL), so grow.
  for (std::size_t bytes = 128; bytes <= (CpuSet::kMaxId + 1) / 8; bytes *= 2) {
    std::vector<unsigned long> buf(bytes / sizeof(unsigned long));
    if (::sched_getaffinity(0, bytes, reinterpret_cast<cpu_set_t*>(buf.data())) == 0) return set_of(buf);
    if (errno != EINVAL) break;
  }
  throw system_error(std::string("sched_getaffinity: ") + std::strerror(errno));
}

std::optional<NodeSet> allowed_memory_nodes() {
  // As with affinity, the kernel wants room for all its possible nodes.
  for (unsigned long bits = 1024; bits <= CpuSet::kMaxId + 1ul; bits *= 2) {
    std::vector<unsigned long> buf(bits / (8 * sizeof(unsigned long)));
    if (::get_mempolicy(nullptr, buf.data(), bits, nullptr, MPOL_F_MEMS_ALLOWED) == 0) return set_of(buf);
    if (errno != EINVAL) break;
  }
  return std::nullopt;
}

}  // namespace ulibc::os
