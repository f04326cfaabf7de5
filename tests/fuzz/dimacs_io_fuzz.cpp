// tests/fuzz/dimacs_io_fuzz.cpp — libFuzzer target for the DIMACS readers and
// the binary weighted graph (graph/dimacs_io.hpp).
//
// Each input is read as a .gr, .co, .ss and .p2p text (the last three both
// with the graph's vertex count unknown and with 3 vertices) and as a binary
// graph. Properties:
//   - a reader returns or throws ulibc::Error of kind input with a one-line
//     message starting with the source; anything else thrown, a crash, a
//     sanitizer report or an allocation beyond the input's size is a bug;
//   - what is accepted is valid: ids 0-based inside the vertex count, the
//     vertex count within 32-bit ids, no more lines than the input could spell
//     (the shortest .gr/.co line is "a 1 1 0\n", 8 bytes, a .ss line 4 and a
//     .p2p line 6, the last without its line end);
//   - an accepted .gr list builds into a CSR graph (when small enough to build);
//   - a binary graph is accepted only when the input's size is what its header
//     declares, and then has the declared counts.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <functional>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_read.hpp"
#include "graph/dimacs_io.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::graph;

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("dimacs_io_fuzz", what, input); }

// What read(istream, source) returns, or nullopt when it threw as promised (fuzz_read.hpp).
template <class Read>
auto read(const char* source, std::string_view input, Read&& reader) {
  return fuzz::read_input("dimacs_io_fuzz", source, input, std::forward<Read>(reader));
}

bool in_range(Vertex v, std::int64_t n) { return v >= 0 && v < n; }

void check_graph(std::string_view input) {
  const auto list =
      read("fuzz.gr", input, [](std::istream& in, const std::string& s) { return read_dimacs_graph(in, s); });
  if (!list) return;
  CHECK(list->vertices >= 0 && list->vertices <= kMaxVertices, input);
  CHECK(list->arcs.size() <= (input.size() + 1) / 8, input);
  for (const WeightedArc& a : list->arcs)
    CHECK(in_range(a.tail, list->vertices) && in_range(a.head, list->vertices), input);
  if (list->vertices > (1 << 16)) return;  // a declared count costs (n + 1) offsets to build
  const WeightedGraph g = build_weighted(*list);
  CHECK(g.vertices() == list->vertices && g.arc_count() == static_cast<EdgeIndex>(list->arcs.size()), input);
}

// The three problem files, with the graph's size unknown and known.
void check_problems(std::string_view input, std::int64_t vertices) {
  const std::int64_t n = vertices < 0 ? kMaxVertices : vertices;
  if (const auto c = read("fuzz.co", input, [&](std::istream& in, const std::string& s) {
        return read_dimacs_coordinates(in, s, vertices);
      })) {
    CHECK(c->x.size() == c->y.size(), input);
    CHECK(vertices < 0 || c->x.size() == static_cast<std::size_t>(vertices), input);
    CHECK(c->x.size() <= (input.size() + 1) / 8, input);
  }
  if (const auto sources = read("fuzz.ss", input, [&](std::istream& in, const std::string& s) {
        return read_dimacs_sources(in, s, vertices);
      })) {
    CHECK(sources->size() <= (input.size() + 1) / 4, input);
    for (const Vertex v : *sources) CHECK(in_range(v, n), input);
  }
  if (const auto pairs = read("fuzz.p2p", input, [&](std::istream& in, const std::string& s) {
        return read_dimacs_pairs(in, s, vertices);
      })) {
    CHECK(pairs->size() <= (input.size() + 1) / 6, input);
    for (const VertexPair& p : *pairs) CHECK(in_range(p.source, n) && in_range(p.target, n), input);
  }
}

std::uint64_t le64(std::string_view bytes, std::size_t at) {
  std::uint64_t x = 0;
  for (std::size_t i = 8; i-- > 0;) x = x << 8 | static_cast<unsigned char>(bytes[at + i]);
  return x;
}

void check_binary(std::string_view input) {
  const auto g =
      read("fuzz.bin", input, [](std::istream& in, const std::string& s) { return read_binary_graph(in, s); });
  if (!g) return;
  CHECK(input.size() >= 24 && input.substr(0, 8) == std::string_view(kWeightedMagic, 8), input);
  const std::uint64_t n = le64(input, 8), m = le64(input, 16);
  CHECK(static_cast<std::uint64_t>(g->vertices()) == n && static_cast<std::uint64_t>(g->arc_count()) == m, input);
  CHECK(input.size() == 24 + 8 * (n + 1) + 8 * m, input);
  for (const Arc& a : g->arcs()) CHECK(in_range(a.head, g->vertices()), input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  check_graph(input);
  check_problems(input, -1);
  check_problems(input, 3);
  check_binary(input);
  return 0;
}
