// dimacs_io_test.cpp — the DIMACS shortest-path formats (.gr, .co, .ss, .p2p)
// and the binary weighted graph: what each reader accepts, every refusal
// naming its line, round trips through the writers, the binary layout byte for
// byte, cut-short and corrupt binary files.
#include "graph/dimacs_io.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "graph/weighted_graph.hpp"
#include "little_endian.hpp"
#include "pipe_stream.hpp"

namespace {

using namespace ulibc::graph;
using ulibc::testing::expect_input_error;
using ulibc::testing::expect_system_error;
using ulibc::testing::input_error_of;
using ulibc::testing::PipeBuf;
namespace fs = std::filesystem;

// Files in a fresh temporary directory, removed with it.
class Files {
 public:
  std::string path(const std::string& name) const { return (fs::path(dir_.path()) / name).string(); }
  std::string write(const std::string& name, const std::string& bytes) const {
    std::ofstream(path(name), std::ios::binary) << bytes;
    return path(name);
  }
  std::string read(const std::string& name) const {
    std::ifstream in(path(name), std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

 private:
  ulibc::testing::TempDir dir_;
};

ArcList parse_graph(const std::string& text) {
  std::istringstream in(text);
  return read_dimacs_graph(in, "road.gr");
}

Coordinates parse_coordinates(const std::string& text, std::int64_t vertices) {
  std::istringstream in(text);
  return read_dimacs_coordinates(in, "road.co", vertices);
}

std::vector<Vertex> parse_sources(const std::string& text, std::int64_t vertices) {
  std::istringstream in(text);
  return read_dimacs_sources(in, "road.ss", vertices);
}

std::vector<VertexPair> parse_pairs(const std::string& text, std::int64_t vertices) {
  std::istringstream in(text);
  return read_dimacs_pairs(in, "road.p2p", vertices);
}

WeightedGraph parse_binary_graph(const std::string& bytes) {
  std::istringstream in(bytes);
  return read_binary_graph(in, "road.bin");
}

void expect_graph_error(const std::string& text, const std::string& needle) {
  expect_input_error([&] { parse_graph(text); }, needle);
}

void expect_equal(const ArcList& got, const ArcList& want) {
  EXPECT_EQ(got.vertices, want.vertices);
  EXPECT_TRUE(got.arcs == want.arcs) << got.arcs.size() << " arcs, " << want.arcs.size() << " expected";
}

void expect_equal(const WeightedGraph& got, const WeightedGraph& want) {
  EXPECT_EQ(got.offsets(), want.offsets());
  EXPECT_TRUE(got.arcs() == want.arcs()) << got.arcs().size() << " arcs, " << want.arcs().size() << " expected";
}

// ---- .gr ------------------------------------------------------------------------------

// The sample graph of the challenge's format description.
const char* const kSampleGraph =
    "c 9th DIMACS Implementation Challenge: Shortest Paths\n"
    "c http://www.dis.uniroma1.it/~challenge9\n"
    "c Sample graph file\n"
    "c\n"
    "p sp 4 5\n"
    "c graph contains 4 nodes and 5 arcs\n"
    "c node ids are numbers in 1..4\n"
    "c\n"
    "a 1 2 17\n"
    "c\n"
    "a 1 3 10\n"
    "a 2 4 2\n"
    "c\n"
    "a 3 2 0\n"
    "a 3 4 5\n"
    "c\n";

TEST(DimacsGraph, ReadsTheSampleGraph0Based) {
  expect_equal(parse_graph(kSampleGraph), {4, {{0, 1, 17}, {0, 2, 10}, {1, 3, 2}, {2, 1, 0}, {2, 3, 5}}});
}

TEST(DimacsGraph, KeepsParallelArcsSelfLoopsAndExtremeWeights) {
  expect_equal(parse_graph("p sp 3 5\na 1 2 7\na 1 2 7\na 1 2 3\na 3 3 0\na 2 1 4294967295\n"),
               {3, {{0, 1, 7}, {0, 1, 7}, {0, 1, 3}, {2, 2, 0}, {1, 0, kMaxWeight}}});
}

TEST(DimacsGraph, ToleratesBlanksCommentsAndLineEnds) {
  // Tabs, runs of blanks, Windows line ends, blank lines, comments anywhere,
  // leading zeros, and a last line without a line end.
  expect_equal(parse_graph("c first\r\n\r\n  p\tsp  3 2 \r\nc\n\n a 1\t 003 9\r\ncomment without a blank\na 3 1 0"),
               {3, {{0, 2, 9}, {2, 0, 0}}});
}

TEST(DimacsGraph, GraphsWithoutArcs) {
  expect_equal(parse_graph("p sp 0 0\n"), {0, {}});
  expect_equal(parse_graph("c isolated vertices only\np sp 5 0"), {5, {}});
  expect_equal(parse_graph("p sp 2147483647 0\n"), {kMaxVertices, {}});
}

TEST(DimacsGraph, RefusesUnknownLineTypes) {
  expect_graph_error("p sp 2 1\nx 1 2 3\n", "road.gr:2: unknown line type 'x' (a .gr file has 'c', 'p' and 'a' lines)");
  expect_graph_error("p sp 2 1\narc 1 2 3\n", "road.gr:2: unknown line type 'arc'");
  expect_graph_error("p sp 2 1\na1 2 3\n", "road.gr:2: unknown line type 'a1'");
  expect_graph_error("p sp 2 1\nv 1 2 3\n", "road.gr:2: unknown line type 'v'");
  expect_graph_error("p sp 2 1\n\x01 1 2 3\n", "road.gr:2: unknown line type '\\x01'");
}

TEST(DimacsGraph, RefusesAMissingDuplicateOrMisplacedProblemLine) {
  expect_graph_error("", "road.gr: the file ends without a problem line ('p sp N M')");
  expect_graph_error("c only\nc comments\n", "road.gr:2: the file ends without a problem line ('p sp N M')");
  expect_graph_error("c\na 1 2 3\np sp 2 1\n",
                     "road.gr:2: 'a' line before the problem line ('p sp N M' must come first)");
  expect_graph_error("c\np sp 2 2\na 1 2 3\np sp 2 2\n", "road.gr:4: a second problem line (the first is line 2)");
}

TEST(DimacsGraph, RefusesOtherProblemKinds) {
  expect_graph_error("p max 5 6\n", "road.gr:1: 'p max 5 6' is not the problem line of a .gr file ('p sp N M')");
  expect_graph_error("c\np aux sp ss 3\n", "road.gr:2: 'p aux sp ss 3' is not the problem line of a .gr file");
  expect_graph_error("p SP 2 1\r\n", "road.gr:1: 'p SP 2 1' is not the problem line");
  expect_graph_error("p\n", "road.gr:1: 'p' is not the problem line");
}

TEST(DimacsGraph, RefusesBadCounts) {
  expect_graph_error("p sp 5\n", "road.gr:1: the problem line lacks the arc count ('p sp N M')");
  expect_graph_error("p sp\n", "road.gr:1: the problem line lacks the vertex count");
  expect_graph_error("p sp 5 1 9\n", "road.gr:1: the problem line has more than 'p sp N M': '9'");
  expect_graph_error("p sp five 1\n", "road.gr:1: vertex count 'five' is not a whole number");
  expect_graph_error("p sp 5 1.0\n", "road.gr:1: arc count '1.0' is not a whole number");
  expect_graph_error("p sp -5 1\n", "road.gr:1: vertex count -5 is negative");
  expect_graph_error("p sp 5 -99999999999999999999\n", "road.gr:1: arc count -99999999999999999999 is negative");
  expect_graph_error("p sp 5 99999999999999999999\n",
                     "road.gr:1: arc count 99999999999999999999 is beyond 9223372036854775807");
  expect_graph_error("p sp 2147483648 0\n",
                     "road.gr:1: vertex count 2147483648 is beyond 2147483647, the most that 32-bit ids allow");
}

TEST(DimacsGraph, RefusesMissingOrExtraFields) {
  expect_graph_error("p sp 2 1\na 1 2\n", "road.gr:2: the 'a' line has 2 of its 3 numbers ('a U V W')");
  expect_graph_error("p sp 2 1\na\n", "road.gr:2: the 'a' line has 0 of its 3 numbers");
  expect_graph_error("p sp 2 1\na 1 2 3 4\n", "road.gr:2: the 'a' line has more than its 3 numbers ('a U V W'): '4'");
}

TEST(DimacsGraph, RefusesIdsOutsideTheGraph) {
  expect_graph_error("p sp 5 2\na 1 2 3\na 0 2 3\n", "road.gr:3: arc tail 0 is not a vertex: ids run 1..5");
  expect_graph_error("p sp 5 1\na 1 6 3\n", "road.gr:2: arc head 6 is not a vertex: ids run 1..5");
  expect_graph_error("p sp 5 1\na -1 2 3\n", "road.gr:2: arc tail -1 is not a vertex");
  expect_graph_error("p sp 5 1\na 1 99999999999999999999 3\n",
                     "road.gr:2: arc head 99999999999999999999 is not a vertex");
  expect_graph_error("p sp 5 1\na 1 2x 3\n", "road.gr:2: arc head '2x' is not a vertex id");
  expect_graph_error("p sp 5 1\na +1 2 3\n", "road.gr:2: arc tail '+1' is not a vertex id");
  expect_graph_error("p sp 0 1\na 1 1 3\n", "road.gr:2: arc tail 1 is not a vertex: the graph has none");
}

TEST(DimacsGraph, RefusesWeightsOutside32BitsOrNegative) {
  expect_graph_error("c\np sp 2 3\na 1 2 3\nc\nc\nc\na 1 2 -3\n",
                     "road.gr:7: arc weight -3 is negative (shortest paths need weights >= 0)");
  expect_graph_error("p sp 2 1\na 1 2 -99999999999999999999\n",
                     "road.gr:2: arc weight -99999999999999999999 is negative");
  const std::string beyond = input_error_of([] { parse_graph("p sp 2 1\na 1 2 4294967296\n"); });
  EXPECT_NE(beyond.find("road.gr:2: arc weight 4294967296 is beyond 4294967295"), std::string::npos) << beyond;
  EXPECT_NE(beyond.find("32-bit"), std::string::npos) << beyond;
  EXPECT_NE(beyond.find("overflow"), std::string::npos) << beyond;
  expect_graph_error("p sp 2 1\na 1 2 123456789012345678901234567890\n",
                     "road.gr:2: arc weight 123456789012345678901234567890 is beyond 4294967295");
  expect_graph_error("p sp 2 1\na 1 2 1.5\n", "road.gr:2: arc weight '1.5' is not a whole number");
}

TEST(DimacsGraph, RefusesArcCountsThatDisagreeWithTheProblemLine) {
  expect_graph_error("c\np sp 3 4\na 1 2 3\na 2 3 4\nc end\n",
                     "road.gr:5: the file ends after 2 of the 4 arcs that the problem line (line 2) declares");
  expect_graph_error("p sp 3 1\na 1 2 3\nc\na 2 3 4\na 3 1 1\n",
                     "road.gr:4: arc 2 is one more than the 1 that the problem line (line 1) declares");
  expect_graph_error("p sp 3 0\na 1 2 3\n", "road.gr:2: arc 1 is one more than the 0");
}

TEST(DimacsGraph, AHugeDeclaredArcCountAllocatesNothingForIt) {
  // Reserving 2^62 arcs would throw std::length_error or bad_alloc, not an input error.
  expect_graph_error("p sp 3 4611686018427387904\na 1 2 3\n",
                     "road.gr:2: the file ends after 1 of the 4611686018427387904 arcs");
  expect_graph_error("p sp 3 9223372036854775807\n", "the file ends after 0 of the 9223372036854775807 arcs");
}

TEST(DimacsGraph, ReadsAFileWithoutAFinalLineEnd) {
  Files files;
  expect_equal(arc_list(read_weighted_graph(files.write("g.gr", "p sp 2 2\na 1 2 3\na 2 1 4"))),
               {2, {{0, 1, 3}, {1, 0, 4}}});
  const std::string bad = files.write("bad.gr", "p sp 2 2\na 1 2 3\na 2 1 x");
  expect_input_error([&] { read_weighted_graph(bad); }, bad + ":3: arc weight 'x' is not a whole number");
}

// ---- Graph round trips ---------------------------------------------------------------

// Graphs with what the formats must carry exactly: parallel arcs, self-loops,
// zero and largest weights, isolated vertices (also the last), no arcs at all.
std::vector<ArcList> awkward_graphs() {
  return {{0, {}},
          {1, {}},
          {7, {}},
          {1, {{0, 0, 0}}},
          {6, {{0, 1, 7}, {0, 1, 7}, {0, 1, 2}, {3, 3, 0}, {3, 0, kMaxWeight}, {1, 4, 1}, {4, 1, 0}, {0, 3, 100}}}};
}

// A bigger graph: enough lines to cross the text writer's buffer many times.
ArcList big_graph() {
  ArcList g{50000, {}};
  std::uint64_t x = 88172645463325252ULL;  // xorshift: any fixed sequence will do
  for (int i = 0; i < 200000; ++i) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    g.arcs.push_back(
        {static_cast<Vertex>(x % 50000), static_cast<Vertex>((x >> 20) % 50000), static_cast<Weight>(x >> 32)});
  }
  return g;
}

TEST(DimacsGraph, TextRoundTrips) {
  Files files;
  std::vector<ArcList> graphs = awkward_graphs();
  graphs.push_back(big_graph());
  for (const ArcList& list : graphs) {
    const WeightedGraph g = build_weighted(list);
    write_dimacs_graph(g, files.path("g.gr"));
    std::ifstream in(files.path("g.gr"), std::ios::binary);
    expect_equal(read_dimacs_graph(in, "g.gr"), arc_list(g));
    expect_equal(read_weighted_graph(files.path("g.gr")), g);
  }
}

TEST(DimacsGraph, WriterOutput) {
  Files files;
  write_dimacs_graph(build_weighted({3, {{2, 0, 5}, {0, 1, 4294967295}, {0, 0, 0}}}), files.path("g.gr"));
  EXPECT_EQ(files.read("g.gr"),
            "c ULIBC weighted graph: 3 vertices, 3 arcs\n"
            "p sp 3 3\n"
            "a 1 2 4294967295\n"
            "a 1 1 0\n"
            "a 3 1 5\n");
}

TEST(BinaryGraph, RoundTrips) {
  Files files;
  std::vector<ArcList> graphs = awkward_graphs();
  graphs.push_back(big_graph());
  for (const ArcList& list : graphs) {
    const WeightedGraph g = build_weighted(list);
    write_binary_graph(g, files.path("g.bin"));
    expect_equal(read_weighted_graph(files.path("g.bin")), g);
    std::ifstream in(files.path("g.bin"), std::ios::binary);
    const WeightedGraph back = read_binary_graph(in, "g.bin");
    expect_equal(back, g);
    EXPECT_EQ(back.min_weight(), g.min_weight());
    EXPECT_EQ(back.max_weight(), g.max_weight());
  }
}

using ulibc::testing::put_le;

// A binary graph spelled out: the header as given, the offsets as uint64, the
// arcs as (uint32 head, uint32 weight).
std::string binary_graph_file(std::uint64_t vertices, std::uint64_t arcs, const std::vector<std::uint64_t>& offsets,
                              const std::vector<std::uint32_t>& heads_and_weights) {
  std::string out(kWeightedMagic, sizeof kWeightedMagic);
  put_le(out, vertices, 8);
  put_le(out, arcs, 8);
  for (std::uint64_t o : offsets) put_le(out, o, 8);
  for (std::uint32_t x : heads_and_weights) put_le(out, x, 4);
  return out;
}

TEST(BinaryGraph, FileIsTheDocumentedLayout) {
  Files files;
  write_binary_graph(build_weighted({3, {{2, 0, 5}, {0, 1, 4294967295}, {0, 2, 258}}}), files.path("g.bin"));
  EXPECT_EQ(files.read("g.bin"), binary_graph_file(3, 3, {0, 2, 2, 3}, {1, 4294967295, 2, 258, 0, 5}));
  EXPECT_EQ(files.read("g.bin").substr(0, 9), std::string("ULIBCWG1\x03", 9));
}

void expect_binary_graph_error(const std::string& bytes, const std::string& needle) {
  expect_input_error([&] { parse_binary_graph(bytes); }, needle);
}

TEST(BinaryGraph, RefusesABadMagicOrHeader) {
  expect_binary_graph_error("ULIBCEL1" + binary_graph_file(0, 0, {0}, {}).substr(8),
                            "road.bin: not a binary weighted graph (it does not start with \"ULIBCWG1\")");
  expect_binary_graph_error("", "road.bin: not a binary weighted graph");
  expect_binary_graph_error("ULIBCWG1\x01", "road.bin: truncated: the header ends after 9 of its 24 bytes");
  expect_binary_graph_error(binary_graph_file(2147483648ULL, 0, {}, {}),
                            "road.bin: the header declares 2147483648 vertices, more than the 2147483647");
}

TEST(BinaryGraph, RefusesABadShape) {
  expect_binary_graph_error(binary_graph_file(3, 2, {0, 2, 1, 2}, {0, 1, 1, 1}),
                            "road.bin: weighted graph: the offsets decrease");
  expect_binary_graph_error(binary_graph_file(3, 2, {1, 1, 2, 2}, {0, 1, 1, 1}),
                            "road.bin: weighted graph: the offsets must start with 0");
  expect_binary_graph_error(binary_graph_file(3, 2, {0, 1, 1, 1}, {0, 1, 1, 1}),
                            "road.bin: weighted graph: the offsets end at 1");
  expect_binary_graph_error(binary_graph_file(3, 2, {0, 1, 2, 2}, {0, 1, 3, 1}),
                            "road.bin: weighted graph: arc 1 heads to 3");
  expect_binary_graph_error(binary_graph_file(3, 1, {0, 1, 1, 1}, {0xffffffff, 1}),
                            "road.bin: weighted graph: arc 0 heads to");
  expect_binary_graph_error(binary_graph_file(0, 1, {0}, {0, 1}), "road.bin: weighted graph: the offsets end at 0");
}

TEST(BinaryGraph, RefusesSizesThatDisagreeWithTheHeaderWithoutAllocating) {
  expect_binary_graph_error(
      binary_graph_file(3, 2, {0, 1, 2}, {}),
      "road.bin: truncated: the header declares 3 vertices (4 offsets) and 2 arcs, but the file ends "
      "after 3 offsets");
  expect_binary_graph_error(
      binary_graph_file(3, 2, {0, 1, 2, 2}, {0, 1, 1}),
      "road.bin: truncated: the header declares 3 vertices (4 offsets) and 2 arcs, but the file ends "
      "after all offsets and 1 arcs");
  // 2^60 arcs would be 8 EiB, 2^31 vertices 16 GiB of offsets: measured first.
  expect_binary_graph_error(binary_graph_file(3, 1ULL << 60, {0, 0, 0, 0}, {}), "after all offsets and 0 arcs");
  expect_binary_graph_error(binary_graph_file(3, ~0ULL, {0, 0, 0, 0}, {}), "18446744073709551615 arcs");
  expect_binary_graph_error(binary_graph_file(2147483647, 0, {0}, {}),
                            "(2147483648 offsets) and 0 arcs, but the file ends after 1 offsets");
  expect_binary_graph_error(binary_graph_file(1, 0, {0, 0}, {}) + "x",
                            "road.bin: 1 stray bytes after the last of the 0 arcs");
}

TEST(BinaryGraph, EveryCutShortFileIsRefused) {
  Files files;
  write_binary_graph(build_weighted({3, {{0, 1, 5}, {2, 2, 0}}}), files.path("whole.bin"));
  const std::string bytes = files.read("whole.bin");
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    SCOPED_TRACE(::testing::Message() << size << " of " << bytes.size() << " bytes");
    const std::string cut = bytes.substr(0, size);
    expect_input_error([&] { parse_binary_graph(cut); }, size == 0 ? "not a binary weighted graph" : "truncated");
    if (size == 0) continue;  // an empty file is an empty .gr text, without a problem line
    const std::string path = files.write("cut.bin", cut);
    expect_input_error([&] { read_weighted_graph(path); }, path + ": truncated");
  }
}

WeightedGraph parse_binary_graph_pipe(const std::string& bytes) {
  PipeBuf buf(bytes);
  std::istream in(&buf);
  return read_binary_graph(in, "pipe");
}

TEST(BinaryGraph, ReadsFromAStreamThatCannotSeek) {
  expect_equal(parse_binary_graph_pipe(binary_graph_file(2, 1, {0, 0, 1}, {0, 9})), WeightedGraph({0, 0, 1}, {{0, 9}}));
  expect_input_error(
      [] {
        parse_binary_graph_pipe(binary_graph_file(2, 2, {0, 0, 1}, {0, 9}));
      },
      "pipe: truncated: the header declares 2 vertices (3 offsets) and 2 arcs, but the file ends after "
      "all offsets and 1 arcs");
  expect_input_error(
      [] {
        parse_binary_graph_pipe(binary_graph_file(2147483647, 1ULL << 60, {0, 0}, {}));
      },
      "ends after 2 offsets");
  expect_input_error(
      [] {
        parse_binary_graph_pipe(binary_graph_file(2, 1, {0, 0, 1}, {0, 9}) + "zz");
      },
      "pipe: 2 stray bytes");
  // Arcs beyond one chunk of the bounded reads.
  const WeightedGraph g = build_weighted(big_graph());
  Files files;
  write_binary_graph(g, files.path("g.bin"));
  expect_equal(parse_binary_graph_pipe(files.read("g.bin")), g);
}

TEST(DimacsGraph, ReadsFromAStreamThatCannotSeek) {
  PipeBuf buf(kSampleGraph);
  std::istream in(&buf);
  expect_equal(read_dimacs_graph(in, "pipe"), parse_graph(kSampleGraph));
}

// ---- Files ----------------------------------------------------------------------------

TEST(WeightedGraphFiles, ErrorsNameTheFileAndLine) {
  Files files;
  const std::string path = files.write("bad.gr", "p sp 2 1\na 1 2 -1\n");
  expect_input_error([&] { read_weighted_graph(path); }, path + ":2: arc weight -1 is negative");
}

TEST(WeightedGraphFiles, RefusesWhatCannotBeOpened) {
  Files files;
  const std::string missing = files.path("no_such.gr");
  expect_input_error([&] { read_weighted_graph(missing); }, "cannot open " + missing + ": No such file or directory");
  expect_input_error([&] { read_dimacs_coordinates(missing, -1); }, "cannot open " + missing);
  expect_input_error([&] { read_dimacs_sources(missing, -1); }, "cannot open " + missing);
  expect_input_error([&] { read_dimacs_pairs(missing, -1); }, "cannot open " + missing);
  expect_input_error([&] { read_weighted_graph(files.path("")); }, "Is a directory");
}

TEST(WeightedGraphFiles, WriteFailuresAreSystemErrorsNamingThePath) {
  Files files;
  const std::string nowhere = files.path("no_such_dir/g");
  const WeightedGraph g = build_weighted({2, {{0, 1, 3}}});
  const std::vector<std::pair<const char*, std::function<void(const std::string&)>>> writers = {
      {"graph", [&](const std::string& p) { write_dimacs_graph(g, p); }},
      {"binary", [&](const std::string& p) { write_binary_graph(g, p); }},
      {"coordinates",
       [](const std::string& p) {
         write_dimacs_coordinates({{1}, {2}}, p);
       }},
      {"sources", [](const std::string& p) { write_dimacs_sources({0}, p); }},
      {"pairs", [](const std::string& p) {
         write_dimacs_pairs({{0, 1}}, p);
       }}};
  for (const auto& [name, write] : writers) {
    SCOPED_TRACE(name);
    expect_system_error([&] { write(nowhere); }, "cannot create " + nowhere);
    if (fs::exists("/dev/full"))
      expect_system_error([&] { write("/dev/full"); }, "cannot write /dev/full: No space left");
  }
}

// ---- .co ------------------------------------------------------------------------------

const char* const kSampleCoordinates =
    "c 9th DIMACS Implementation Challenge: Shortest Paths\n"
    "c Sample coordinates file\n"
    "p aux sp co 4\n"
    "c\n"
    "v 3 -73530767 41085396\n"
    "v 1 -73530767 41086098\n"
    "v 4 0 -9223372036854775808\n"
    "v 2 9223372036854775807 41085403\n";

TEST(DimacsCoordinates, ReadsIdsInAnyOrder) {
  const Coordinates want{{-73530767, 9223372036854775807, -73530767, 0}, {41086098, 41085403, 41085396, INT64_MIN}};
  EXPECT_EQ(parse_coordinates(kSampleCoordinates, 4), want);
  EXPECT_EQ(parse_coordinates(kSampleCoordinates, -1), want);  // the count from the problem line
  EXPECT_EQ(parse_coordinates("p aux sp co 0\n", 0), Coordinates{});
}

void expect_coordinates_error(const std::string& text, std::int64_t vertices, const std::string& needle) {
  expect_input_error([&] { parse_coordinates(text, vertices); }, needle);
}

TEST(DimacsCoordinates, RefusesMissingRepeatedOrForeignIds) {
  expect_coordinates_error("p aux sp co 3\nv 1 0 0\nv 3 0 0\n", 3,
                           "road.co:3: the file ends after 2 of the 3 coordinate lines that the problem line (line 1) "
                           "declares (vertex 2 has none)");
  expect_coordinates_error("p aux sp co 3\nv 1 0 0\nv 3 0 0\nv 1 5 5\n", 3,
                           "road.co:4: a second 'v' line for vertex 1");
  expect_coordinates_error("p aux sp co 3\nv 4 0 0\n", 3, "road.co:2: vertex 4 is not a vertex: ids run 1..3");
  expect_coordinates_error("p aux sp co 3\nv 0 0 0\n", -1, "road.co:2: vertex 0 is not a vertex: ids run 1..3");
  expect_coordinates_error("p aux sp co 1\nv 1 0 0\nv 1 0 0\n", 1,
                           "road.co:3: coordinate line 2 is one more than the 1");
}

TEST(DimacsCoordinates, RefusesACountOtherThanTheGraphs) {
  expect_coordinates_error("c\np aux sp co 3\n", 4,
                           "road.co:2: the problem line declares 3 vertices but the graph has 4");
  expect_coordinates_error("p aux sp co 2147483648\n", -1, "road.co:1: vertex count 2147483648 is beyond 2147483647");
}

TEST(DimacsCoordinates, RefusesBadLines) {
  expect_coordinates_error("p sp 3 0\n", 3,
                           "road.co:1: 'p sp 3 0' is not the problem line of a .co file ('p aux sp co N')");
  expect_coordinates_error("p aux sp ss 3\n", 3, "road.co:1: 'p aux sp ss 3' is not the problem line of a .co file");
  expect_coordinates_error("p aux sp co 1\na 1 0 0\n", 1,
                           "road.co:2: unknown line type 'a' (a .co file has 'c', 'p' and 'v' lines)");
  expect_coordinates_error("p aux sp co 1\nv 1 0\n", 1, "road.co:2: the 'v' line has 2 of its 3 numbers ('v ID X Y')");
  expect_coordinates_error("p aux sp co 1\nv 1 0 1.5\n", 1, "road.co:2: y coordinate '1.5' is not a whole number");
  expect_coordinates_error("p aux sp co 1\nv 1 -9223372036854775809 0\n", 1,
                           "road.co:2: x coordinate -9223372036854775809 does not fit in 64 bits");
}

TEST(DimacsCoordinates, AHugeDeclaredCountAllocatesNothingForIt) {
  // 2^31 - 1 vertices would be 32 GiB of coordinates: a short text cannot hold them.
  expect_coordinates_error("p aux sp co 2147483647\nv 5 1 1\nv 5 1 1\n", -1,
                           "road.co:3: the file ends after 2 of the 2147483647 coordinate lines");
}

TEST(DimacsCoordinates, RoundTrip) {
  Files files;
  const Coordinates c{{0, -1, INT64_MAX, INT64_MIN}, {7, 0, INT64_MIN, 1}};
  write_dimacs_coordinates(c, files.path("g.co"));
  EXPECT_EQ(files.read("g.co"),
            "c ULIBC coordinates: 4 vertices\np aux sp co 4\nv 1 0 7\nv 2 -1 0\nv 3 9223372036854775807 "
            "-9223372036854775808\nv 4 -9223372036854775808 1\n");
  EXPECT_EQ(read_dimacs_coordinates(files.path("g.co"), 4), c);
  write_dimacs_coordinates({}, files.path("empty.co"));
  EXPECT_EQ(read_dimacs_coordinates(files.path("empty.co"), 0), Coordinates{});
  expect_input_error(
      [&] {
        write_dimacs_coordinates({{1, 2}, {3}}, files.path("bad.co"));
      },
      "cannot write " + files.path("bad.co") + ": 2 x and 1 y coordinates");
  EXPECT_FALSE(fs::exists(files.path("bad.co")));
}

// ---- .ss and .p2p ---------------------------------------------------------------------

TEST(DimacsSources, ReadsSources0Based) {
  const std::string text = "c sample\np aux sp ss 3\nc\ns 1\ns 4\ns 1";
  EXPECT_EQ(parse_sources(text, 4), (std::vector<Vertex>{0, 3, 0}));
  EXPECT_EQ(parse_sources(text, -1), (std::vector<Vertex>{0, 3, 0}));
  EXPECT_EQ(parse_sources("p aux sp ss 0\n", 0), std::vector<Vertex>{});
}

TEST(DimacsSources, RefusesVerticesOutsideTheGraphAndBadCounts) {
  expect_input_error([] { parse_sources("p aux sp ss 2\ns 1\ns 5\n", 4); },
                     "road.ss:3: source 5 is not a vertex: ids run 1..4");
  expect_input_error([] { parse_sources("p aux sp ss 1\ns 0\n", -1); },
                     "road.ss:2: source 0 is not a vertex: ids run 1..2147483647");
  expect_input_error([] { parse_sources("p aux sp ss 1\ns 2147483648\n", -1); },
                     "road.ss:2: source 2147483648 is not a vertex");
  expect_input_error([] { parse_sources("p aux sp ss 3\ns 1\ns 2\n", 4); },
                     "road.ss:3: the file ends after 2 of the 3 sources that the problem line (line 1) declares");
  expect_input_error([] { parse_sources("p aux sp ss 1\ns 1\ns 2\n", 4); },
                     "road.ss:3: source 2 is one more than the 1");
  expect_input_error([] { parse_sources("p aux sp ss 1\ns 1 2\n", 4); },
                     "road.ss:2: the 's' line has more than its 1 numbers ('s ID'): '2'");
  expect_input_error([] { parse_sources("p aux sp p2p 1\nq 1 2\n", 4); },
                     "road.ss:1: 'p aux sp p2p 1' is not the problem line of a .ss file ('p aux sp ss K')");
  expect_input_error([] { parse_sources("p aux sp ss 4611686018427387904\ns 1\n", 4); },
                     "ends after 1 of the 4611686018427387904 sources");
}

TEST(DimacsPairs, ReadsPairs0Based) {
  EXPECT_EQ(parse_pairs("c\np aux sp p2p 2\nq 1 4\nq 3 3\n", 4), (std::vector<VertexPair>{{0, 3}, {2, 2}}));
}

TEST(DimacsPairs, RefusesVerticesOutsideTheGraphAndBadLines) {
  expect_input_error([] { parse_pairs("p aux sp p2p 2\nq 1 2\nq 2 5\n", 4); },
                     "road.p2p:3: query target 5 is not a vertex: ids run 1..4");
  expect_input_error([] { parse_pairs("p aux sp p2p 1\nq -2 1\n", 4); }, "road.p2p:2: query source -2 is not a vertex");
  expect_input_error([] { parse_pairs("p aux sp p2p 1\nq 1\n", 4); },
                     "road.p2p:2: the 'q' line has 1 of its 2 numbers ('q S T')");
  expect_input_error([] { parse_pairs("p aux sp p2p 1\ns 1\n", 4); }, "road.p2p:2: unknown line type 's'");
  expect_input_error([] { parse_pairs("p aux sp p2p 2\nq 1 2\n", 4); },
                     "road.p2p:2: the file ends after 1 of the 2 queries");
  expect_input_error([] { parse_pairs("p aux sp p2p -1\n", 4); }, "road.p2p:1: query count -1 is negative");
}

TEST(DimacsProblems, RoundTrip) {
  Files files;
  const std::vector<Vertex> sources{0, 2147483646, 0, 5};
  write_dimacs_sources(sources, files.path("g.ss"));
  EXPECT_EQ(files.read("g.ss"),
            "c ULIBC single-source problem: 4 sources\np aux sp ss 4\ns 1\ns 2147483647\ns 1\ns 6\n");
  EXPECT_EQ(read_dimacs_sources(files.path("g.ss"), -1), sources);
  expect_input_error([&] { read_dimacs_sources(files.path("g.ss"), 6); },
                     ":4: source 2147483647 is not a vertex: ids run 1..6");

  const std::vector<VertexPair> pairs{{0, 1}, {6, 6}, {2147483646, 0}};
  write_dimacs_pairs(pairs, files.path("g.p2p"));
  EXPECT_EQ(files.read("g.p2p"),
            "c ULIBC point-to-point problem: 3 queries\np aux sp p2p 3\nq 1 2\nq 7 7\nq 2147483647 1\n");
  EXPECT_EQ(read_dimacs_pairs(files.path("g.p2p"), -1), pairs);

  write_dimacs_sources({}, files.path("empty.ss"));
  EXPECT_EQ(read_dimacs_sources(files.path("empty.ss"), 0), std::vector<Vertex>{});
}

TEST(DimacsProblems, WritersRefuseIdsThatCouldNotBeReadBack) {
  Files files;
  const std::string path = files.path("bad");
  expect_input_error(
      [&] {
        write_dimacs_sources({0, -1}, path);
      },
      "cannot write " + path + ": source 1 is vertex -1, not in 0..2147483646");
  expect_input_error([&] { write_dimacs_sources({2147483647}, path); }, "source 0 is vertex 2147483647");
  expect_input_error([&] { write_dimacs_pairs({{0, 1}, {1, -5}}, path); }, "query target 1 is vertex -5");
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
