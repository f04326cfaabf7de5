// bfs/distributed/grid.hpp — how a BFS across MPI ranks lays the graph over an R × C grid of ranks.
//
// The vertices are cut into P = R·C blocks, one per rank in rank order, each a whole number of 64-vertex bitmap
// words (only the last block may end short of a word). Rank p sits at grid row p / C and column p % C. The ranks of
// a grid row own one contiguous range of vertices, the row block; the ranks of a grid column own R ranges spread
// over the vertices, the column block. Rank (r, c) holds the arcs u → v with u in column block c and v in row block
// r: the adjacency matrix cut into R × C blocks (Buluç and Madduri, "Parallel breadth-first search on distributed
// memory systems", §4; Yoo et al., "A scalable distributed parallel BFS algorithm on BlueGene/L"). A search step
// then talks only along a grid column (gathering the frontier among the sources) and along a grid row (sending what
// it discovered to the owners), C and R ranks instead of all P.
//
// Inside a rank, a vertex of its row block is known by its row index (v minus the row's first vertex) and one of its
// column block by its column index: the column's R blocks laid end to end, each padded to whole words, so that the
// frontier bitmaps its R owners gather are one bitmap.
#pragma once
#include <mpi.h>

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "bfs/distributed/grid_shape.hpp"
#include "graph/edge_list.hpp"

namespace ulibc::bfs::distributed {

using graph::Vertex;

class Grid {
 public:
  // Collective over `comm`: splits it into the grid's row and column communicators. Error(input), on every rank
  // alike, when shape.rows · shape.cols is not the size of `comm`, or when the graph has fewer 64-vertex words than
  // there are ranks (some rank would own no vertex: the graph is too small for the job).
  Grid(MPI_Comm comm, GridShape shape, std::int64_t vertices);
  ~Grid();
  Grid(const Grid&) = delete;
  Grid& operator=(const Grid&) = delete;

  MPI_Comm world() const { return world_; }
  MPI_Comm row_comm() const { return row_comm_; }  // the C ranks of this grid row, ranked by column
  MPI_Comm col_comm() const { return col_comm_; }  // the R ranks of this grid column, ranked by row
  int rank() const { return rank_; }
  int ranks() const { return shape_.rows * shape_.cols; }
  const GridShape& shape() const { return shape_; }
  int row_of(int p) const { return p / shape_.cols; }
  int col_of(int p) const { return p % shape_.cols; }
  int rank_at(int row, int col) const { return row * shape_.cols + col; }

  std::int64_t vertices() const { return n_; }
  Vertex first(int p) const { return first_[p]; }  // rank p's block: [first(p), last(p))
  Vertex last(int p) const { return first_[p + 1]; }
  Vertex block_size(int p) const { return last(p) - first(p); }
  // The rank owning v, in constant time: blocks start at word floor(p·W/P) of the graph's W words.
  int owner(Vertex v) const {
    const std::int64_t word = v / 64;
    return static_cast<int>(((word + 1) * ranks() - 1) / words_);
  }

  // This rank's row block [row_first(), row_first() + row_size()).
  Vertex row_first() const { return first(rank_at(row_of(rank_), 0)); }
  Vertex row_size() const { return last(rank_at(row_of(rank_), shape_.cols - 1)) - row_first(); }
  // Column c's blocks laid end to end, block k (rank (k, c)) from column index col_base(c, k), padded to words.
  std::int64_t col_base(int c, int k) const { return col_base_[c * (shape_.rows + 1) + k]; }
  std::int64_t col_size(int c) const { return col_base(c, shape_.rows); }
  // u's column index in its own column.
  std::int64_t col_index(Vertex u) const {
    const int p = owner(u);
    return col_base(col_of(p), row_of(p)) + (u - first(p));
  }
  // The vertex at column index i of this rank's column (i inside a block, not in its padding), by a look-up per word
  // (4 bytes a word, half the column's frontier bitmap): a bottom-up step turns every find's parent into a vertex.
  Vertex col_vertex(std::int64_t i) const { return static_cast<Vertex>(i + col_shift_[i / 64]); }
  std::size_t bytes() const {
    return (first_.size() + col_shift_.size()) * sizeof(Vertex) + col_base_.size() * sizeof(std::int64_t);
  }

 private:
  MPI_Comm world_;
  MPI_Comm row_comm_ = MPI_COMM_NULL, col_comm_ = MPI_COMM_NULL;
  GridShape shape_;
  int rank_ = 0;
  std::int64_t n_ = 0, words_ = 0;
  std::vector<Vertex> first_;           // ranks() + 1 boundaries
  std::vector<std::int64_t> col_base_;  // per column, rows + 1 bases
  std::vector<Vertex> col_shift_;       // per word of this rank's column: its block's first vertex less its base
};

}  // namespace ulibc::bfs::distributed
