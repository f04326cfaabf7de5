// graph/dimacs_io.cpp — the DIMACS shortest-path text formats and the binary
// weighted graph (graph/dimacs_io.hpp, docs/GRAPH_FORMAT.md).
//
// The four text formats differ only in their problem line, their line letter
// and what their numbers mean, so one walker (DimacsText) reads them all from
// one buffer: it finds the problem line, checks it and every line's shape, and
// counts the lines against the declared count; each reader says what its
// numbers are. The USA road graph has 58 M arc lines, so the walk does no
// per-token stream extraction and no allocation per line; message text is
// only built on the way out.
//
// The binary form is the CSR itself, read straight into the graph's vectors:
// the host's layout, which the static_asserts hold to the format's.
#include "graph/dimacs_io.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <fstream>
#include <initializer_list>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "graph/binary_header.hpp"
#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {
namespace {

using namespace io;

static_assert(std::endian::native == std::endian::little,
              "binary graph data is read and written in place, and the format is little-endian");
static_assert(sizeof(Arc) == 8 && offsetof(Arc, head) == 0 && offsetof(Arc, weight) == 4 &&
                  std::is_trivially_copyable_v<Arc>,
              "an Arc must be laid out as the file's (uint32 head, uint32 weight)");
static_assert(sizeof(EdgeIndex) == 8, "offsets are 64-bit in the file");

constexpr std::string_view kMagic(kWeightedMagic, sizeof kWeightedMagic);

// ---- Text: the walker the four formats share ---------------------------------------

// One DIMACS text format, as the walker and its messages see it.
struct Layout {
  std::string_view file;                   // how messages name the format: ".gr"
  std::string_view kind;                   // the words between 'p' and the counts
  std::string_view problem;                // the problem line as messages show it
  std::array<std::string_view, 2> counts;  // what the problem line's numbers count
  int count_fields;                        // how many there are; the last counts the body lines
  bool counts_vertices;                    // the first count is a vertex count
  char type;                               // the letter of the body lines
  std::string_view item;                   // a body line in messages
  std::string_view items;                  // ... and more than one
  std::string_view form;                   // a body line as messages show it
  int fields;                              // the numbers on a body line
};

constexpr Layout kGraph{.file = ".gr",
                        .kind = "sp",
                        .problem = "p sp N M",
                        .counts = {"vertex count", "arc count"},
                        .count_fields = 2,
                        .counts_vertices = true,
                        .type = 'a',
                        .item = "arc",
                        .items = "arcs",
                        .form = "a U V W",
                        .fields = 3};
constexpr Layout kCoordinates{.file = ".co",
                              .kind = "aux sp co",
                              .problem = "p aux sp co N",
                              .counts = {"vertex count"},
                              .count_fields = 1,
                              .counts_vertices = true,
                              .type = 'v',
                              .item = "coordinate line",
                              .items = "coordinate lines",
                              .form = "v ID X Y",
                              .fields = 3};
constexpr Layout kSources{.file = ".ss",
                          .kind = "aux sp ss",
                          .problem = "p aux sp ss K",
                          .counts = {"source count"},
                          .count_fields = 1,
                          .counts_vertices = false,
                          .type = 's',
                          .item = "source",
                          .items = "sources",
                          .form = "s ID",
                          .fields = 1};
constexpr Layout kPairs{.file = ".p2p",
                        .kind = "aux sp p2p",
                        .problem = "p aux sp p2p K",
                        .counts = {"query count"},
                        .count_fields = 1,
                        .counts_vertices = false,
                        .type = 'q',
                        .item = "query",
                        .items = "queries",
                        .form = "q S T",
                        .fields = 2};

using Counts = std::array<std::int64_t, 2>;
using Numbers = std::array<std::string_view, 3>;  // a body line's fields

// The line without the blanks (and '\r') at its ends: what messages quote.
std::string_view trimmed(std::string_view line) {
  while (!line.empty() && is_blank(line.front())) line.remove_prefix(1);
  while (!line.empty() && is_blank(line.back())) line.remove_suffix(1);
  return line;
}

// A DIMACS text walked line by line: comments skipped, the problem line and
// the shape of every body line checked, body lines counted against the
// declaration. The readers give meaning to the fields with vertex(), weight()
// and coordinate(), which refuse what does not fit, naming the current line.
class DimacsText {
 public:
  DimacsText(std::string_view text, const std::string& source, const Layout& layout)
      : text_(text), source_(source), layout_(layout) {}

  // Calls on_problem(counts) at the problem line and on_line(numbers) at each
  // body line; at the end, refuses a text with fewer body lines than declared,
  // adding missing() to the message.
  template <class OnProblem, class OnLine, class Missing>
  void walk(OnProblem&& on_problem, OnLine&& on_line, Missing&& missing) {
    while (pos_ < text_.size()) {
      const std::size_t eol = std::min(text_.find('\n', pos_), text_.size());
      const std::string_view line = text_.substr(pos_, eol - pos_);
      pos_ = eol + 1;
      ++line_;
      Fields fields(line);
      const std::string_view type = fields.next();
      if (type.empty() || type[0] == 'c') continue;
      if (type.size() == 1 && type[0] == layout_.type)
        on_line(body(fields));
      else if (type == "p")
        on_problem(problem(fields, line));
      else
        fail(fmt::format("unknown line type {} (a {} file has 'c', 'p' and '{}' lines)", quoted(type), layout_.file,
                         layout_.type));
    }
    if (problem_line_ == 0) fail_at(line_, fmt::format("the file ends without a problem line ('{}')", layout_.problem));
    if (body_lines_ < declared_)
      fail_at(line_, fmt::format("the file ends after {} of the {} {} that the problem line (line {}) declares{}",
                                 body_lines_, declared_, layout_.items, problem_line_, missing()));
  }

  // At most how many body lines the rest of the text could hold, the shortest
  // being "a 1 1 0\n": what a declared count may reserve.
  std::int64_t most_lines_left() const {
    const std::size_t shortest = 2 + 2 * static_cast<std::size_t>(layout_.fields);
    return static_cast<std::int64_t>((text_.size() - std::min(pos_, text_.size())) / shortest + 1);
  }

  // The 0-based vertex of a 1-based id, which must lie in 1..vertices.
  Vertex vertex(std::string_view field, std::string_view name, std::int64_t vertices) const {
    const std::optional<std::int64_t> id = integer(field, name, "a vertex id");
    if (!id || *id < 1 || *id > vertices)
      fail(fmt::format("{} {} is not a vertex: {}", name, field,
                       vertices > 0 ? fmt::format("ids run 1..{}", vertices) : "the graph has none"));
    return static_cast<Vertex>(*id - 1);
  }

  Weight weight(std::string_view field) const {
    const std::optional<std::int64_t> w = integer(field, "arc weight", "a whole number");
    if (negative(w, field)) fail(fmt::format("arc weight {} is negative (shortest paths need weights >= 0)", field));
    if (!w || *w > kMaxWeight)
      fail(fmt::format("arc weight {} is beyond {}: weights are 32-bit, so that no 64-bit distance can overflow", field,
                       kMaxWeight));
    return static_cast<Weight>(*w);
  }

  std::int64_t coordinate(std::string_view field, std::string_view name) const {
    const std::optional<std::int64_t> c = integer(field, name, "a whole number");
    if (!c) fail(fmt::format("{} {} does not fit in 64 bits", name, field));
    return *c;
  }

  // Refuses the current line.
  [[noreturn]] void fail(const std::string& what) const { fail_at(line_, what); }

 private:
  [[noreturn]] void fail_at(std::int64_t line, const std::string& what) const {
    if (line == 0) throw input_error(fmt::format("{}: {}", source_, what));
    throw input_error(fmt::format("{}:{}: {}", source_, line, what));
  }

  // The field as an integer, nullopt when it is all digits (perhaps with a
  // minus) but beyond 64 bits; anything else is refused as not `kind`.
  std::optional<std::int64_t> integer(std::string_view field, std::string_view name, std::string_view kind) const {
    bool out_of_range = false;
    const std::optional<std::int64_t> value = to_integer(field, out_of_range);
    if (!value && !out_of_range) fail(fmt::format("{} {} is not {}", name, quoted(field), kind));
    return value;
  }
  static bool negative(const std::optional<std::int64_t>& value, std::string_view field) {
    return value ? *value < 0 : field[0] == '-';
  }

  Counts problem(Fields& fields, std::string_view line) {
    if (problem_line_ != 0) fail(fmt::format("a second problem line (the first is line {})", problem_line_));
    Fields kind(layout_.kind);
    for (std::string_view word = kind.next(); !word.empty(); word = kind.next())
      if (fields.next() != word)
        fail(fmt::format("{} is not the problem line of a {} file ('{}')", quoted(trimmed(line)), layout_.file,
                         layout_.problem));
    Counts counts{};
    for (int i = 0; i < layout_.count_fields; ++i) counts[i] = count(fields.next(), layout_.counts[i]);
    if (const std::string_view extra = fields.next(); !extra.empty())
      fail(fmt::format("the problem line has more than '{}': {}", layout_.problem, quoted(extra)));
    if (layout_.counts_vertices && counts[0] > kMaxVertices)
      fail(fmt::format("vertex count {} is beyond {}, the most that 32-bit ids allow", counts[0], kMaxVertices));
    problem_line_ = line_;
    declared_ = counts[layout_.count_fields - 1];
    return counts;
  }

  std::int64_t count(std::string_view field, std::string_view name) const {
    if (field.empty()) fail(fmt::format("the problem line lacks the {} ('{}')", name, layout_.problem));
    const std::optional<std::int64_t> n = integer(field, name, "a whole number");
    if (negative(n, field)) fail(fmt::format("{} {} is negative", name, field));
    if (!n) fail(fmt::format("{} {} is beyond {}", name, field, std::numeric_limits<std::int64_t>::max()));
    return *n;
  }

  Numbers body(Fields& fields) {
    if (problem_line_ == 0)
      fail(fmt::format("'{}' line before the problem line ('{}' must come first)", layout_.type, layout_.problem));
    if (body_lines_ == declared_)
      fail(fmt::format("{} {} is one more than the {} that the problem line (line {}) declares", layout_.item,
                       body_lines_ + 1, declared_, problem_line_));
    ++body_lines_;
    Numbers numbers;
    for (int i = 0; i < layout_.fields; ++i) {
      numbers[i] = fields.next();
      if (numbers[i].empty())
        fail(fmt::format("the '{}' line has {} of its {} numbers ('{}')", layout_.type, i, layout_.fields,
                         layout_.form));
    }
    if (const std::string_view extra = fields.next(); !extra.empty())
      fail(fmt::format("the '{}' line has more than its {} numbers ('{}'): {}", layout_.type, layout_.fields,
                       layout_.form, quoted(extra)));
    return numbers;
  }

  std::string_view text_;
  const std::string& source_;
  const Layout& layout_;
  std::size_t pos_ = 0;    // where the next line starts
  std::int64_t line_ = 0;  // the current line, 1-based
  std::int64_t problem_line_ = 0;
  std::int64_t declared_ = 0;  // body lines the problem line declares
  std::int64_t body_lines_ = 0;
};

// A reader for the formats without more to say when lines are missing.
std::string nothing_missing() { return {}; }

// Ids are checked against the graph's vertices, or only against 32 bits when it is not known.
std::int64_t id_limit(std::int64_t vertices) { return vertices < 0 ? kMaxVertices : std::min(vertices, kMaxVertices); }

// ---- Text: writing -----------------------------------------------------------------

// One body line: its letter, then the numbers.
void record(LineWriter& out, char type, std::initializer_list<std::int64_t> numbers) {
  out.put(type);
  for (const std::int64_t x : numbers) {
    out.put(' ');
    out.number(x);
  }
  out.end_line();
}

// A DIMACS text: a comment saying what it is, the problem line, then what body() writes.
template <class Body>
void write_dimacs(const std::string& path, const std::string& comment, const std::string& problem, Body&& body) {
  OutputFile file(path);
  LineWriter out(file);
  out.text(fmt::format("c {}\n{}\n", comment, problem));
  body(out);
  out.finish();
}

// Error(input) before anything is written when vertex `v`, the i-th `what`,
// would not read back: its 1-based id must fit 32 bits.
void check_writable(const std::string& path, std::string_view what, std::size_t i, Vertex v) {
  if (v < 0 || v >= kMaxVertices)
    throw input_error(
        fmt::format("cannot write {}: {} {} is vertex {}, not in 0..{}", path, what, i, v, kMaxVertices - 1));
}

// ---- Binary ------------------------------------------------------------------------

// Refuses a binary graph whose data ends after `offsets` of its n + 1 offsets,
// or after all of them and `arcs` of its m arcs.
[[noreturn]] void truncated(const std::string& source, const BinaryHeader& h, std::uint64_t offsets,
                            std::uint64_t arcs) {
  const std::string held =
      offsets <= h.vertices ? fmt::format("{} offsets", offsets) : fmt::format("all offsets and {} arcs", arcs);
  throw input_error(
      fmt::format("{}: truncated: the header declares {} vertices ({} offsets) and {} arcs, but the file "
                  "ends after {}",
                  source, h.vertices, h.vertices + 1, h.count, held));
}

[[noreturn]] void trailing(const std::string& source, std::uint64_t bytes, std::uint64_t arcs) {
  throw input_error(
      fmt::format("{}: {} stray bytes after the last of the {} arcs the header declares", source, bytes, arcs));
}

// The data's size against the header, before anything is allocated for it.
void check_size(const std::string& source, const BinaryHeader& h, std::uint64_t bytes) {
  const std::uint64_t offset_bytes = (h.vertices + 1) * sizeof(EdgeIndex);  // n is below 2^31: no overflow
  if (bytes < offset_bytes) truncated(source, h, bytes / sizeof(EdgeIndex), 0);
  const std::uint64_t arcs = (bytes - offset_bytes) / sizeof(Arc);
  if (arcs < h.count) truncated(source, h, h.vertices + 1, arcs);
  if (bytes - offset_bytes != h.count * sizeof(Arc))
    trailing(source, bytes - offset_bytes - h.count * sizeof(Arc), h.count);
}

}  // namespace

// ---- Graphs --------------------------------------------------------------------------

ArcList read_dimacs_graph(std::istream& in, const std::string& source) {
  const std::string text = read_all(in, source);
  DimacsText dimacs(text, source, kGraph);
  ArcList out;
  dimacs.walk(
      [&](const Counts& counts) {
        out.vertices = counts[0];
        out.arcs.reserve(static_cast<std::size_t>(std::min(counts[1], dimacs.most_lines_left())));
      },
      [&](const Numbers& f) {
        // Braced initialisers run left to right: the tail is checked first.
        out.arcs.push_back({dimacs.vertex(f[0], "arc tail", out.vertices),
                            dimacs.vertex(f[1], "arc head", out.vertices), dimacs.weight(f[2])});
      },
      nothing_missing);
  return out;
}

WeightedGraph read_binary_graph(std::istream& in, const std::string& source) {
  const BinaryHeader h = read_binary_header(in, source, kMagic, "binary weighted graph");
  // A seekable source is measured first; others are read until the data runs out.
  const std::optional<std::uint64_t> left = remaining_bytes(in);
  if (left) check_size(source, h, *left);
  std::vector<EdgeIndex> offsets = read_records<EdgeIndex>(in, h.vertices + 1, left.has_value());
  if (offsets.size() < h.vertices + 1) truncated(source, h, offsets.size(), 0);
  std::vector<Arc> arcs = read_records<Arc>(in, h.count, left.has_value());
  if (arcs.size() < h.count) truncated(source, h, h.vertices + 1, arcs.size());
  in.ignore(std::numeric_limits<std::streamsize>::max());
  if (in.gcount() > 0) trailing(source, static_cast<std::uint64_t>(in.gcount()), h.count);
  try {
    return WeightedGraph(std::move(offsets), std::move(arcs));  // checks the offsets and heads
  } catch (const Error& e) {
    throw input_error(fmt::format("{}: {}", source, e.what()));
  }
}

WeightedGraph read_weighted_graph(const std::string& path, const SizeCheck& before_building) {
  std::ifstream in = open_input(path);
  if (starts_with_magic(in, kMagic, path, "read a pipe with read_dimacs_graph or read_binary_graph"))
    return read_binary_graph(in, path);
  const ArcList arcs = read_dimacs_graph(in, path);
  if (before_building) before_building(arcs.vertices, static_cast<std::int64_t>(arcs.arcs.size()));
  return build_weighted(arcs);
}

void write_dimacs_graph(const WeightedGraph& g, const std::string& path) {
  write_dimacs(path, fmt::format("ULIBC weighted graph: {} vertices, {} arcs", g.vertices(), g.arc_count()),
               fmt::format("p sp {} {}", g.vertices(), g.arc_count()), [&](LineWriter& out) {
                 for (Vertex v = 0; v < g.vertices(); ++v)
                   for (const Arc& a : g.out(v))
                     record(out, 'a', {std::int64_t{v} + 1, std::int64_t{a.head} + 1, a.weight});
               });
}

void write_binary_graph(const WeightedGraph& g, const std::string& path) {
  OutputFile out(path);
  write_binary_header(out, kMagic,
                      {static_cast<std::uint64_t>(g.vertices()), static_cast<std::uint64_t>(g.arc_count())});
  out.write(g.offsets().data(), g.offsets().size() * sizeof(EdgeIndex));
  out.write(g.arcs().data(), g.arcs().size() * sizeof(Arc));
  out.finish();
}

// ---- Coordinates ---------------------------------------------------------------------

Coordinates read_dimacs_coordinates(std::istream& in, const std::string& source, std::int64_t vertices) {
  const std::string text = read_all(in, source);
  DimacsText dimacs(text, source, kCoordinates);
  Coordinates out;
  std::vector<bool> seen;
  std::int64_t n = 0;
  // Storage for n vertices is allocated only when the text can hold n lines:
  // otherwise the walk ends in "the file ends after k of the n", which needs none.
  bool store = false;
  dimacs.walk(
      [&](const Counts& counts) {
        n = counts[0];
        if (vertices >= 0 && n != vertices)
          dimacs.fail(fmt::format("the problem line declares {} vertices but the graph has {}", n, vertices));
        store = n <= dimacs.most_lines_left();
        if (!store) return;
        out.x.assign(static_cast<std::size_t>(n), 0);
        out.y.assign(static_cast<std::size_t>(n), 0);
        seen.assign(static_cast<std::size_t>(n), false);
      },
      [&](const Numbers& f) {
        const auto v = static_cast<std::size_t>(dimacs.vertex(f[0], "vertex", n));
        const std::int64_t x = dimacs.coordinate(f[1], "x coordinate"), y = dimacs.coordinate(f[2], "y coordinate");
        if (!store) return;
        if (seen[v]) dimacs.fail(fmt::format("a second 'v' line for vertex {}", v + 1));
        seen[v] = true;
        out.x[v] = x;
        out.y[v] = y;
      },
      [&] {
        const auto first = std::find(seen.begin(), seen.end(), false);
        return first == seen.end() ? std::string() : fmt::format(" (vertex {} has none)", first - seen.begin() + 1);
      });
  return out;
}

Coordinates read_dimacs_coordinates(const std::string& path, std::int64_t vertices) {
  std::ifstream in = open_input(path);
  return read_dimacs_coordinates(in, path, vertices);
}

void write_dimacs_coordinates(const Coordinates& c, const std::string& path) {
  if (c.x.size() != c.y.size() || c.x.size() > static_cast<std::size_t>(kMaxVertices))
    throw input_error(
        fmt::format("cannot write {}: {} x and {} y coordinates, not a pair for each of at most {} "
                    "vertices",
                    path, c.x.size(), c.y.size(), kMaxVertices));
  write_dimacs(path, fmt::format("ULIBC coordinates: {} vertices", c.x.size()),
               fmt::format("p aux sp co {}", c.x.size()), [&](LineWriter& out) {
                 for (std::size_t v = 0; v < c.x.size(); ++v)
                   record(out, 'v', {static_cast<std::int64_t>(v) + 1, c.x[v], c.y[v]});
               });
}

// ---- Problems ------------------------------------------------------------------------

std::vector<Vertex> read_dimacs_sources(std::istream& in, const std::string& source, std::int64_t vertices) {
  const std::string text = read_all(in, source);
  DimacsText dimacs(text, source, kSources);
  const std::int64_t n = id_limit(vertices);
  std::vector<Vertex> out;
  dimacs.walk(
      [&](const Counts& counts) {
        out.reserve(static_cast<std::size_t>(std::min(counts[0], dimacs.most_lines_left())));
      },
      [&](const Numbers& f) { out.push_back(dimacs.vertex(f[0], "source", n)); }, nothing_missing);
  return out;
}

std::vector<Vertex> read_dimacs_sources(const std::string& path, std::int64_t vertices) {
  std::ifstream in = open_input(path);
  return read_dimacs_sources(in, path, vertices);
}

void write_dimacs_sources(const std::vector<Vertex>& sources, const std::string& path) {
  for (std::size_t i = 0; i < sources.size(); ++i) check_writable(path, "source", i, sources[i]);
  write_dimacs(path, fmt::format("ULIBC single-source problem: {} sources", sources.size()),
               fmt::format("p aux sp ss {}", sources.size()), [&](LineWriter& out) {
                 for (const Vertex s : sources) record(out, 's', {std::int64_t{s} + 1});
               });
}

std::vector<VertexPair> read_dimacs_pairs(std::istream& in, const std::string& source, std::int64_t vertices) {
  const std::string text = read_all(in, source);
  DimacsText dimacs(text, source, kPairs);
  const std::int64_t n = id_limit(vertices);
  std::vector<VertexPair> out;
  dimacs.walk(
      [&](const Counts& counts) {
        out.reserve(static_cast<std::size_t>(std::min(counts[0], dimacs.most_lines_left())));
      },
      [&](const Numbers& f) {
        out.push_back({dimacs.vertex(f[0], "query source", n), dimacs.vertex(f[1], "query target", n)});
      },
      nothing_missing);
  return out;
}

std::vector<VertexPair> read_dimacs_pairs(const std::string& path, std::int64_t vertices) {
  std::ifstream in = open_input(path);
  return read_dimacs_pairs(in, path, vertices);
}

void write_dimacs_pairs(const std::vector<VertexPair>& pairs, const std::string& path) {
  for (std::size_t i = 0; i < pairs.size(); ++i) {
    check_writable(path, "query source", i, pairs[i].source);
    check_writable(path, "query target", i, pairs[i].target);
  }
  write_dimacs(path, fmt::format("ULIBC point-to-point problem: {} queries", pairs.size()),
               fmt::format("p aux sp p2p {}", pairs.size()), [&](LineWriter& out) {
                 for (const VertexPair& p : pairs)
                   record(out, 'q', {std::int64_t{p.source} + 1, std::int64_t{p.target} + 1});
               });
}

}  // namespace ulibc::graph
