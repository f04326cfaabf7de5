// tests/fuzz/edge_io_fuzz.cpp — libFuzzer target for the edge-list readers.
//
// Each input is read as text and as binary (graph/edge_io.hpp). Properties:
//   - a reader returns an edge list or throws ulibc::Error of kind input with
//     a one-line message naming the source; anything else thrown, a crash, a
//     sanitizer report or an allocation beyond the input's size is a bug;
//   - an accepted list is valid: 0 <= vertices <= kMaxVertices, every id in
//     0..vertices-1, and no more edges than the input could spell (a text line
//     holds at least 4 bytes "u v\n" but the last, a binary edge exactly 8);
//   - a binary list is accepted exactly when the input's size matches its header.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_read.hpp"
#include "graph/edge_io.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::graph;

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("edge_io_fuzz", what, input); }

enum class Format { text, binary };

const char* source_of(Format f) { return f == Format::text ? "fuzz.txt" : "fuzz.bin"; }

// The list, or nullopt when the reader threw as promised (fuzz_read.hpp).
std::optional<EdgeList> read(Format format, std::string_view input) {
  return fuzz::read_input("edge_io_fuzz", source_of(format), input, [&](std::istream& in, const std::string& source) {
    return format == Format::text ? read_text_edges(in, source) : read_binary_edges(in, source);
  });
}

void check_valid(const EdgeList& list, std::string_view input) {
  CHECK(list.vertices >= 0 && list.vertices <= kMaxVertices, input);
  for (const Edge& e : list.edges) {
    CHECK(e.u >= 0 && e.u < list.vertices, input);
    CHECK(e.v >= 0 && e.v < list.vertices, input);
  }
}

std::uint64_t le64(std::string_view bytes, std::size_t at) {
  std::uint64_t x = 0;
  for (std::size_t i = 8; i-- > 0;) x = x << 8 | static_cast<unsigned char>(bytes[at + i]);
  return x;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);

  if (const auto text = read(Format::text, input)) {
    check_valid(*text, input);
    CHECK(text->edges.size() <= size / 4 + 1, input);
  }

  const auto binary = read(Format::binary, input);
  if (binary) {
    check_valid(*binary, input);
    CHECK(size >= 24 && binary->edges.size() == (size - 24) / 8, input);
  }
  // The size check comes first: a header that does not match the size never passes.
  const bool sized = size >= 24 && input.substr(0, 8) == std::string_view(kBinaryMagic, 8) && (size - 24) % 8 == 0 &&
                     le64(input, 16) == (size - 24) / 8;
  if (!sized) CHECK(!binary, input);
  return 0;
}
