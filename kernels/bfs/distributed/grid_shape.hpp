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

// The squarest grid with rows <= cols, as the Fugaku code chooses it: 2 ranks 1x2, 3 ranks 1x3, 4 ranks 2x2, 6 ranks
// 2x3. A square grid keeps both the column's and the row's share of each step's traffic near 1/sqrt(P).
GridShape squarest_grid(int ranks);
// "RxC" for `ranks` ranks. Error(input) naming --grid and the text when it is malformed or R·C is not `ranks`.
GridShape parse_grid(const std::string& text, int ranks);

}  // namespace ulibc::bfs::distributed
