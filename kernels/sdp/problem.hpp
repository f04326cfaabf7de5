// sdp/problem.hpp — a semidefinite program in SDPA's form, as the solver and its readers share it.
//
// SDPA's convention (Fujisawa, Kojima, Nakata et al., the SDPA user's manual):
//   (P)  minimise   Σ c_k x_k             subject to  X = Σ_k F_k x_k − F_0 ⪰ 0,
//   (D)  maximise   F_0 • Y               subject to  F_k • Y = c_k (k = 1..m),  Y ⪰ 0,
// every matrix block-diagonal with one shared structure: dense symmetric blocks and diagonal ("LP") blocks, an LP
// block of size s being s scalar cones. A constraint matrix stores, per block it touches, the entries of its upper
// triangle (an LP block: its diagonal), 0-based, sorted, each position once, never zero.
#pragma once
#include <cstddef>
#include <vector>

namespace ulibc::sdp {

struct BlockShape {
  int size = 0;           // rows of the block (an LP block: its number of scalars)
  bool diagonal = false;  // an LP block (SDPA writes its size negative)
};

// One entry of a symmetric block, i ≤ j (on an LP block, i == j).
struct Entry {
  int i = 0, j = 0;
  double value = 0;
};

// The entries of one constraint matrix in one block, sorted by (i, j).
struct SparseBlock {
  int block = 0;  // index into Problem::blocks
  std::vector<Entry> entries;
};

// F_k: the blocks it touches, in increasing block order (none: the zero matrix).
struct ConstraintMatrix {
  std::vector<SparseBlock> blocks;
  std::size_t nonzeros() const;  // stored entries (upper triangles)
};

struct Problem {
  std::vector<BlockShape> blocks;
  std::vector<double> c;            // c_1 .. c_m at c[0] .. c[m − 1]
  std::vector<ConstraintMatrix> f;  // F_0 .. F_m at f[0] .. f[m]
  int m() const { return static_cast<int>(c.size()); }
  long long order() const;  // Σ block sizes: the order n of X and Y
};

}  // namespace ulibc::sdp
