// tests/fuzz/matrix_market_fuzz.cpp — libFuzzer target for the Matrix Market readers, real and complex
// (sparse/matrix_market.hpp), on the same input.
//
// Properties, for each reader:
//   - the reader returns a matrix or throws ulibc::Error of kind input with a one-line message naming the
//     source; anything else thrown, a crash, a sanitizer report or an allocation beyond the input's size is a bug;
//   - accepted entries are well formed: 1 <= rows, cols <= kMaxDimension; every entry inside the matrix, sorted
//     by (row, col), each position once, its value finite; and the CSR built from them (when its rows + 1
//     offsets are small enough to build here) has row starts from 0, non-decreasing, the last the entry count;
//   - it holds no more entries than the input could spell: each stored line gives at most two (a mirrored one),
//     and the shortest line is two bytes.
// Between them: what the real reader accepts the complex one accepts too, with the same entries and imaginary
// parts 0; what only the complex reader accepts says complex or hermitian on its first line.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <optional>
#include <sstream>
#include <string>
#include <string_view>

#include "fuzz_read.hpp"
#include "sparse/matrix_market.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::sparse;

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("matrix_market_fuzz", what, input); }

constexpr const char* kSource = "fuzz.mtx";

// The entries, or nullopt when the reader threw as promised (fuzz_read.hpp).
std::optional<MatrixEntries> read(std::string_view input) {
  return fuzz::read_input("matrix_market_fuzz", kSource, input, read_matrix_market_entries);
}
std::optional<ComplexMatrixEntries> read_complex(std::string_view input) {
  return fuzz::read_input("matrix_market_fuzz", kSource, input, read_matrix_market_complex_entries);
}

bool finite(double v) { return std::isfinite(v); }
bool finite(Complex v) { return std::isfinite(v.real()) && std::isfinite(v.imag()); }

template <class T>
void check_entries(const BasicMatrixEntries<T>& m, std::string_view input) {
  CHECK(m.rows >= 1 && m.rows <= kMaxDimension && m.cols >= 1 && m.cols <= kMaxDimension, input);
  for (std::size_t k = 0; k < m.entries.size(); ++k) {
    const BasicEntry<T>& e = m.entries[k];
    CHECK(e.row >= 0 && e.row < m.rows && e.col >= 0 && e.col < m.cols && finite(e.value), input);
    if (k > 0) {
      const BasicEntry<T>& p = m.entries[k - 1];
      CHECK(p.row < e.row || (p.row == e.row && p.col < e.col), input);
    }
  }
}

template <class T>
void check_csr(const BasicCsrMatrix<T>& a, const BasicMatrixEntries<T>& m, std::string_view input) {
  const auto starts = a.row_start();
  CHECK(a.rows() == m.rows && a.cols() == m.cols && a.nonzeros() == static_cast<Index>(m.entries.size()), input);
  CHECK(starts.size() == static_cast<std::size_t>(a.rows()) + 1 && starts.front() == 0, input);
  CHECK(starts.back() == a.nonzeros(), input);
  for (std::size_t i = 0; i + 1 < starts.size(); ++i) CHECK(starts[i] <= starts[i + 1], input);
}

template <class T>
void check_accepted(const BasicMatrixEntries<T>& m, std::string_view input) {
  check_entries(m, input);
  CHECK(m.entries.size() <= input.size() + 2, input);
  if (m.rows <= (1 << 16)) check_csr(BasicCsrMatrix<T>(m.rows, m.cols, m.entries), m, input);
}

bool same_entries(const MatrixEntries& real, const ComplexMatrixEntries& complex) {
  return real.rows == complex.rows && real.cols == complex.cols && real.entries.size() == complex.entries.size() &&
         std::equal(real.entries.begin(), real.entries.end(), complex.entries.begin(),
                    [](const Entry& r, const ComplexEntry& z) {
                      return r.row == z.row && r.col == z.col && Complex(r.value) == z.value;
                    });
}

// Whether the banner line names a field or symmetry that only the complex reader reads.
bool names_complex(std::string_view input) {
  std::string first(input.substr(0, input.find('\n')));
  std::transform(first.begin(), first.end(), first.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return first.find("complex") != std::string::npos || first.find("hermitian") != std::string::npos;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto real = read(input);
  const auto complex = read_complex(input);
  if (real) check_accepted(*real, input);
  if (complex) check_accepted(*complex, input);
  if (real) CHECK(complex && same_entries(*real, *complex), input);
  if (complex && !real) CHECK(names_complex(input), input);
  return 0;
}
