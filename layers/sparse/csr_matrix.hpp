// sparse/csr_matrix.hpp — a sparse matrix in compressed sparse rows: what the sparse solvers read.
//
// Row i's entries are columns[row_start[i] .. row_start[i+1]) with their
// values, columns ascending and each at most once. Indices are 0-based;
// explicit zeros a file stores are kept (they are part of the structure).
// One template over the value type: double for the linear solvers, std::complex<double> for the eigensolvers;
// both are instantiated once, in csr_matrix.cpp, so that a user compiles no more than this header.
#pragma once
#include <complex>
#include <cstdint>
#include <span>
#include <vector>

namespace ulibc::sparse {

using Index = std::int64_t;                        // rows, columns and entry counts
using Column = std::int32_t;                       // a stored column: half the memory of 64 bits in the largest array
inline constexpr Index kMaxDimension = INT32_MAX;  // rows and columns, so that every column fits a Column

using Complex = std::complex<double>;

// One entry as files and generators give them, 0-based.
template <class T>
struct BasicEntry {
  Index row = 0;
  Index col = 0;
  T value = T();
};
using Entry = BasicEntry<double>;
using ComplexEntry = BasicEntry<Complex>;

template <class T>
class BasicCsrMatrix {
 public:
  using value_type = T;

  BasicCsrMatrix() = default;
  // From entries sorted by (row, col), each position at most once, all inside rows x cols:
  // the readers and generators have checked that (Error(input) otherwise).
  BasicCsrMatrix(Index rows, Index cols, std::span<const BasicEntry<T>> sorted_entries);

  Index rows() const { return rows_; }
  Index cols() const { return cols_; }
  Index nonzeros() const { return static_cast<Index>(values_.size()); }
  std::span<const Index> row_start() const { return row_start_; }
  std::span<const Column> columns() const { return columns_; }
  std::span<const T> values() const { return values_; }

 private:
  Index rows_ = 0, cols_ = 0;
  std::vector<Index> row_start_ = {0};
  std::vector<Column> columns_;
  std::vector<T> values_;
};

extern template class BasicCsrMatrix<double>;
extern template class BasicCsrMatrix<Complex>;

using CsrMatrix = BasicCsrMatrix<double>;
using ComplexCsrMatrix = BasicCsrMatrix<Complex>;

}  // namespace ulibc::sparse
