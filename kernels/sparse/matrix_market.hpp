// sparse/matrix_market.hpp — Matrix Market files (the NIST exchange format for sparse and dense matrices) read
// into compressed sparse rows, checked while reading.
//
// Accepted: the banner "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" (keywords in any case) with
//   FORMAT    coordinate (one "I J [VALUE]" line per stored entry, 1-based; explicit zeros kept) or array (the
//             values alone, one per line, column by column; zeros not stored);
//   FIELD     real, double, integer or pattern (coordinate only: every entry 1);
//   SYMMETRY  general, symmetric (the lower or the upper triangle given, mirrored on reading) or skew-symmetric
//             (strictly one triangle, mirrored with the sign changed; a diagonal entry is an error);
// then comment lines ("%...") and blank lines, the size line ("M N NNZ", array: "M N"), and exactly the entries
// it declares. Windows line ends are tolerated and the last line needs no line end. Refused, each with
// "<source>:<line>: <what>": complex and hermitian matrices, an index outside the matrix, an entry given twice
// (after mirroring: both triangles of a symmetric matrix), a value that is not a finite number (an integer
// field: not a whole number), a missing or extra field, fewer or more entries than declared. A declared count
// costs memory only as far as the text could hold that many lines.
#pragma once
#include <istream>
#include <ostream>
#include <span>
#include <string>
#include <vector>

#include "sparse/csr_matrix.hpp"

namespace ulibc::sparse {

// What a file holds, checked: its dimensions and its entries, 0-based, sorted by (row, col), each position once
// (symmetric kinds mirrored). Building the CSR costs rows + 1 offsets more, whatever the entries: a caller that
// must bound memory looks at the dimensions first.
struct MatrixEntries {
  Index rows = 0, cols = 0;
  std::vector<Entry> entries;
};
MatrixEntries read_matrix_market_entries(std::istream& in, const std::string& source);

// The matrix in `in`; `source` names it in messages.
CsrMatrix read_matrix_market(std::istream& in, const std::string& source);
// The matrix in the file at `path`; Error(input) when it cannot be opened.
CsrMatrix read_matrix_market_file(const std::string& path);

// A vector of `rows` values: an N x 1 matrix, `array` (every value in order) or `coordinate` (entries not given are
// 0). Error(input) for another shape, with everything read_matrix_market_entries checks.
std::vector<double> read_matrix_market_vector(std::istream& in, const std::string& source, Index rows);
std::vector<double> read_matrix_market_vector_file(const std::string& path, Index rows);
// `x` as an N x 1 "array real general" file, each value with 17 significant digits so that it reads back exactly.
void write_matrix_market_vector(std::ostream& out, std::span<const double> x);

}  // namespace ulibc::sparse
