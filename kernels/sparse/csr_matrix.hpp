// sparse/csr_matrix.hpp — a sparse matrix in compressed sparse rows: what the sparse solvers read.
//
// Row i's entries are columns[row_start[i] .. row_start[i+1]) with their
// values, columns ascending and each at most once. Indices are 0-based;
// explicit zeros a file stores are kept (they are part of the structure).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace ulibc::sparse {

using Index = std::int64_t;                        // rows, columns and entry counts
using Column = std::int32_t;                       // a stored column: half the memory of 64 bits in the largest array
inline constexpr Index kMaxDimension = INT32_MAX;  // rows and columns, so that every column fits a Column

// One entry as files and generators give them, 0-based.
struct Entry {
  Index row = 0;
  Index col = 0;
  double value = 0;
};

class CsrMatrix {
 public:
  CsrMatrix() = default;
  // From entries sorted by (row, col), each position at most once, all inside rows x cols:
  // the readers and generators have checked that (Error(input) otherwise).
  CsrMatrix(Index rows, Index cols, std::span<const Entry> sorted_entries);

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  Index nonzeros() const { return static_cast<Index>(values_.size()); }
  std::span<const Index> row_start() const { return row_start_; }
  std::span<const Column> columns() const { return columns_; }
  std::span<const double> values() const { return values_; }

 private:
  Index rows_ = 0, cols_ = 0;
  std::vector<Index> row_start_ = {0};
  std::vector<Column> columns_;
  std::vector<double> values_;
};

}  // namespace ulibc::sparse
