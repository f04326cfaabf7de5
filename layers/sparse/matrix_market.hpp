// sparse/matrix_market.hpp — Matrix Market files (the NIST exchange format for sparse and dense matrices) read
// into compressed sparse rows, real or complex, checked while reading; dense arrays written.
//
// Accepted: the banner "%%MatrixMarket matrix FORMAT FIELD SYMMETRY" (keywords in any case) with
//   FORMAT    coordinate (one "I J [VALUE]" line per stored entry, 1-based; explicit zeros kept) or array (the
//             values alone, one per line, column by column; zeros not stored);
//   FIELD     real, double, integer or pattern (coordinate only: every entry 1); the complex readers also read
//             complex ("I J RE IM"; an array: "RE IM" per line);
//   SYMMETRY  general, symmetric (the lower or the upper triangle given, mirrored on reading) or skew-symmetric
//             (strictly one triangle, mirrored with the sign changed; a diagonal entry is an error); the complex
//             readers also read hermitian (complex field only: one triangle, mirrored with the complex conjugate;
//             a diagonal entry with a nonzero imaginary part is an error);
// then comment lines ("%...") and blank lines, the size line ("M N NNZ", array: "M N"), and exactly the entries
// it declares. Windows line ends are tolerated and the last line needs no line end. Refused, each with
// "<source>:<line>: <what>": complex and hermitian matrices by the real readers (the message names
// read_matrix_market_complex), an index outside the matrix, an entry given twice
// (after mirroring: both triangles of a symmetric matrix), a value that is not a finite number (an integer
// field: not a whole number), a missing or extra field (a complex value's imaginary part included), fewer or more
// entries than declared. A declared count costs memory only as far as the text could hold that many lines.
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
template <class T>
struct BasicMatrixEntries {
  Index rows = 0, cols = 0;
  std::vector<BasicEntry<T>> entries;
};
using MatrixEntries = BasicMatrixEntries<double>;
using ComplexMatrixEntries = BasicMatrixEntries<Complex>;
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

// Complex matrices, for the eigensolvers. Every file the real readers accept is read too, its values with imaginary
// parts 0: an eigensolver takes a real matrix as the complex one with the same entries (its spectrum is the same,
// conjugate pairs included). The same checks as read_matrix_market_entries, by the same reader.
ComplexMatrixEntries read_matrix_market_complex_entries(std::istream& in, const std::string& source);
ComplexCsrMatrix read_matrix_market_complex(std::istream& in, const std::string& source);
ComplexCsrMatrix read_matrix_market_complex_file(const std::string& path);

// A rows x cols complex matrix as its dense values, column by column: what write_matrix_market_complex_array
// writes (any file holding such a matrix; positions not given are 0). Error(input) for another shape.
std::vector<Complex> read_matrix_market_complex_array(std::istream& in, const std::string& source, Index rows,
                                                      Index cols);
std::vector<Complex> read_matrix_market_complex_array_file(const std::string& path, Index rows, Index cols);
// `values`, rows x cols column by column (eigenvalues: N x 1; eigenvectors: N x k), as an "array complex general"
// file, one "RE IM" line per value, each part with 17 significant digits so that it reads back exactly.
// Error(input), with nothing written, when the count is not rows x cols or a value is not finite.
void write_matrix_market_complex_array(std::ostream& out, Index rows, Index cols, std::span<const Complex> values);

}  // namespace ulibc::sparse
