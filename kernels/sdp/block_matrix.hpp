// sdp/block_matrix.hpp — block-diagonal symmetric matrices in the problem's block structure.
//
// One contiguous array: each dense block as its full n×n column-major matrix (sdp/dense.hpp), each LP block as its
// n diagonal values. The iterates X and Y, their directions and every dense intermediate of the solver are these.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "sdp/problem.hpp"

namespace ulibc::sdp {

class BlockMatrix {
 public:
  BlockMatrix() = default;
  explicit BlockMatrix(const std::vector<BlockShape>& shapes);

  int blocks() const { return static_cast<int>(shapes_.size()); }
  const BlockShape& shape(int b) const { return shapes_[b]; }
  std::span<double> block(int b) { return {values_.data() + offset_[b], offset_[b + 1] - offset_[b]}; }
  std::span<const double> block(int b) const { return {values_.data() + offset_[b], offset_[b + 1] - offset_[b]}; }
  std::span<const double> values() const { return values_; }
  // Where each block of a matrix of these shapes begins in values(), and (last) how many values it holds.
  static std::vector<std::size_t> offsets(const std::vector<BlockShape>& shapes);

  void set_zero();
  void set_identity(double scale);                    // scale · I
  void add(double alpha, const ConstraintMatrix& f);  // this += α F (both triangles)
  void axpy(double alpha, const BlockMatrix& other);  // this += α other
  double max_abs() const;                             // the largest |entry|

 private:
  std::vector<BlockShape> shapes_;
  std::vector<std::size_t> offset_;  // block b is values_[offset_[b], offset_[b + 1])
  std::vector<double> values_;
};

// F • A = trace(F A) for a constraint matrix and a symmetric block matrix.
double dot(const ConstraintMatrix& f, const BlockMatrix& a);
// A • B = trace(A B) for symmetric block matrices.
double dot(const BlockMatrix& a, const BlockMatrix& b);

}  // namespace ulibc::sdp
