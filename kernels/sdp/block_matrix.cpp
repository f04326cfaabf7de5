// sdp/block_matrix.cpp — block-diagonal symmetric matrices.
#include "sdp/block_matrix.hpp"

#include <algorithm>
#include <cmath>

namespace ulibc::sdp {

namespace {

std::size_t stored_values(const BlockShape& s) {
  const auto n = static_cast<std::size_t>(s.size);
  return s.diagonal ? n : n * n;
}

}  // namespace

BlockMatrix::BlockMatrix(const std::vector<BlockShape>& shapes)
    : shapes_(shapes), offset_(offsets(shapes)), values_(offset_.back(), 0.0) {}

std::vector<std::size_t> BlockMatrix::offsets(const std::vector<BlockShape>& shapes) {
  std::vector<std::size_t> begin{0};
  for (const BlockShape& s : shapes) begin.push_back(begin.back() + stored_values(s));
  return begin;
}

void BlockMatrix::set_zero() { std::fill(values_.begin(), values_.end(), 0.0); }

void BlockMatrix::set_identity(double scale) {
  set_zero();
  for (int b = 0; b < blocks(); ++b) {
    const int n = shape(b).size;
    const std::span<double> a = block(b);
    for (int i = 0; i < n; ++i) a[shape(b).diagonal ? i : i + static_cast<std::size_t>(i) * n] = scale;
  }
}

void BlockMatrix::add(double alpha, const ConstraintMatrix& f) {
  for (const SparseBlock& sb : f.blocks) {
    const std::span<double> a = block(sb.block);
    const std::size_t n = static_cast<std::size_t>(shape(sb.block).size);
    if (shape(sb.block).diagonal) {
      for (const Entry& e : sb.entries) a[e.i] += alpha * e.value;
      continue;
    }
    for (const Entry& e : sb.entries) {
      a[e.i + e.j * n] += alpha * e.value;
      if (e.i != e.j) a[e.j + e.i * n] += alpha * e.value;
    }
  }
}

void BlockMatrix::axpy(double alpha, const BlockMatrix& other) {
  for (std::size_t k = 0; k < values_.size(); ++k) values_[k] += alpha * other.values_[k];
}

double BlockMatrix::max_abs() const {
  double m = 0;
  for (double v : values_) m = std::max(m, std::abs(v));
  return m;
}

double dot(const ConstraintMatrix& f, const BlockMatrix& a) {
  double sum = 0;
  for (const SparseBlock& sb : f.blocks) {
    const std::span<const double> v = a.block(sb.block);
    const std::size_t n = static_cast<std::size_t>(a.shape(sb.block).size);
    if (a.shape(sb.block).diagonal) {
      for (const Entry& e : sb.entries) sum += e.value * v[e.i];
      continue;
    }
    for (const Entry& e : sb.entries)  // an off-diagonal entry stands for itself and its mirror
      sum += e.i == e.j ? e.value * v[e.i + e.j * n] : e.value * (v[e.i + e.j * n] + v[e.j + e.i * n]);
  }
  return sum;
}

double dot(const BlockMatrix& a, const BlockMatrix& b) {
  double sum = 0;
  const std::span<const double> x = a.values(), y = b.values();
  for (std::size_t k = 0; k < x.size(); ++k) sum += x[k] * y[k];  // trace(A B) = Σ A_ij B_ij for symmetric A, B
  return sum;
}

}  // namespace ulibc::sdp
