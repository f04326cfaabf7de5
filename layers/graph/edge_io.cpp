// graph/edge_io.cpp — the text and binary edge-list formats (docs/GRAPH_FORMAT.md).
//
// Both readers take the whole stream at once: text is parsed from one buffer
// with std::from_chars (no per-token stream extraction), binary edge data is
// read straight into the edge array. Edge data is stored in the host's layout,
// which the format fixes as little-endian: the static_assert below keeps a
// big-endian build from silently writing the wrong bytes. The header's
// integers are assembled byte by byte and need no such promise. What it
// shares with the DIMACS formats (reading, fields, writing) is io/file_io.hpp.
#include "graph/edge_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "graph/binary_header.hpp"
#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {
namespace {

using namespace io;

static_assert(std::endian::native == std::endian::little,
              "binary edge data is read and written in place, and the format is little-endian");
static_assert(sizeof(Edge) == 2 * sizeof(std::uint32_t) && std::is_trivially_copyable_v<Edge>,
              "an Edge must be laid out as the file's (u, v) pair");

constexpr std::string_view kMagic(kBinaryMagic, sizeof kBinaryMagic);
constexpr std::int64_t kMaxId = kMaxVertices - 1;

// The first edge with an id outside 0..vertices-1, or -1.
std::int64_t first_bad_edge(const EdgeList& list) {
  const auto bad = [n = list.vertices](Vertex id) { return id < 0 || id >= n; };
  const auto it =
      std::find_if(list.edges.begin(), list.edges.end(), [&](const Edge& e) { return bad(e.u) || bad(e.v); });
  return it == list.edges.end() ? -1 : it - list.edges.begin();
}

// The id of edge i that is out of range (u when both are).
Vertex bad_id(const EdgeList& list, std::int64_t i) {
  const Edge e = list.edges[i];
  return (e.u < 0 || e.u >= list.vertices) ? e.u : e.v;
}

// ---- Text --------------------------------------------------------------------------

class TextReader {
 public:
  TextReader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  EdgeList read() {
    EdgeList out;
    out.edges.reserve(static_cast<std::size_t>(std::count(text_.begin(), text_.end(), '\n')) + 1);
    for (std::size_t pos = 0; pos < text_.size();) {
      const std::size_t eol = std::min(text_.find('\n', pos), text_.size());
      ++line_;
      read_line(text_.substr(pos, eol - pos), out.edges);
      pos = eol + 1;
    }
    out.vertices = vertex_count();
    return out;
  }

 private:
  [[noreturn]] void fail(std::int64_t line, const std::string& what) const {
    throw input_error(fmt::format("{} line {}: {}", source_, line, what));
  }

  void read_line(std::string_view line, std::vector<Edge>& edges) {
    Fields fields(line);
    const std::string_view first = fields.next();
    if (first.empty()) return;
    if (first[0] == '#' || first[0] == '%') {
      if (first[0] == '#') read_comment(line.substr(line.find('#') + 1));
      return;
    }
    const Vertex u = vertex(first);
    const std::string_view second = fields.next();
    if (second.empty()) fail(line_, fmt::format("{} names one vertex, but an edge needs two ('u v')", quoted(first)));
    edges.push_back({u, vertex(second)});
  }

  Vertex vertex(std::string_view field) {
    bool out_of_range = false;
    const std::optional<std::int64_t> id = to_integer(field, out_of_range);
    if (!id && !out_of_range) fail(line_, fmt::format("{} is not a vertex id", quoted(field)));
    // From here on the field is all digits, with perhaps a minus sign.
    if (id ? *id < 0 : field[0] == '-') fail(line_, fmt::format("vertex {} is negative", field));
    if (!id || *id > kMaxId)
      fail(line_, fmt::format("vertex {} is beyond {}, the largest id that 32-bit ids allow", field, kMaxId));
    if (*id > max_id_) {
      max_id_ = *id;
      max_id_line_ = line_;
    }
    return static_cast<Vertex>(*id);
  }

  // "# Nodes: N ..." declares the vertex count (SNAP); any other comment is ignored.
  void read_comment(std::string_view body) {
    Fields fields(body);
    if (fields.next() != "Nodes:") return;
    const std::string_view count = fields.next();
    bool out_of_range = false;
    const std::optional<std::int64_t> n = to_integer(count, out_of_range);
    const std::string declaration = fmt::format("'# Nodes: {}'", count);
    if (!n && !out_of_range) fail(line_, "'# Nodes:' is not followed by a vertex count");
    if (n ? *n < 0 : count[0] == '-') fail(line_, fmt::format("{} declares a negative vertex count", declaration));
    if (!n || *n > kMaxVertices)
      fail(line_,
           fmt::format("{} declares more than the {} vertices that 32-bit ids allow", declaration, kMaxVertices));
    if (declared_ && *declared_ != *n)
      fail(line_, fmt::format("{} contradicts '# Nodes: {}' on line {}", declaration, *declared_, declared_line_));
    declared_ = *n;
    declared_line_ = line_;
  }

  // The declared count, checked against the largest id wherever the declaration
  // stood; else the largest id + 1.
  std::int64_t vertex_count() const {
    if (!declared_) return max_id_ + 1;
    if (max_id_ >= *declared_)
      fail(max_id_line_, fmt::format("vertex {} is beyond the {} vertices declared by '# Nodes: {}'", max_id_,
                                     *declared_, *declared_));
    return *declared_;
  }

  std::string_view text_;
  const std::string& source_;
  std::int64_t line_ = 0;
  std::int64_t max_id_ = -1, max_id_line_ = 0;
  std::optional<std::int64_t> declared_;
  std::int64_t declared_line_ = 0;
};

// ---- Binary ------------------------------------------------------------------------

[[noreturn]] void truncated(const std::string& source, std::uint64_t declared, std::uint64_t held) {
  throw input_error(
      fmt::format("{}: truncated: the header declares {} edges but the file holds {}", source, declared, held));
}

[[noreturn]] void trailing(const std::string& source, std::uint64_t bytes, std::uint64_t edges) {
  throw input_error(
      fmt::format("{}: {} stray bytes after the last of the {} edges the header declares", source, bytes, edges));
}

// ---- Writing -----------------------------------------------------------------------

// Error(input) when `list` could not be read back: a writer's check.
void check_writable(const EdgeList& list, const std::string& path) {
  if (list.vertices < 0 || list.vertices > kMaxVertices)
    throw input_error(fmt::format("cannot write {}: {} vertices, outside the 0..{} that 32-bit ids allow", path,
                                  list.vertices, kMaxVertices));
  if (const std::int64_t i = first_bad_edge(list); i >= 0)
    throw input_error(fmt::format("cannot write {}: edge {}: vertex {} is not in 0..{}", path, i, bad_id(list, i),
                                  list.vertices - 1));
}

}  // namespace

EdgeList read_text_edges(std::istream& in, const std::string& source) {
  const std::string text = read_all(in, source);
  return TextReader(text, source).read();
}

EdgeList read_binary_edges(std::istream& in, const std::string& source) {
  const BinaryHeader h = read_binary_header(in, source, kMagic, "binary edge list");
  // A seekable source is checked against the header before anything is
  // allocated; others are read until the data runs out.
  const std::optional<std::uint64_t> left = remaining_bytes(in);
  if (left) {
    if (*left / sizeof(Edge) < h.count) truncated(source, h.count, *left / sizeof(Edge));
    if (*left != h.count * sizeof(Edge)) trailing(source, *left - h.count * sizeof(Edge), h.count);
  }
  EdgeList out{static_cast<std::int64_t>(h.vertices), read_records<Edge>(in, h.count, left.has_value())};
  if (out.edges.size() < h.count) truncated(source, h.count, out.edges.size());
  in.ignore(std::numeric_limits<std::streamsize>::max());
  if (in.gcount() > 0) trailing(source, static_cast<std::uint64_t>(in.gcount()), h.count);
  if (const std::int64_t i = first_bad_edge(out); i >= 0)
    throw input_error(fmt::format("{} edge {}: vertex {} is beyond the {} vertices", source, i,
                                  static_cast<std::uint32_t>(bad_id(out, i)), out.vertices));
  return out;
}

EdgeList read_edges(const std::string& path) {
  std::ifstream in = open_input(path);
  const bool binary = starts_with_magic(in, kMagic, path, "read a pipe with read_text_edges or read_binary_edges");
  return binary ? read_binary_edges(in, path) : read_text_edges(in, path);
}

void write_binary_edges(const EdgeList& edges, const std::string& path) {
  check_writable(edges, path);
  OutputFile out(path);
  write_binary_header(out, kMagic, {static_cast<std::uint64_t>(edges.vertices), edges.edges.size()});
  out.write(edges.edges.data(), edges.edges.size() * sizeof(Edge));
  out.finish();
}

void write_text_edges(const EdgeList& edges, const std::string& path) {
  check_writable(edges, path);
  OutputFile out(path);
  LineWriter lines(out);
  lines.text(fmt::format("# Nodes: {} Edges: {}\n", edges.vertices, edges.edges.size()));
  for (const Edge& e : edges.edges) {
    lines.number(e.u);
    lines.put(' ');
    lines.number(e.v);
    lines.end_line();
  }
  lines.finish();
}

}  // namespace ulibc::graph
