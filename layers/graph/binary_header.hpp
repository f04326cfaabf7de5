// graph/binary_header.hpp — the header both binary graph formats start with (graph/edge_io.cpp's edge lists,
// graph/dimacs_io.cpp's weighted graphs): an 8-byte magic, the vertex count and the count of what follows.
#pragma once
#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <istream>
#include <string>
#include <string_view>

#include "graph/edge_list.hpp"
#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {

// The header both binary formats start with: an 8-byte magic, the vertex count
// and the count of what follows (edges, arcs), as little-endian uint64.
constexpr std::size_t kHeaderBytes = 24;
struct BinaryHeader {
  std::uint64_t vertices = 0, count = 0;
};

// Reads and checks the header: the magic (`what` names the format in the
// message), its length, a vertex count that 32-bit ids allow.
inline BinaryHeader read_binary_header(std::istream& in, const std::string& source, std::string_view magic,
                                       std::string_view what) {
  unsigned char bytes[kHeaderBytes] = {};
  in.read(reinterpret_cast<char*>(bytes), kHeaderBytes);
  const auto got = static_cast<std::size_t>(in.gcount());
  const std::size_t magic_bytes = std::min(got, magic.size());
  if (got == 0 || std::memcmp(bytes, magic.data(), magic_bytes) != 0)
    throw input_error(fmt::format("{}: not a {} (it does not start with \"{}\")", source, what, magic));
  if (got < kHeaderBytes)
    throw input_error(
        fmt::format("{}: truncated: the header ends after {} of its {} bytes", source, got, kHeaderBytes));
  const BinaryHeader h{io::load_le64(bytes + 8), io::load_le64(bytes + 16)};
  if (h.vertices > static_cast<std::uint64_t>(kMaxVertices))
    throw input_error(fmt::format("{}: the header declares {} vertices, more than the {} that 32-bit ids allow", source,
                                  h.vertices, kMaxVertices));
  return h;
}

// Writes the header; `magic` is 8 bytes.
inline void write_binary_header(io::OutputFile& out, std::string_view magic, const BinaryHeader& h) {
  unsigned char bytes[kHeaderBytes] = {};
  std::memcpy(bytes, magic.data(), std::min<std::size_t>(magic.size(), 8));
  io::store_le64(bytes + 8, h.vertices);
  io::store_le64(bytes + 16, h.count);
  out.write(bytes, kHeaderBytes);
}

}  // namespace ulibc::graph
