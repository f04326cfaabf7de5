// tests/fuzz/matrix_market_fuzz.cpp — libFuzzer target for the Matrix Market reader (sparse/matrix_market.hpp).
//
// Properties:
//   - the reader returns a matrix or throws ulibc::Error of kind input with a one-line message naming the
//     source; anything else thrown, a crash, a sanitizer report or an allocation beyond the input's size is a bug;
//   - accepted entries are well formed: 1 <= rows, cols <= kMaxDimension; every entry inside the matrix, sorted
//     by (row, col), each position once, its value finite; and the CSR built from them (when its rows + 1
//     offsets are small enough to build here) has row starts from 0, non-decreasing, the last the entry count;
//   - it holds no more entries than the input could spell: each stored line gives at most two (a mirrored one),
//     and the shortest line is two bytes.
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

void check_entries(const MatrixEntries& m, std::string_view input) {
  CHECK(m.rows >= 1 && m.rows <= kMaxDimension && m.cols >= 1 && m.cols <= kMaxDimension, input);
  for (std::size_t k = 0; k < m.entries.size(); ++k) {
    const Entry& e = m.entries[k];
    CHECK(e.row >= 0 && e.row < m.rows && e.col >= 0 && e.col < m.cols && std::isfinite(e.value), input);
    if (k > 0) {
      const Entry& p = m.entries[k - 1];
      CHECK(p.row < e.row || (p.row == e.row && p.col < e.col), input);
    }
  }
}

void check_csr(const CsrMatrix& a, const MatrixEntries& m, std::string_view input) {
  const auto starts = a.row_start();
  CHECK(a.rows() == m.rows && a.cols() == m.cols && a.nonzeros() == static_cast<Index>(m.entries.size()), input);
  CHECK(starts.size() == static_cast<std::size_t>(a.rows()) + 1 && starts.front() == 0, input);
  CHECK(starts.back() == a.nonzeros(), input);
  for (std::size_t i = 0; i + 1 < starts.size(); ++i) CHECK(starts[i] <= starts[i + 1], input);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  if (const auto m = read(input)) {
    check_entries(*m, input);
    CHECK(m->entries.size() <= size + 2, input);
    if (m->rows <= (1 << 16)) check_csr(CsrMatrix(m->rows, m->cols, m->entries), *m, input);
  }
  return 0;
}
