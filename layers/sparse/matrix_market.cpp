// sparse/matrix_market.cpp — the Matrix Market reader, one for real and complex values: banner, size line,
// entries, then the sorted CSR; and the array writers.
#include "sparse/matrix_market.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <fstream>
#include <optional>
#include <string_view>
#include <type_traits>
#include <vector>

#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sparse {

namespace {

using io::Fields;

enum class Format { coordinate, array };
enum class Field { real, integer, pattern, complex };
enum class Symmetry { general, symmetric, skew, hermitian };

struct Banner {
  Format format = Format::coordinate;
  Field field = Field::real;
  Symmetry symmetry = Symmetry::general;
};

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// An entry with the line it came from, so that a duplicate names both lines.
template <class T>
struct Located {
  BasicEntry<T> entry;
  Index line = 0;
};

// The text walked line by line; every failure names the source and the current line. T is what the entries
// hold: double reads real, integer and pattern files; Complex reads those too (imaginary parts 0) and complex ones.
template <class T>
class Reader {
  static constexpr bool kComplex = std::is_same_v<T, Complex>;

 public:
  Reader(std::string_view text, const std::string& source) : text_(text), source_(source) {}

  BasicMatrixEntries<T> read() {
    const Banner banner = read_banner();
    const std::string_view size_line = next_content_line();
    if (size_line.data() == nullptr) fail("the file ends before the size line");
    read_size(size_line, banner);
    read_entries(banner);
    return {rows_, cols_, sorted_entries()};
  }

 private:
  [[noreturn]] void fail(const std::string& what) const {
    if (line_ == 0) throw input_error(fmt::format("{}: {}", source_, what));  // an empty text
    throw input_error(fmt::format("{}:{}: {}", source_, line_, what));
  }

  // The next line, without its line end; a null view at the end of the text.
  std::string_view next_line() {
    if (pos_ >= text_.size()) return {};
    const std::size_t eol = std::min(text_.find('\n', pos_), text_.size());
    const std::string_view line = text_.substr(pos_, eol - pos_);
    pos_ = eol + 1;
    ++line_;
    return line;
  }

  // The next line that is neither a comment nor blank; a null view at the end.
  std::string_view next_content_line() {
    for (std::string_view line = next_line(); line.data() != nullptr; line = next_line()) {
      Fields fields(line);
      const std::string_view first = fields.next();
      if (!first.empty() && first[0] != '%') return line;
    }
    return {};
  }

  Field read_field(const std::string& field) const {
    if (field == "integer") return Field::integer;
    if (field == "pattern") return Field::pattern;
    if (field == "real" || field == "double") return Field::real;
    if (field == "complex") {
      if (!kComplex) fail("complex matrices are not read as real: read them with read_matrix_market_complex");
      return Field::complex;
    }
    fail(fmt::format("field {}: expected real, integer, pattern{}", io::quoted(field),
                     kComplex ? " or complex" : " (complex: read_matrix_market_complex)"));
  }

  Symmetry read_symmetry(const std::string& symmetry) const {
    if (symmetry == "general") return Symmetry::general;
    if (symmetry == "symmetric") return Symmetry::symmetric;
    if (symmetry == "skew-symmetric") return Symmetry::skew;
    if (symmetry == "hermitian") {
      if (!kComplex)
        fail("hermitian matrices are complex, not read as real: read them with read_matrix_market_complex");
      return Symmetry::hermitian;
    }
    fail(fmt::format("symmetry {}: expected general, symmetric, skew-symmetric{}", io::quoted(symmetry),
                     kComplex ? " or hermitian" : " (hermitian: read_matrix_market_complex)"));
  }

  Banner read_banner() {
    const std::string_view line = next_line();
    Fields f(line.data() ? line : std::string_view());
    if (lower(f.next()) != "%%matrixmarket")
      fail("the first line is not a Matrix Market banner (\"%%MatrixMarket matrix coordinate real general\")");
    const std::string object = lower(f.next()), format = lower(f.next()), field = lower(f.next()),
                      symmetry = lower(f.next());
    if (object != "matrix") fail(fmt::format("object {}: only 'matrix' is read", io::quoted(object)));
    Banner b;
    if (format == "array")
      b.format = Format::array;
    else if (format != "coordinate")
      fail(fmt::format("format {}: expected coordinate or array", io::quoted(format)));
    b.field = read_field(field);
    b.symmetry = read_symmetry(symmetry);
    if (b.format == Format::array && b.field == Field::pattern) fail("an array has values: pattern is coordinate only");
    if (b.symmetry == Symmetry::hermitian && b.field != Field::complex)
      fail("a hermitian matrix has complex values (a real one is symmetric)");
    if (!f.next().empty()) fail("the banner has more than five words");
    return b;
  }

  Index count(std::string_view field, std::string_view name, Index min, Index max) const {
    bool out_of_range = false;
    const std::optional<std::int64_t> n = io::to_integer(field, out_of_range);
    if (!n || *n < min || *n > max)
      fail(fmt::format("{} {}: expected a whole number from {} to {}", name, io::quoted(field), min, max));
    return *n;
  }

  void read_size(std::string_view line, const Banner& b) {
    Fields f(line);
    rows_ = count(f.next(), "row count", 1, kMaxDimension);
    cols_ = count(f.next(), "column count", 1, kMaxDimension);
    if (b.symmetry != Symmetry::general && rows_ != cols_)
      fail(fmt::format("a {} x {} matrix cannot be {}: it is not square", rows_, cols_,
                       b.symmetry == Symmetry::hermitian ? "hermitian" : "symmetric or skew-symmetric"));
    const Index places = b.symmetry == Symmetry::general ? rows_ * cols_
                         : b.symmetry == Symmetry::skew  ? rows_ * (rows_ - 1) / 2
                                                         : rows_ * (rows_ + 1) / 2;
    if (b.format == Format::array) {
      declared_ = places;
      array_row_ = b.symmetry == Symmetry::skew ? 1 : 0;
    } else
      declared_ = count(f.next(), "entry count", 0, places);
    if (!f.next().empty())
      fail(b.format == Format::array ? "the size line of an array is \"M N\"" : "the size line is \"M N NNZ\"");
    // A corrupt count reserves no more than the rest of the text could hold ("1 1\n" is the shortest line).
    const auto lines_left = static_cast<Index>((text_.size() - std::min(pos_, text_.size())) / 2 + 1);
    entries_.reserve(static_cast<std::size_t>(std::min(declared_, lines_left)) *
                     (b.symmetry == Symmetry::general ? 1 : 2));
  }

  double number(std::string_view field, Field kind) const {
    if (kind == Field::integer) {
      bool out_of_range = false;
      const std::optional<std::int64_t> v = io::to_integer(field, out_of_range);
      if (!v) fail(fmt::format("value {} is not a whole number (the field is integer)", io::quoted(field)));
      return static_cast<double>(*v);
    }
    std::string_view digits = field;
    if (digits.starts_with('+')) digits.remove_prefix(1);
    double v = 0;
    const auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), v);
    if (ec != std::errc() || end != digits.data() + digits.size() || !std::isfinite(v))
      fail(fmt::format("value {} is not a finite number", io::quoted(field)));
    return v;
  }

  // The value that `f` holds next, then nothing more: one number, or for a complex field its real and imaginary
  // parts. `shape` is how the line should read, for the messages.
  T value(Fields& f, Field kind, std::string_view shape) const {
    const std::string_view first = f.next();
    if (first.empty()) fail(fmt::format("{}: the value is missing", shape));
    T v = T(number(first, kind));
    if (kind == Field::complex) {
      const std::string_view second = f.next();
      if (second.empty()) fail(fmt::format("{}: the imaginary part is missing", shape));
      if constexpr (kComplex) v.imag(number(second, kind));
    }
    if (!f.next().empty()) fail(fmt::format("{}: there is more on the line", shape));
    return v;
  }

  static T mirrored(T v, Symmetry s) {
    if (s == Symmetry::skew) return -v;
    if constexpr (kComplex)
      if (s == Symmetry::hermitian) return std::conj(v);
    return v;
  }

  // The entry at (row, col) and, for the symmetric kinds, its mirror.
  void add(Index row, Index col, T v, Symmetry s) {
    if (s == Symmetry::skew && row == col)
      fail(fmt::format("entry ({}, {}) lies on the diagonal of a skew-symmetric matrix", row + 1, col + 1));
    if constexpr (kComplex)
      if (s == Symmetry::hermitian && row == col && v.imag() != 0)
        fail(fmt::format("entry ({}, {}) lies on the diagonal of a hermitian matrix: its imaginary part {} must be 0",
                         row + 1, col + 1, v.imag()));
    entries_.push_back({{row, col, v}, line_});
    if (s != Symmetry::general && row != col) entries_.push_back({{col, row, mirrored(v, s)}, line_});
  }

  // Row or column `field`, 1-based in the file, of a dimension `n`.
  Index index(std::string_view field, std::string_view name, Index n) const { return count(field, name, 1, n) - 1; }

  void read_coordinate_entry(std::string_view line, const Banner& b) {
    Fields f(line);
    const Index row = index(f.next(), "row", rows_), col = index(f.next(), "column", cols_);
    if (b.field == Field::pattern) {
      if (!f.next().empty()) fail("a pattern entry is \"I J\", without a value");
      return add(row, col, T(1), b.symmetry);
    }
    add(row, col,
        value(f, b.field, b.field == Field::complex ? "an entry is \"I J RE IM\"" : "an entry is \"I J VALUE\""),
        b.symmetry);
  }

  // The next value of an array: column by column, and in each column of a symmetric kind the rows from the
  // diagonal (skew-symmetric: below it) down. Zeros are not stored: an array is dense, its zeros are not entries.
  void read_array_value(std::string_view line, const Banner& b) {
    Fields f(line);
    const T v = value(f, b.field,
                      b.field == Field::complex ? "an array of a complex matrix has \"RE IM\" on each line"
                                                : "an array has one value per line");
    if (v != T()) add(array_row_, array_col_, v, b.symmetry);
    if (++array_row_ == rows_) {
      ++array_col_;
      array_row_ = b.symmetry == Symmetry::general ? 0 : array_col_ + (b.symmetry == Symmetry::skew ? 1 : 0);
    }
  }

  void read_entries(const Banner& b) {
    Index seen = 0;
    for (std::string_view line = next_content_line(); line.data() != nullptr; line = next_content_line()) {
      if (seen == declared_) fail(fmt::format("more entries than the {} the size line declares", declared_));
      if (b.format == Format::coordinate)
        read_coordinate_entry(line, b);
      else
        read_array_value(line, b);
      ++seen;
    }
    if (seen < declared_) fail(fmt::format("the file ends after {} of the {} entries declared", seen, declared_));
  }

  std::vector<BasicEntry<T>> sorted_entries() {
    std::sort(entries_.begin(), entries_.end(), [](const Located<T>& a, const Located<T>& b) {
      return a.entry.row != b.entry.row ? a.entry.row < b.entry.row : a.entry.col < b.entry.col;
    });
    std::vector<BasicEntry<T>> sorted;
    sorted.reserve(entries_.size());
    for (std::size_t i = 0; i < entries_.size(); ++i) {
      if (i > 0 && entries_[i].entry.row == entries_[i - 1].entry.row &&
          entries_[i].entry.col == entries_[i - 1].entry.col) {
        const auto [first, second] = std::minmax(entries_[i - 1].line, entries_[i].line);
        line_ = second;
        fail(fmt::format("entry ({}, {}) is given twice, on lines {} and {}", entries_[i].entry.row + 1,
                         entries_[i].entry.col + 1, first, second));
      }
      sorted.push_back(entries_[i].entry);
    }
    return sorted;
  }

  std::string_view text_;
  const std::string& source_;
  std::size_t pos_ = 0;
  Index line_ = 0;
  Index rows_ = 0, cols_ = 0, declared_ = 0;
  Index array_row_ = 0, array_col_ = 0;  // where an array's next value goes
  std::vector<Located<T>> entries_;
};

template <class T>
BasicMatrixEntries<T> read_entries_as(std::istream& in, const std::string& source) {
  const std::string text = io::read_all(in, source);
  return Reader<T>(text, source).read();
}

// The rows x cols matrix in `in` as its dense values, column by column (what the array writers write).
template <class T>
std::vector<T> read_dense_as(std::istream& in, const std::string& source, Index rows, Index cols) {
  const BasicMatrixEntries<T> m = read_entries_as<T>(in, source);
  if (m.rows != rows || m.cols != cols)
    throw input_error(
        fmt::format("{}: a {} x {} matrix where a {} x {} one was expected", source, m.rows, m.cols, rows, cols));
  std::vector<T> x(static_cast<std::size_t>(rows * cols), T());
  for (const BasicEntry<T>& e : m.entries) x[e.col * rows + e.row] = e.value;
  return x;
}

}  // namespace

MatrixEntries read_matrix_market_entries(std::istream& in, const std::string& source) {
  return read_entries_as<double>(in, source);
}

CsrMatrix read_matrix_market(std::istream& in, const std::string& source) {
  const MatrixEntries m = read_matrix_market_entries(in, source);
  return CsrMatrix(m.rows, m.cols, m.entries);
}

CsrMatrix read_matrix_market_file(const std::string& path) {
  std::ifstream in = io::open_input(path);
  return read_matrix_market(in, path);
}

std::vector<double> read_matrix_market_vector(std::istream& in, const std::string& source, Index rows) {
  const MatrixEntries m = read_matrix_market_entries(in, source);
  if (m.cols != 1 || m.rows != rows)
    throw input_error(fmt::format("{}: a {} x {} matrix where a vector of {} values (a {} x 1 matrix) was expected",
                                  source, m.rows, m.cols, rows, rows));
  std::vector<double> x(static_cast<std::size_t>(rows), 0.0);
  for (const Entry& e : m.entries) x[e.row] = e.value;
  return x;
}

std::vector<double> read_matrix_market_vector_file(const std::string& path, Index rows) {
  std::ifstream in = io::open_input(path);
  return read_matrix_market_vector(in, path, rows);
}

void write_matrix_market_vector(std::ostream& out, std::span<const double> x) {
  out << "%%MatrixMarket matrix array real general\n" << x.size() << " 1\n";
  for (const double v : x) out << fmt::format("{:.17g}\n", v);
}

ComplexMatrixEntries read_matrix_market_complex_entries(std::istream& in, const std::string& source) {
  return read_entries_as<Complex>(in, source);
}

ComplexCsrMatrix read_matrix_market_complex(std::istream& in, const std::string& source) {
  const ComplexMatrixEntries m = read_matrix_market_complex_entries(in, source);
  return ComplexCsrMatrix(m.rows, m.cols, m.entries);
}

ComplexCsrMatrix read_matrix_market_complex_file(const std::string& path) {
  std::ifstream in = io::open_input(path);
  return read_matrix_market_complex(in, path);
}

std::vector<Complex> read_matrix_market_complex_array(std::istream& in, const std::string& source, Index rows,
                                                      Index cols) {
  return read_dense_as<Complex>(in, source, rows, cols);
}

std::vector<Complex> read_matrix_market_complex_array_file(const std::string& path, Index rows, Index cols) {
  std::ifstream in = io::open_input(path);
  return read_matrix_market_complex_array(in, path, rows, cols);
}

void write_matrix_market_complex_array(std::ostream& out, Index rows, Index cols, std::span<const Complex> values) {
  if (rows < 1 || cols < 1 || rows > kMaxDimension || cols > kMaxDimension ||
      static_cast<std::size_t>(rows) * static_cast<std::size_t>(cols) != values.size())
    throw input_error(
        fmt::format("a {} x {} complex array of {} values: expected 1 to {} rows and columns and "
                    "rows x cols values",
                    rows, cols, values.size(), kMaxDimension));
  // Checked before anything is written: a file the reader would refuse is never begun.
  for (std::size_t k = 0; k < values.size(); ++k)
    if (!std::isfinite(values[k].real()) || !std::isfinite(values[k].imag()))
      throw input_error(fmt::format("entry ({}, {}) of a {} x {} complex array is not finite: ({}, {})",
                                    k % static_cast<std::size_t>(rows) + 1, k / static_cast<std::size_t>(rows) + 1,
                                    rows, cols, values[k].real(), values[k].imag()));
  out << "%%MatrixMarket matrix array complex general\n" << rows << ' ' << cols << '\n';
  for (const Complex& v : values) out << fmt::format("{:.17g} {:.17g}\n", v.real(), v.imag());
}

}  // namespace ulibc::sparse
