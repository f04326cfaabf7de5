// eigen/space.cpp — node-placed blocks, the sparse product and the block updates of Jacobi–Davidson.
#include "eigen/space.hpp"

#include <cblas.h>
#include <omp.h>

#include <algorithm>

#include "ulibc/error.hpp"

namespace ulibc::eigen::detail {

namespace {

// f(thread, rows) on every thread of the team.
template <class F>
void each_thread(const zblas::Team& team, F&& f) {
#pragma omp parallel num_threads(team.threads()) if (team.threads() > 1)
  {
    const int t = omp_get_thread_num();
    f(t, team.range(t));
  }
}

}  // namespace

Block::Block(const Topology& topo, const zblas::Team& team, std::size_t n, int capacity) : n_(n), capacity_(capacity) {
  const std::size_t count = n * static_cast<std::size_t>(std::max(1, capacity));
  if (count / n != static_cast<std::size_t>(std::max(1, capacity)))
    throw input_error("eigen: a block of " + std::to_string(capacity) + " vectors of " + std::to_string(n) +
                      " entries does not fit the address space");
  // Left to first touch (node -1), which the loop below does by the thread that owns each row.
  buffer_ = allocate_parts(topo, {{.bytes = count * sizeof(Complex), .node = -1}});
  data_ = static_cast<Complex*>(buffer_.data());
  each_thread(team, [&](int, Range r) {
    for (int c = 0; c < std::max(1, capacity); ++c) std::fill(col(c) + r.begin, col(c) + r.end, Complex(0));
  });
}

void multiply(const zblas::Team& team, const sparse::ComplexCsrMatrix& a, const Complex* x, Complex* y) {
  const auto start = a.row_start();
  const auto cols = a.columns();
  const auto vals = a.values();
  each_thread(team, [&](int, Range r) {
    for (std::size_t i = r.begin; i < r.end; ++i) {
      Complex s = 0;
      for (auto k = start[i]; k < start[i + 1]; ++k) s += vals[k] * x[cols[k]];
      y[i] = s;
    }
  });
}

void combine(const zblas::Team& team, Block& b, int j, const DenseMatrix& z, int p) {
  if (p == 0 || j == 0) return;
  const Complex one = 1, zero = 0;
  const int ld = static_cast<int>(b.rows());
  each_thread(team, [&](int, Range r) {
    const int rows = static_cast<int>(r.size());
    if (rows == 0) return;
    std::vector<Complex> out(static_cast<std::size_t>(rows) * static_cast<std::size_t>(p));
    cblas_zgemm(CblasColMajor, CblasNoTrans, CblasNoTrans, rows, p, j, &one, b.col(0) + r.begin, ld, z.data(), j, &zero,
                out.data(), rows);
    for (int c = 0; c < p; ++c)
      std::copy_n(out.data() + static_cast<std::size_t>(c) * static_cast<std::size_t>(rows), rows, b.col(c) + r.begin);
  });
}

void project_out(const zblas::Team& team, const Block& b, int cols, Complex* w, Complex* coeff) {
  std::fill(coeff, coeff + cols, Complex(0));
  if (cols == 0) return;
  std::vector<Complex> c(static_cast<std::size_t>(cols));
  for (int pass = 0; pass < 2; ++pass) {
    zblas::zgemv(team, zblas::Trans::conj_trans, static_cast<std::size_t>(cols), 1.0, b.col(0), b.rows(), w, 0.0,
                 c.data());
    zblas::zgemv(team, zblas::Trans::none, static_cast<std::size_t>(cols), -1.0, b.col(0), b.rows(), c.data(), 1.0, w);
    for (int i = 0; i < cols; ++i) coeff[i] += c[i];
  }
}

void copy(const zblas::Team& team, const Complex* x, Complex* y) {
  each_thread(team, [&](int, Range r) { std::copy(x + r.begin, x + r.end, y + r.begin); });
}

void scale(const zblas::Team& team, Complex alpha, Complex* x) {
  each_thread(team, [&](int, Range r) {
    for (std::size_t i = r.begin; i < r.end; ++i) x[i] *= alpha;
  });
}

}  // namespace ulibc::eigen::detail
