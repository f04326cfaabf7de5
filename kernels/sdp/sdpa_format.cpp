// sdp/sdpa_format.cpp — the SDPA reader (header, then sparse entry lines or dense matrices) and the .dat-s writer.
#include "sdp/sdpa_format.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string_view>
#include <tuple>
#include <vector>

#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sdp {

namespace {

using Line = std::int64_t;

// SDPA writes "{2, -3}" and "(1, 2)" as well as "2 -3": its punctuation separates like a blank.
bool is_separator(char c) { return io::is_blank(c) || c == ',' || c == '(' || c == ')' || c == '{' || c == '}'; }

bool is_digit(char c) { return c >= '0' && c <= '9'; }

// Whether a token starts like a number ("7", "-2", ".5", "+1e3"): what may not follow a complete item on its line,
// where a label ("=mdim", "bLOCKsTRUCT") may.
bool looks_numeric(std::string_view t) {
  if (!t.empty() && (t[0] == '+' || t[0] == '-')) t.remove_prefix(1);
  if (!t.empty() && t[0] == '.') t.remove_prefix(1);
  return !t.empty() && is_digit(t[0]);
}

// An entry with where it came from: which F_k and block, and the line that gives it.
struct Located {
  int matrix = 0, block = 0, i = 0, j = 0;
  double value = 0;
  Line line = 0;
  auto key() const { return std::tie(matrix, block, i, j); }
};

// The text as tokens separated by blanks, SDPA's punctuation and line ends, each on a known line.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_(text) {}

  // The next token on the current line; empty at its end, whose line end stays unread.
  std::string_view on_line() {
    while (pos_ < text_.size() && is_separator(text_[pos_])) ++pos_;
    const std::size_t start = pos_;
    while (pos_ < text_.size() && text_[pos_] != '\n' && !is_separator(text_[pos_])) ++pos_;
    return text_.substr(start, pos_ - start);
  }

  // The next token, on this line or a later one; empty at the end of the text.
  std::string_view next() {
    for (;;) {
      const std::string_view t = on_line();
      if (!t.empty() || !next_line()) return t;
    }
  }

  // Moves to the start of the next line; false when there is none.
  bool next_line() {
    const std::size_t eol = text_.find('\n', pos_);
    if (eol == std::string_view::npos) {
      pos_ = text_.size();
      return false;
    }
    pos_ = eol + 1;
    ++line_;
    return true;
  }

  // Skips blank lines and the comment lines ('"' or '*' first) that open a file.
  void skip_comments() {
    for (;;) {
      std::size_t p = pos_;
      while (p < text_.size() && is_separator(text_[p])) ++p;
      const bool blank = p == text_.size() || text_[p] == '\n';
      const bool comment = p < text_.size() && (text_[p] == '"' || text_[p] == '*');
      if (!(blank || comment) || !next_line()) return;
    }
  }

  // After a complete list: whether a number follows on its line (left to be read); a label there is skipped to
  // the line's end.
  bool number_follows() {
    const std::size_t here = pos_;
    const std::string_view t = on_line();
    pos_ = here;
    if (looks_numeric(t)) return true;
    pos_ = std::min(text_.find('\n', pos_), text_.size());
    return false;
  }

  Line line() const { return line_; }
  // The line an item missing at the end would have been on: the one after the last; 0 for an empty text.
  Line end_line() const {
    if (text_.empty()) return 0;
    const auto ends = static_cast<Line>(std::count(text_.begin(), text_.end(), '\n'));
    return ends + (text_.back() == '\n' ? 1 : 2);
  }

 private:
  std::string_view text_;
  std::size_t pos_ = 0;
  Line line_ = 1;
};

// Reads one problem: the header, then the entries, then puts them in the Problem's order.
class Reader {
 public:
  Reader(std::string_view text, const std::string& source) : cur_(text), source_(source) {}

  Problem read(SdpaFormat format) {
    read_header(format);
    if (format == SdpaFormat::sparse)
      read_sparse_entries();
    else
      read_dense_matrices();
    return assemble();
  }

 private:
  [[noreturn]] void fail_at(Line line, const std::string& what) const {
    if (line == 0) throw input_error(fmt::format("{}: {}", source_, what));
    throw input_error(fmt::format("{}:{}: {}", source_, line, what));
  }
  [[noreturn]] void fail(const std::string& what) const { fail_at(cur_.line(), what); }
  [[noreturn]] void fail_at_end(const std::string& what) const { fail_at(cur_.end_line(), what); }

  // ---- Numbers ----------------------------------------------------------------------------------------------

  // A token without the '+' that SDPA's scanf accepts and std::from_chars does not ("+-1" keeps it, and fails).
  static std::string_view unsigned_plus(std::string_view t) {
    return t.size() > 1 && t[0] == '+' && t[1] != '-' ? t.substr(1) : t;
  }

  // The whole token as a T; `kind` names what it should have been, `range` what an overflow is.
  template <class T>
  T parse(std::string_view t, std::string_view name, std::string_view kind, std::string_view range) const {
    const std::string_view digits = unsigned_plus(t);
    T v{};
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    const bool all = end == digits.data() + digits.size() && !digits.empty();
    if (ec == std::errc::result_out_of_range && all) fail(fmt::format("{} {} is {}", name, io::quoted(t), range));
    if (ec != std::errc() || !all) fail(fmt::format("{} {} is not {}", name, io::quoted(t), kind));
    return v;
  }

  std::int64_t whole(std::string_view t, std::string_view name) const {
    return parse<std::int64_t>(t, name, "a whole number", "out of range");
  }

  double number(std::string_view t, std::string_view name) const {
    const double v = parse<double>(t, name, "a number", "outside the range of a double");
    if (!std::isfinite(v)) fail(fmt::format("{} {} is not a finite number", name, io::quoted(t)));
    return v;
  }

  // ---- Header -----------------------------------------------------------------------------------------------

  // m or nBLOCK: the first number of its line, the rest of which is ignored.
  std::int64_t header_count(std::string_view name, std::string_view meaning, std::int64_t max) {
    const std::string_view t = cur_.next();
    if (t.empty()) fail_at_end(fmt::format("the file ends before {} ({})", name, meaning));
    const std::int64_t v = whole(t, name);
    if (v < 1 || v > max) fail(fmt::format("{} = {}: {} must be 1 to {}", name, v, meaning, max));
    cur_.next_line();
    return v;
  }

  void read_block_size(std::int64_t b, std::int64_t count) {
    const std::string_view t = cur_.next();
    if (t.empty()) fail_at_end(fmt::format("the file ends after {} of the {} block sizes", b, count));
    const std::int64_t size = whole(t, "block size");
    if (size == 0) fail(fmt::format("block {} has size 0", b + 1));
    if (size < -kMaxBlockSize || size > kMaxBlockSize)
      fail(fmt::format("block {} has size {}: more than the {} rows a block may have", b + 1, size, kMaxBlockSize));
    const int rows = static_cast<int>(size < 0 ? -size : size);
    if (order_ + rows > kMaxOrder)
      fail(fmt::format("the block sizes add up to more than the {} rows X may have", kMaxOrder));
    order_ += rows;
    problem_.blocks.push_back({rows, size < 0});
  }

  void read_header(SdpaFormat format) {
    cur_.skip_comments();
    const std::int64_t m = header_count("m", "the number of constraints", kMaxConstraints);
    const std::int64_t blocks = header_count("nBLOCK", "the number of blocks", kMaxBlocks);
    for (std::int64_t b = 0; b < blocks; ++b) read_block_size(b, blocks);
    cur_.number_follows();  // c may go on on the same line
    for (std::int64_t k = 0; k < m; ++k) {
      const std::string_view t = cur_.next();
      if (t.empty()) fail_at_end(fmt::format("the file ends after {} of the {} values of c", k, m));
      problem_.c.push_back(number(t, "c value"));
    }
    if (cur_.number_follows() && format == SdpaFormat::sparse)
      fail(fmt::format("more than the m = {} values of c (entries start on the next line)", m));
  }

  // ---- Sparse entries ---------------------------------------------------------------------------------------

  // A whole number from `lo` to `hi`; `range` says what bounds it.
  int bounded(std::string_view t, std::string_view name, std::int64_t lo, std::int64_t hi, std::string_view range) {
    const std::int64_t v = whole(t, name);
    if (v < lo || v > hi) fail(fmt::format("{} {} is outside {}..{} ({})", name, v, lo, hi, range));
    return static_cast<int>(v);
  }

  // The k-th of an entry line's five numbers (k > 0), refusing a line that ends before it.
  std::string_view entry_field(int k) {
    const std::string_view t = cur_.on_line();
    if (t.empty())
      fail(fmt::format("an entry is \"matno blkno i j value\": this line ends after {} of its 5 numbers", k));
    return t;
  }

  // One line: "matno blkno i j value", or nothing.
  void read_entry_line() {
    const std::string_view first = cur_.on_line();
    if (first.empty()) return;
    const int m = problem_.m(), blocks = static_cast<int>(problem_.blocks.size());
    const int matrix = bounded(first, "matrix number", 0, m, fmt::format("F_0..F_m, m = {}", m));
    const int block = bounded(entry_field(1), "block number", 1, blocks, fmt::format("nBLOCK = {}", blocks)) - 1;
    const int size = problem_.blocks[block].size;
    const std::string range = fmt::format("block {} has size {}", block + 1, size);
    const int i = bounded(entry_field(2), "row", 1, size, range) - 1;
    const int j = bounded(entry_field(3), "column", 1, size, range) - 1;
    const double value = number(entry_field(4), "value");
    if (looks_numeric(cur_.on_line()))
      fail("an entry line holds more than 5 numbers: the sparse format has one entry per line");
    add(matrix, block, i, j, value);
  }

  // An entry at (i, j) or its mirror, on the current line; zeros too, so that a zero and a nonzero for one
  // position contradict each other.
  void add(int matrix, int block, int i, int j, double value) {
    if (problem_.blocks[block].diagonal && i != j)
      fail(fmt::format("entry ({}, {}) of block {} is off the diagonal of an LP block", i + 1, j + 1, block + 1));
    entries_.push_back({matrix, block, std::min(i, j), std::max(i, j), value, cur_.line()});
  }

  void read_sparse_entries() {
    while (cur_.next_line()) read_entry_line();
  }

  // ---- Dense matrices ---------------------------------------------------------------------------------------

  double dense_value(int matrix, int block, std::int64_t read, std::int64_t count) {
    const std::string_view t = cur_.next();
    if (t.empty())
      fail_at_end(
          fmt::format("the file ends in F_{} block {}, after {} of its {} values", matrix, block + 1, read, count));
    return number(t, "value");
  }

  // An LP block's values, its diagonal.
  void read_dense_diagonal(int matrix, int block, int size) {
    for (int i = 0; i < size; ++i) {
      const double v = dense_value(matrix, block, i, size);
      if (v != 0) add(matrix, block, i, i, v);
    }
  }

  // A symmetric block row by row: the upper triangle is kept as it comes (memory grows with the values read, not
  // with size^2), each value below the diagonal checked against its mirror.
  void read_dense_symmetric(int matrix, int block, int size) {
    const std::int64_t s = size;
    upper_.clear();
    for (std::int64_t i = 0; i < s; ++i)
      for (std::int64_t j = 0; j < s; ++j) {
        const double v = dense_value(matrix, block, i * s + j, s * s);
        if (j >= i) {
          upper_.push_back({v, cur_.line()});
          if (v != 0) add(matrix, block, static_cast<int>(i), static_cast<int>(j), v);
          continue;
        }
        const Given& mirror = upper_[j * s - j * (j - 1) / 2 + (i - j)];
        if (mirror.value != v)
          contradiction(matrix, block, static_cast<int>(j), static_cast<int>(i), v, cur_.line(), mirror);
      }
  }

  void read_dense_matrices() {
    const int m = problem_.m();
    for (int k = 0; k <= m; ++k)
      for (std::size_t b = 0; b < problem_.blocks.size(); ++b) {
        const BlockShape shape = problem_.blocks[b];
        if (shape.diagonal)
          read_dense_diagonal(k, static_cast<int>(b), shape.size);
        else
          read_dense_symmetric(k, static_cast<int>(b), shape.size);
      }
    const std::string_view t = cur_.next();
    if (!t.empty()) fail(fmt::format("{} after F_{}: the dense format ends with F_m", io::quoted(t), m));
  }

  // ---- The Problem ------------------------------------------------------------------------------------------

  // A value and the line it came from, as a later one for the same position is checked against it.
  struct Given {
    double value = 0;
    Line line = 0;
  };

  [[noreturn]] void contradiction(int matrix, int block, int i, int j, double value, Line line, Given earlier) const {
    fail_at(line, fmt::format("F_{} block {} entry ({}, {}) = {} contradicts line {}, which gives {}", matrix,
                              block + 1, i + 1, j + 1, value, earlier.line, earlier.value));
  }

  // The entries sorted by F_k, block, (i, j), each position once and nonzero, into f.
  Problem assemble() {
    std::sort(entries_.begin(), entries_.end(), [](const Located& a, const Located& b) {
      return std::tie(a.matrix, a.block, a.i, a.j, a.line) < std::tie(b.matrix, b.block, b.i, b.j, b.line);
    });
    problem_.f.resize(problem_.c.size() + 1);
    for (std::size_t a = 0, b = 0; a < entries_.size(); a = b) {
      const Located& e = entries_[a];
      for (b = a + 1; b < entries_.size() && entries_[b].key() == e.key(); ++b)
        if (entries_[b].value != e.value)
          contradiction(e.matrix, e.block, e.i, e.j, entries_[b].value, entries_[b].line, {e.value, e.line});
      if (e.value != 0) store(e);
    }
    return std::move(problem_);
  }

  void store(const Located& e) {
    std::vector<SparseBlock>& blocks = problem_.f[e.matrix].blocks;
    if (blocks.empty() || blocks.back().block != e.block) blocks.push_back({e.block, {}});
    blocks.back().entries.push_back({e.i, e.j, e.value});
  }

  Cursor cur_;
  const std::string& source_;
  Problem problem_;
  int order_ = 0;
  std::vector<Located> entries_;  // as read, zeros included until the duplicates are checked
  std::vector<Given> upper_;      // the dense block being read: its upper triangle so far, row by row
};

// Appends a buffer's text to a stream and empties it.
void flush(fmt::memory_buffer& buffer, std::ostream& out) {
  out.write(buffer.data(), static_cast<std::streamsize>(buffer.size()));
  buffer.clear();
}

}  // namespace

Problem read_sdpa(std::istream& in, const std::string& source, SdpaFormat format) {
  const std::string text = io::read_all(in, source);
  return Reader(text, source).read(format);
}

Problem read_sdpa_file(const std::string& path) {
  const SdpaFormat format = path.ends_with(".dat") ? SdpaFormat::dense : SdpaFormat::sparse;
  std::ifstream in = io::open_input(path);
  return read_sdpa(in, path, format);
}

void write_sdpa_sparse(const Problem& p, std::ostream& out) {
  constexpr std::size_t kFlushAt = std::size_t{1} << 20;
  fmt::memory_buffer buffer;
  const auto to = std::back_inserter(buffer);
  fmt::format_to(to, "{}\n{}\n", p.m(), p.blocks.size());
  for (std::size_t b = 0; b < p.blocks.size(); ++b)
    fmt::format_to(to, "{}{}", b ? " " : "", p.blocks[b].diagonal ? -p.blocks[b].size : p.blocks[b].size);
  buffer.push_back('\n');
  for (std::size_t k = 0; k < p.c.size(); ++k) fmt::format_to(to, "{}{:.17g}", k ? " " : "", p.c[k]);
  buffer.push_back('\n');
  for (std::size_t k = 0; k < p.f.size(); ++k)
    for (const SparseBlock& b : p.f[k].blocks)
      for (const Entry& e : b.entries) {
        fmt::format_to(to, "{} {} {} {} {:.17g}\n", k, b.block + 1, e.i + 1, e.j + 1, e.value);
        if (buffer.size() >= kFlushAt) flush(buffer, out);
      }
  flush(buffer, out);
}

}  // namespace ulibc::sdp
