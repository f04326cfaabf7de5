// edge_io_test.cpp — the text and binary edge-list formats: what each reader
// accepts, every refusal (naming the line or edge), round trips through the
// writers, the binary layout byte for byte, and cut-short files.
#include "graph/edge_io.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "graph/generator.hpp"
#include "little_endian.hpp"
#include "pipe_stream.hpp"

namespace {

using namespace ulibc::graph;
using ulibc::testing::expect_input_error;
using ulibc::testing::expect_system_error;
using ulibc::testing::PipeBuf;
namespace fs = std::filesystem;

// A file under the test temporary directory, named after the test, removed on destruction.
class TempFile {
 public:
  explicit TempFile(const std::string& suffix) {
    static int counter = 0;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    path_ = (fs::path(::testing::TempDir()) / ("ulibc_edge_io_" + std::to_string(::getpid()) + "_" + info->name() +
                                               "_" + std::to_string(++counter) + suffix))
                .string();
  }
  ~TempFile() {
    std::error_code ec;
    fs::remove(path_, ec);
  }
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;

  const std::string& path() const { return path_; }
  void write(const std::string& bytes) const { std::ofstream(path_, std::ios::binary) << bytes; }
  std::string read() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
  }

 private:
  std::string path_;
};

EdgeList parse_text(const std::string& text) {
  std::istringstream in(text);
  return read_text_edges(in, "g.txt");
}

EdgeList parse_binary(const std::string& bytes) {
  std::istringstream in(bytes);
  return read_binary_edges(in, "g.bin");
}

void expect_text_error(const std::string& text, const std::string& needle) {
  expect_input_error([&] { parse_text(text); }, needle);
}

void expect_binary_error(const std::string& bytes, const std::string& needle) {
  expect_input_error([&] { parse_binary(bytes); }, needle);
}

void expect_equal(const EdgeList& got, const EdgeList& want) {
  EXPECT_EQ(got.vertices, want.vertices);
  EXPECT_TRUE(got.edges == want.edges) << got.edges.size() << " edges, " << want.edges.size() << " expected";
}

// ---- Text ---------------------------------------------------------------------------

TEST(TextEdges, ReadsEdgesBetweenCommentsBlanksAndExtraColumns) {
  const EdgeList g = parse_text(
      "# a SNAP-style comment\n"
      "% a Matrix Market one\n"
      "\n"
      "0 1\n"
      "1\t2\t0.5 weight and more\n"
      "   \t\n"
      "  3    4  \n"
      "4 4\n"
      "  # an indented comment\n"
      "0 1");  // duplicates and self-loops stay; the last line needs no newline
  expect_equal(g, {5, {{0, 1}, {1, 2}, {3, 4}, {4, 4}, {0, 1}}});
}

TEST(TextEdges, ToleratesWindowsLineEnds) {
  expect_equal(parse_text("# Nodes: 4\r\n0 1\r\n\r\n2 3\r\n"), {4, {{0, 1}, {2, 3}}});
  expect_text_error("0 1\r\n\r\n2 x\r\n", "g.txt line 3: 'x' is not a vertex id");
}

TEST(TextEdges, EmptyInputIsAGraphWithoutVertices) {
  expect_equal(parse_text(""), {0, {}});
  expect_equal(parse_text("# nothing here\n\n"), {0, {}});
}

TEST(TextEdges, VertexCountIsTheLargestIdPlusOne) { expect_equal(parse_text("7 2\n"), {8, {{7, 2}}}); }

TEST(TextEdges, NodesCommentDeclaresTheVertexCount) {
  expect_equal(parse_text("# Nodes: 10 Edges: 1\n0 1\n"), {10, {{0, 1}}});
  expect_equal(parse_text("#Nodes:\t3\n"), {3, {}});
  // Wherever it stands, and repeated with the same count.
  expect_equal(parse_text("0 1\n# Nodes: 2\n# Nodes: 2\n"), {2, {{0, 1}}});
  // Other comments that mention nodes are just comments.
  expect_equal(parse_text("# Directed graph, Nodes: 99\n% Nodes: 99\n0 1\n"), {2, {{0, 1}}});
}

TEST(TextEdges, RefusesBadIdsNamingTheLine) {
  expect_text_error("0 1\n\n# c\n5 -3\n", "g.txt line 4: vertex -3 is negative");
  expect_text_error("-99999999999999999999 1\n", "line 1: vertex -99999999999999999999 is negative");
  expect_text_error("0 1\nx 1\n", "g.txt line 2: 'x' is not a vertex id");
  expect_text_error("0 1\n1 2x\n", "g.txt line 2: '2x' is not a vertex id");
  expect_text_error("+1 2\n", "line 1: '+1' is not a vertex id");
  expect_text_error("1.5 2\n", "line 1: '1.5' is not a vertex id");
  expect_text_error("1,2\n", "line 1: '1,2' is not a vertex id");
  expect_text_error("1 \x01\xff\n", "line 1: '\\x01\\xff' is not a vertex id");
  expect_text_error("0 1\n\n7\n", "g.txt line 3: '7' names one vertex, but an edge needs two");
  expect_text_error("0 1\n\n7 \t \r\n", "g.txt line 3: '7' names one vertex");
}

TEST(TextEdges, RefusesIdsBeyond32Bits) {
  EXPECT_EQ(parse_text("2147483646 0\n").vertices, kMaxVertices);
  expect_text_error("0 2147483647\n", "line 1: vertex 2147483647 is beyond 2147483646");
  expect_text_error("99999999999999999999 0\n", "line 1: vertex 99999999999999999999 is beyond 2147483646");
}

TEST(TextEdges, RefusesIdsBeyondTheDeclaredCount) {
  const std::string lines = "# Nodes: 10\n0 1\n2 3\n4 5\n6 7\n8 9\n9 0\n\n12 1\n";
  expect_text_error(lines, "g.txt line 9: vertex 12 is beyond the 10 vertices declared by '# Nodes: 10'");
  expect_text_error("3 1\n# Nodes: 3\n", "g.txt line 1: vertex 3 is beyond the 3 vertices declared by '# Nodes: 3'");
}

TEST(TextEdges, RefusesBadDeclarations) {
  expect_text_error("0 1\n# Nodes: 3000000000\n", "line 2: '# Nodes: 3000000000' declares more than the 2147483647");
  expect_text_error("# Nodes: 99999999999999999999\n", "declares more than the 2147483647");
  expect_text_error("# Nodes: -4\n", "line 1: '# Nodes: -4' declares a negative vertex count");
  expect_text_error("# Nodes: many\n", "line 1: '# Nodes:' is not followed by a vertex count");
  expect_text_error("# Nodes:\n", "line 1: '# Nodes:' is not followed by a vertex count");
  expect_text_error("# Nodes: 4\n0 1\n# Nodes: 5\n", "line 3: '# Nodes: 5' contradicts '# Nodes: 4' on line 1");
}

// ---- Binary -------------------------------------------------------------------------

using ulibc::testing::put_le;

// A binary edge list spelled out: header fields as given, then the ids as uint32.
std::string binary_file(std::uint64_t vertices, std::uint64_t edges, const std::vector<std::uint32_t>& ids) {
  std::string out(kBinaryMagic, sizeof kBinaryMagic);
  put_le(out, vertices, 8);
  put_le(out, edges, 8);
  for (std::uint32_t id : ids) put_le(out, id, 4);
  return out;
}

TEST(BinaryEdges, FileIsTheDocumentedLayout) {
  TempFile file(".bin");
  write_binary_edges({300, {{1, 258}, {299, 0}}}, file.path());
  EXPECT_EQ(file.read(), binary_file(300, 2, {1, 258, 299, 0}));
  EXPECT_EQ(file.read().substr(0, 10), std::string("ULIBCEL1\x2c\x01", 10));
}

TEST(BinaryEdges, RoundTrips) {
  const EdgeList lists[] = {{0, {}}, {9, {}}, {3, {{0, 1}, {1, 0}, {2, 2}, {0, 1}}}, kronecker({.scale = 10})};
  for (const EdgeList& list : lists) {
    TempFile file(".bin");
    write_binary_edges(list, file.path());
    expect_equal(read_edges(file.path()), list);
    std::ifstream in(file.path(), std::ios::binary);
    expect_equal(read_binary_edges(in, file.path()), list);
  }
}

TEST(BinaryEdges, RefusesABadMagic) {
  expect_binary_error("ULIBCEL2" + binary_file(1, 0, {}).substr(8), "g.bin: not a binary edge list");
  expect_binary_error("", "g.bin: not a binary edge list");
  expect_binary_error("0 1\n", "not a binary edge list");
}

TEST(BinaryEdges, RefusesTooManyVertices) {
  expect_binary_error(binary_file(2147483648ULL, 0, {}),
                      "g.bin: the header declares 2147483648 vertices, more than the 2147483647");
  EXPECT_EQ(parse_binary(binary_file(2147483647ULL, 0, {})).vertices, kMaxVertices);
}

TEST(BinaryEdges, RefusesAnIdBeyondTheVertices) {
  expect_binary_error(binary_file(64, 3, {0, 1, 2, 3, 63, 99}), "g.bin edge 2: vertex 99 is beyond the 64 vertices");
  expect_binary_error(binary_file(64, 2, {0, 1, 0xffffffff, 3}), "g.bin edge 1: vertex 4294967295 is beyond");
  expect_binary_error(binary_file(0, 1, {0, 0}), "g.bin edge 0: vertex 0 is beyond the 0 vertices");
}

TEST(BinaryEdges, RefusesMissingEdgesWithoutAllocatingForThem) {
  expect_binary_error(binary_file(10, 5, {0, 1, 2, 3, 4}),
                      "g.bin: truncated: the header declares 5 edges but the file holds 2");
  // 2^60 edges would be 8 EiB: the reader must compare with the file before allocating.
  expect_binary_error(binary_file(10, 1ULL << 60, {0, 1}), "declares 1152921504606846976 edges but the file holds 1");
  expect_binary_error(binary_file(10, ~0ULL, {}), "declares 18446744073709551615 edges but the file holds 0");
}

TEST(BinaryEdges, RefusesBytesAfterTheLastEdge) {
  expect_binary_error(binary_file(10, 1, {0, 1, 2}), "g.bin: 4 stray bytes after the last of the 1 edges");
  expect_binary_error(binary_file(10, 0, {}) + "x", "g.bin: 1 stray bytes after the last of the 0 edges");
}

TEST(BinaryEdges, EveryCutShortFileIsRefused) {
  TempFile whole(".bin");
  write_binary_edges({5, {{0, 1}, {4, 3}, {2, 2}}}, whole.path());
  const std::string bytes = whole.read();
  for (std::size_t size = 0; size < bytes.size(); ++size) {
    SCOPED_TRACE(::testing::Message() << size << " of " << bytes.size() << " bytes");
    const std::string cut = bytes.substr(0, size);
    EXPECT_THROW(parse_binary(cut), ulibc::Error);
    if (size == 0) continue;  // an empty file is an empty text edge list
    TempFile file(".bin");
    file.write(cut);
    expect_input_error([&] { read_edges(file.path()); }, size < 24 ? "header" : "truncated");
  }
}

EdgeList parse_binary_pipe(const std::string& bytes) {
  PipeBuf buf(bytes);
  std::istream in(&buf);
  return read_binary_edges(in, "pipe");
}

TEST(BinaryEdges, ReadsFromAStreamThatCannotSeek) {
  expect_equal(parse_binary_pipe(binary_file(4, 2, {0, 1, 3, 2})), {4, {{0, 1}, {3, 2}}});
  expect_input_error(
      [] {
        parse_binary_pipe(binary_file(4, 3, {0, 1, 3, 2, 1}));
      },
      "pipe: truncated: the header declares 3 edges but the file holds 2");
  expect_input_error([] { parse_binary_pipe(binary_file(4, 1ULL << 60, {})); }, "the file holds 0");
  expect_input_error([] { parse_binary_pipe(binary_file(4, 1, {0, 1}) + "zz"); }, "pipe: 2 stray bytes");
}

TEST(BinaryEdges, ReadsMoreThanOneChunkFromAStreamThatCannotSeek) {
  const EdgeList list = kronecker({.scale = 17, .edgefactor = 16});  // 2^21 edges: two chunks of 2^20
  TempFile file(".bin");
  write_binary_edges(list, file.path());
  const std::string bytes = file.read();
  expect_equal(parse_binary_pipe(bytes), list);
  expect_input_error([&] { parse_binary_pipe(bytes.substr(0, bytes.size() - 5)); },
                     "pipe: truncated: the header declares 2097152 edges but the file holds 2097151");
}

TEST(TextEdges, ReadsFromAStreamThatCannotSeek) {
  PipeBuf buf("# Nodes: 3\n0 2\n");
  std::istream in(&buf);
  expect_equal(read_text_edges(in, "pipe"), {3, {{0, 2}}});
}

// ---- Files ------------------------------------------------------------------------

TEST(EdgeFiles, ReadEdgesTellsTheFormatsApart) {
  TempFile text(".txt"), binary(".bin");
  text.write("# Nodes: 3\n0 2\n");
  binary.write(binary_file(3, 1, {0, 2}));
  expect_equal(read_edges(text.path()), {3, {{0, 2}}});
  expect_equal(read_edges(binary.path()), {3, {{0, 2}}});
}

TEST(EdgeFiles, ErrorsNameTheFile) {
  TempFile text(".txt");
  text.write("0 1\n1 -2\n");
  expect_input_error([&] { read_edges(text.path()); }, text.path() + " line 2: vertex -2 is negative");
}

TEST(EdgeFiles, RefusesWhatCannotBeOpened) {
  const std::string missing = (fs::path(::testing::TempDir()) / "ulibc_edge_io_no_such_file.txt").string();
  expect_input_error([&] { read_edges(missing); }, "cannot open " + missing + ": No such file or directory");
  expect_input_error([] { read_edges(::testing::TempDir()); }, "Is a directory");
}

TEST(EdgeFiles, TextWriterOutput) {
  TempFile file(".txt");
  write_text_edges({6, {{0, 1}, {5, 5}, {3, 0}}}, file.path());
  EXPECT_EQ(file.read(), "# Nodes: 6 Edges: 3\n0 1\n5 5\n3 0\n");
  expect_equal(read_edges(file.path()), {6, {{0, 1}, {5, 5}, {3, 0}}});
}

TEST(EdgeFiles, TextWriterRoundTripsAGeneratedGraph) {
  // Enough lines to cross the writer's buffer several times.
  const EdgeList list = kronecker({.scale = 14, .edgefactor = 16});
  TempFile file(".txt");
  write_text_edges(list, file.path());
  expect_equal(read_edges(file.path()), list);
}

TEST(EdgeFiles, WritersRefuseListsThatCouldNotBeReadBack) {
  TempFile file(".bin");
  expect_input_error(
      [&] {
        write_binary_edges({4, {{0, 1}, {4, 0}}}, file.path());
      },
      "edge 1: vertex 4 is not in 0..3");
  expect_input_error([&] { write_text_edges({4, {{-1, 1}}}, file.path()); }, "edge 0: vertex -1 is not in 0..3");
  expect_input_error([&] { write_text_edges({kMaxVertices + 1, {}}, file.path()); }, "2147483648 vertices");
  EXPECT_FALSE(fs::exists(file.path()));
}

TEST(EdgeFiles, WriteFailuresAreSystemErrorsNamingThePath) {
  const std::string nowhere = (fs::path(::testing::TempDir()) / "ulibc_no_such_dir" / "g.bin").string();
  const EdgeList list{2, {{0, 1}}};
  expect_system_error([&] { write_binary_edges(list, nowhere); }, "cannot create " + nowhere);
  expect_system_error([&] { write_text_edges(list, nowhere); }, "cannot create " + nowhere);
  if (!fs::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  expect_system_error([&] { write_binary_edges(list, "/dev/full"); }, "cannot write /dev/full: No space left");
  expect_system_error([&] { write_text_edges(list, "/dev/full"); }, "cannot write /dev/full: No space left");
}

}  // namespace
