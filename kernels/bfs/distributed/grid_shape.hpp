// bfs/distributed/grid_shape.hpp — the shape of a grid of ranks, R x C: the squarest for a rank count, or read from
// the "RxC" of --grid. Apart from grid.hpp so that the reader needs no MPI (tests/fuzz).
#pragma once
#include <string>

namespace ulibc::bfs::distributed {

struct GridShape {
  int rows = 1;
  int cols = 1;
  std::string name() const;  // "2x3"
};

// The squarest grid with rows >= cols: 2 ranks 2x1, 3 ranks 3x1, 4 ranks 2x2, 8 ranks 4x2. A square grid keeps both
// the column's and the row's share of each step's traffic near 1/sqrt(P); of the two near-square shapes, the taller
// moves less: a bottom-up step gathers the frontier bitmap along a column (R - 1 blocks in) but passes the row's
// segments round the row twice (2C - 1 blocks out), and C = 1 needs no passing and sends no finds at all.
GridShape squarest_grid(int ranks);
// "RxC" for `ranks` ranks. Error(input) naming --grid and the text when it is malformed or R·C is not `ranks`.
GridShape parse_grid(const std::string& text, int ranks);

}  // namespace ulibc::bfs::distributed
