#include "os/process.hpp"

#include <sched.h>

#include <cerrno>
#include <cstring>
#include <vector>

#include "ulibc/error.hpp"

namespace ulibc::os {

CpuSet thread_affinity() {
  // The kernel rejects a buffer smaller than its own mask (EINVAL), so grow.
  for (std::size_t bytes = 128; bytes <= (CpuSet::kMaxId + 1) / 8; bytes *= 2) {
    std::vector<unsigned long> buf(bytes / sizeof(unsigned long));
    if (::sched_getaffinity(0, bytes, reinterpret_cast<cpu_set_t*>(buf.data())) == 0) {
      CpuSet out;
      constexpr int kWordBits = 8 * sizeof(unsigned long);
      for (std::size_t w = 0; w < buf.size(); ++w)
        for (int b = 0; b < kWordBits; ++b)
          if (buf[w] >> b & 1ul) out.set(static_cast<int>(w) * kWordBits + b);
      return out;
    }
    if (errno != EINVAL) break;
  }
  throw system_error(std::string("sched_getaffinity: ") + std::strerror(errno));
}

}  // namespace ulibc::os
