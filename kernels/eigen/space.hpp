// eigen/space.hpp — the long vectors of Jacobi–Davidson and what is done to them, on the mapping's threads.
//
// A Block is n x capacity, column-major with leading dimension n, in memory that each thread first touches on
// its own rows (zblas::Team ranges of NodePartition(map, n)): under a binding policy every thread then reads and
// writes its own node's pages, in every column. Products with A use the same row split.
#pragma once
#include <complex>
#include <vector>

#include "eigen/projected.hpp"
#include "sparse/csr_matrix.hpp"
#include "ulibc/memory.hpp"
#include "zblas/zblas.hpp"

namespace ulibc::eigen::detail {

class Block {
 public:
  Block(const Topology& topo, const zblas::Team& team, std::size_t n, int capacity);
  Complex* col(int c) { return data_ + static_cast<std::size_t>(c) * n_; }
  const Complex* col(int c) const { return data_ + static_cast<std::size_t>(c) * n_; }
  std::size_t rows() const { return n_; }
  int capacity() const { return capacity_; }

 private:
  NumaBuffer buffer_;
  Complex* data_ = nullptr;
  std::size_t n_ = 0;
  int capacity_ = 0;
};

// y = A x, each thread its rows.
void multiply(const zblas::Team& team, const sparse::ComplexCsrMatrix& a, const Complex* x, Complex* y);

// Columns 0..p-1 of b become b(:, 0..j-1) z, z j x p (p <= j), in place: each thread its rows, through a buffer.
void combine(const zblas::Team& team, Block& b, int j, const DenseMatrix& z, int p);

// w -= B c with c = B^H w, B's first `cols` columns orthonormal, twice (classical Gram–Schmidt with
// reorthogonalisation: "twice is enough"); `coeff` (cols entries) receives the sum of both passes' c.
void project_out(const zblas::Team& team, const Block& b, int cols, Complex* w, Complex* coeff);

// y = x.
void copy(const zblas::Team& team, const Complex* x, Complex* y);
// x *= alpha.
void scale(const zblas::Team& team, Complex alpha, Complex* x);

}  // namespace ulibc::eigen::detail
