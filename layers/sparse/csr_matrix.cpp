// sparse/csr_matrix.cpp — building compressed sparse rows from sorted entries, for real and complex values.
#include "sparse/csr_matrix.hpp"

#include <fmt/format.h>

#include "ulibc/error.hpp"

namespace ulibc::sparse {

template <class T>
BasicCsrMatrix<T>::BasicCsrMatrix(Index rows, Index cols, std::span<const BasicEntry<T>> sorted_entries)
    : rows_(rows), cols_(cols) {
  if (rows < 0 || cols < 0 || rows > kMaxDimension || cols > kMaxDimension)
    throw input_error(fmt::format("a {} x {} matrix: rows and columns run from 0 to {}", rows, cols, kMaxDimension));
  row_start_.assign(static_cast<std::size_t>(rows) + 1, 0);
  columns_.reserve(sorted_entries.size());
  values_.reserve(sorted_entries.size());
  const BasicEntry<T>* previous = nullptr;
  for (const BasicEntry<T>& e : sorted_entries) {
    if (e.row < 0 || e.row >= rows || e.col < 0 || e.col >= cols)
      throw input_error(fmt::format("entry ({}, {}) lies outside the {} x {} matrix", e.row, e.col, rows, cols));
    if (previous && (e.row < previous->row || (e.row == previous->row && e.col <= previous->col)))
      throw input_error(fmt::format("entry ({}, {}) follows ({}, {}): entries must be sorted and each given once",
                                    e.row, e.col, previous->row, previous->col));
    ++row_start_[static_cast<std::size_t>(e.row) + 1];
    columns_.push_back(static_cast<Column>(e.col));
    values_.push_back(e.value);
    previous = &e;
  }
  for (std::size_t i = 0; i < static_cast<std::size_t>(rows); ++i) row_start_[i + 1] += row_start_[i];
}

template class BasicCsrMatrix<double>;
template class BasicCsrMatrix<Complex>;

}  // namespace ulibc::sparse
