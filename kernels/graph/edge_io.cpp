// graph/edge_io.cpp — the text and binary edge-list formats (docs/GRAPH_FORMAT.md).
//
// Both readers take the whole stream at once: text is parsed from one buffer
// with std::from_chars (no per-token stream extraction), binary edge data is
// read straight into the edge array. Edge data is stored in the host's layout,
// which the format fixes as little-endian: the static_assert below keeps a
// big-endian build from silently writing the wrong bytes. The header's
// integers are assembled byte by byte and need no such promise.
#include "graph/edge_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "ulibc/error.hpp"

namespace ulibc::graph {
namespace {

static_assert(std::endian::native == std::endian::little,
              "binary edge data is read and written in place, and the format is little-endian");
static_assert(sizeof(Edge) == 2 * sizeof(std::uint32_t) && std::is_trivially_copyable_v<Edge>,
              "an Edge must be laid out as the file's (u, v) pair");

constexpr std::string_view kMagic(kBinaryMagic, sizeof kBinaryMagic);
constexpr std::size_t kHeaderBytes = 24;  // magic, vertex count, edge count
constexpr std::int64_t kMaxId = kMaxVertices - 1;

// ---- Shared helpers --------------------------------------------------------------

// A piece of the input as a message shows it: quoted, printable, short.
std::string quoted(std::string_view s) {
  constexpr std::size_t kShown = 32;
  std::string out = "'";
  for (unsigned char c : s.substr(0, kShown)) {
    if (c >= 0x20 && c < 0x7f)
      out += static_cast<char>(c);
    else
      out += fmt::format("\\x{:02x}", c);
  }
  out += s.size() > kShown ? "...'" : "'";
  return out;
}

// errno's text, or a fallback when the failing call did not say.
std::string reason(int err) { return err ? std::strerror(err) : "the write did not complete"; }

// The bytes between the stream's position and its end; nullopt when it cannot seek.
std::optional<std::uint64_t> remaining_bytes(std::istream& in) {
  const std::streampos here = in.tellg();
  if (here == std::streampos(-1)) {
    in.clear();
    return std::nullopt;
  }
  in.seekg(0, std::ios::end);
  const std::streampos end = in.tellg();
  in.clear();
  in.seekg(here);
  if (end == std::streampos(-1) || end < here || !in) {
    in.clear();
    return std::nullopt;
  }
  return static_cast<std::uint64_t>(end - here);
}

// Appends up to `bytes` bytes from `in` to `out`; returns how many came.
std::size_t append_from(std::istream& in, std::string& out, std::size_t bytes) {
  const std::size_t have = out.size();
  out.resize(have + bytes);
  in.read(out.data() + have, static_cast<std::streamsize>(bytes));
  const auto got = static_cast<std::size_t>(in.gcount());
  out.resize(have + got);
  return got;
}

// The rest of the stream: one read when its size is known (and a small one
// that meets the end), else 1 MiB at a time.
std::string read_all(std::istream& in, const std::string& source) {
  std::string text;
  std::size_t chunk = std::size_t{1} << 20;
  if (const std::optional<std::uint64_t> left = remaining_bytes(in)) {
    append_from(in, text, static_cast<std::size_t>(*left));
    chunk = 4096;
  }
  while (in && append_from(in, text, chunk) > 0) {
  }
  if (in.bad()) throw system_error(fmt::format("cannot read {}", source));
  return text;
}

// The first edge with an id outside 0..vertices-1, or -1.
std::int64_t first_bad_edge(const EdgeList& list) {
  const auto bad = [n = list.vertices](Vertex id) { return id < 0 || id >= n; };
  const auto it = std::find_if(list.edges.begin(), list.edges.end(),
                               [&](const Edge& e) { return bad(e.u) || bad(e.v); });
  return it == list.edges.end() ? -1 : it - list.edges.begin();
}

// The id of edge i that is out of range (u when both are).
Vertex bad_id(const EdgeList& list, std::int64_t i) {
  const Edge e = list.edges[static_cast<std::size_t>(i)];
  return (e.u < 0 || e.u >= list.vertices) ? e.u : e.v;
}

// ---- Text --------------------------------------------------------------------------

bool is_blank(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f'; }

// The blank-separated fields of one line, in order; an empty view after the last.
class Fields {
 public:
  explicit Fields(std::string_view line) : rest_(line) {}
  std::string_view next() {
    std::size_t i = 0;
    while (i < rest_.size() && is_blank(rest_[i])) ++i;
    std::size_t j = i;
    while (j < rest_.size() && !is_blank(rest_[j])) ++j;
    const std::string_view field = rest_.substr(i, j - i);
    rest_.remove_prefix(j);
    return field;
  }

 private:
  std::string_view rest_;
};

// The whole field as a decimal integer, or nullopt (also for out-of-range
// values, which the caller tells apart from garbage by the digits alone).
std::optional<std::int64_t> to_integer(std::string_view field, bool& out_of_range) {
  std::int64_t value = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  out_of_range = ec == std::errc::result_out_of_range && end == field.data() + field.size();
  if (ec != std::errc() || end != field.data() + field.size()) return std::nullopt;
  return value;
}

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
      fail(line_, fmt::format("{} declares more than the {} vertices that 32-bit ids allow", declaration,
                              kMaxVertices));
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

std::uint64_t load_le64(const unsigned char* p) {
  std::uint64_t x = 0;
  for (int i = 7; i >= 0; --i) x = x << 8 | p[i];
  return x;
}

void store_le64(unsigned char* p, std::uint64_t x) {
  for (int i = 0; i < 8; ++i) p[i] = static_cast<unsigned char>(x >> (8 * i));
}

struct Header {
  std::uint64_t vertices = 0, edges = 0;
};

Header read_header(std::istream& in, const std::string& source) {
  unsigned char bytes[kHeaderBytes] = {};
  in.read(reinterpret_cast<char*>(bytes), kHeaderBytes);
  const auto got = static_cast<std::size_t>(in.gcount());
  const std::size_t magic_bytes = std::min(got, kMagic.size());
  if (got == 0 || std::memcmp(bytes, kMagic.data(), magic_bytes) != 0)
    throw input_error(fmt::format("{}: not a binary edge list (it does not start with \"{}\")", source, kMagic));
  if (got < kHeaderBytes)
    throw input_error(fmt::format("{}: truncated: the header ends after {} of its {} bytes", source, got,
                                  kHeaderBytes));
  const Header h{load_le64(bytes + 8), load_le64(bytes + 16)};
  if (h.vertices > static_cast<std::uint64_t>(kMaxVertices))
    throw input_error(fmt::format("{}: the header declares {} vertices, more than the {} that 32-bit ids allow",
                                  source, h.vertices, kMaxVertices));
  return h;
}

[[noreturn]] void truncated(const std::string& source, std::uint64_t declared, std::uint64_t held) {
  throw input_error(
      fmt::format("{}: truncated: the header declares {} edges but the file holds {}", source, declared, held));
}

[[noreturn]] void trailing(const std::string& source, std::uint64_t bytes, std::uint64_t edges) {
  throw input_error(
      fmt::format("{}: {} stray bytes after the last of the {} edges the header declares", source, bytes, edges));
}

// Reads the declared edges, a bounded chunk at a time: memory grows with the
// data actually there, never with what a (possibly corrupt) header claims.
std::vector<Edge> read_edge_data(std::istream& in, std::uint64_t count, const std::string& source) {
  constexpr std::uint64_t kChunk = std::uint64_t{1} << 20;  // edges (8 MiB)
  std::vector<Edge> edges;
  while (edges.size() < count) {
    const std::size_t have = edges.size();
    const auto want = static_cast<std::size_t>(std::min<std::uint64_t>(count - have, kChunk));
    edges.resize(have + want);
    in.read(reinterpret_cast<char*>(edges.data() + have), static_cast<std::streamsize>(want * sizeof(Edge)));
    const auto got = static_cast<std::size_t>(in.gcount());
    if (got < want * sizeof(Edge)) truncated(source, count, have + got / sizeof(Edge));
  }
  return edges;
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

std::ofstream create(const std::string& path) {
  errno = 0;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (!out) throw system_error(fmt::format("cannot create {}: {}", path, reason(errno)));
  return out;
}

// Each write is checked as it is made, so that errno still says why.
void put(std::ofstream& out, const void* data, std::size_t bytes, const std::string& path) {
  errno = 0;
  out.write(static_cast<const char*>(data), static_cast<std::streamsize>(bytes));
  if (!out) throw system_error(fmt::format("cannot write {}: {}", path, reason(errno)));
}

// Closes `out`, which flushes what the stream still buffers.
void finish(std::ofstream& out, const std::string& path) {
  errno = 0;
  out.close();
  if (!out) throw system_error(fmt::format("cannot write {}: {}", path, reason(errno)));
}

}  // namespace

EdgeList read_text_edges(std::istream& in, const std::string& source) {
  const std::string text = read_all(in, source);
  return TextReader(text, source).read();
}

EdgeList read_binary_edges(std::istream& in, const std::string& source) {
  const Header h = read_header(in, source);
  // A seekable source is checked against the header before anything is
  // allocated; others are read until the data runs out.
  if (const std::optional<std::uint64_t> left = remaining_bytes(in)) {
    if (*left / sizeof(Edge) < h.edges) truncated(source, h.edges, *left / sizeof(Edge));
    if (*left != h.edges * sizeof(Edge)) trailing(source, *left - h.edges * sizeof(Edge), h.edges);
  }
  EdgeList out{static_cast<std::int64_t>(h.vertices), read_edge_data(in, h.edges, source)};
  in.ignore(std::numeric_limits<std::streamsize>::max());
  if (in.gcount() > 0) trailing(source, static_cast<std::uint64_t>(in.gcount()), h.edges);
  if (const std::int64_t i = first_bad_edge(out); i >= 0)
    throw input_error(fmt::format("{} edge {}: vertex {} is beyond the {} vertices", source, i,
                                  static_cast<std::uint32_t>(bad_id(out, i)), out.vertices));
  return out;
}

EdgeList read_edges(const std::string& path) {
  errno = 0;
  std::ifstream in(path, std::ios::binary);
  if (!in) throw input_error(fmt::format("cannot open {}: {}", path, reason(errno)));
  std::error_code ec;
  if (std::filesystem::is_directory(path, ec))
    throw input_error(fmt::format("cannot open {}: {}", path, std::strerror(EISDIR)));
  // Binary when the file starts with the magic, or with as much of it as the
  // file holds: a binary file cut short then reads as one, truncated.
  char start[sizeof kBinaryMagic] = {};
  in.read(start, sizeof start);
  const auto got = static_cast<std::size_t>(in.gcount());
  const bool binary = got > 0 && std::memcmp(start, kBinaryMagic, got) == 0;
  in.clear();
  if (!in.seekg(0))
    throw input_error(fmt::format("cannot read {}: it cannot be rewound (read a pipe with read_text_edges or "
                                  "read_binary_edges)",
                                  path));
  return binary ? read_binary_edges(in, path) : read_text_edges(in, path);
}

void write_binary_edges(const EdgeList& edges, const std::string& path) {
  check_writable(edges, path);
  unsigned char header[kHeaderBytes];
  std::memcpy(header, kMagic.data(), kMagic.size());
  store_le64(header + 8, static_cast<std::uint64_t>(edges.vertices));
  store_le64(header + 16, edges.edges.size());
  std::ofstream out = create(path);
  put(out, header, kHeaderBytes, path);
  put(out, edges.edges.data(), edges.edges.size() * sizeof(Edge), path);
  finish(out, path);
}

void write_text_edges(const EdgeList& edges, const std::string& path) {
  check_writable(edges, path);
  std::ofstream out = create(path);
  const std::string header = fmt::format("# Nodes: {} Edges: {}\n", edges.vertices, edges.edges.size());
  put(out, header.data(), header.size(), path);
  // Lines are formatted into a buffer written 1 MiB at a time; a line takes at most 22 bytes.
  constexpr std::size_t kBuffer = std::size_t{1} << 20, kLongestLine = 2 * 10 + 2;
  std::vector<char> buffer(kBuffer);
  char* const begin = buffer.data();
  char* const limit = begin + kBuffer - kLongestLine;
  char* p = begin;
  for (const Edge& e : edges.edges) {
    p = std::to_chars(p, p + kLongestLine, e.u).ptr;
    *p++ = ' ';
    p = std::to_chars(p, begin + kBuffer, e.v).ptr;
    *p++ = '\n';
    if (p >= limit) {
      put(out, begin, static_cast<std::size_t>(p - begin), path);
      p = begin;
    }
  }
  put(out, begin, static_cast<std::size_t>(p - begin), path);
  finish(out, path);
}

}  // namespace ulibc::graph
