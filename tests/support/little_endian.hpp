// little_endian.hpp — binary files spelled out byte by byte, as the readers' tests write them.
#pragma once
#include <cstdint>
#include <string>

namespace ulibc::testing {

// Appends the low `bytes` bytes of x to `out`, least significant first.
inline void put_le(std::string& out, std::uint64_t x, int bytes) {
  for (int i = 0; i < bytes; ++i) out += static_cast<char>(x >> (8 * i) & 0xff);
}

}  // namespace ulibc::testing
