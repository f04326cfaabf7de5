// bfs/distributed/grid.cpp — the grid of ranks and the blocks of vertices they own.
#include "bfs/distributed/grid.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::bfs::distributed {

namespace {

constexpr std::int64_t kWord = 64;

std::int64_t padded(std::int64_t count) { return (count + kWord - 1) / kWord * kWord; }

}  // namespace

Grid::Grid(MPI_Comm comm, GridShape shape, std::int64_t vertices) : world_(comm), shape_(shape), n_(vertices) {
  const mpi::Place me = mpi::place_in(comm);
  if (static_cast<std::int64_t>(shape.rows) * shape.cols != me.size)
    throw input_error(fmt::format("a {} grid needs {} ranks, but the job has {}", shape.name(),
                                  static_cast<std::int64_t>(shape.rows) * shape.cols, me.size));
  words_ = (vertices + kWord - 1) / kWord;
  if (words_ < me.size)
    throw input_error(
        fmt::format("{} ranks for a graph of {} vertices: each rank needs at least 64 of them (at most "
                    "{} ranks)",
                    me.size, vertices, words_));
  rank_ = me.rank;
  const int p_count = ranks();
  for (int p = 0; p <= p_count; ++p)
    first_.push_back(static_cast<Vertex>(std::min(vertices, words_ * p / p_count * kWord)));
  for (int c = 0; c < shape.cols; ++c) {
    std::int64_t base = 0;
    for (int k = 0; k < shape.rows; ++k) {
      col_base_.push_back(base);
      base += padded(block_size(rank_at(k, c)));
    }
    col_base_.push_back(base);
  }
  const int col = col_of(rank_);
  col_shift_.resize(static_cast<std::size_t>(col_size(col) / kWord));
  for (int k = 0; k < shape.rows; ++k)
    std::fill(col_shift_.begin() + col_base(col, k) / kWord, col_shift_.begin() + col_base(col, k + 1) / kWord,
              static_cast<Vertex>(first(rank_at(k, col)) - col_base(col, k)));
  mpi::check(MPI_Comm_split(comm, row_of(rank_), col_of(rank_), &row_comm_), "MPI_Comm_split");
  mpi::check(MPI_Comm_split(comm, col_of(rank_), row_of(rank_), &col_comm_), "MPI_Comm_split");
}

Grid::~Grid() {
  if (row_comm_ != MPI_COMM_NULL) MPI_Comm_free(&row_comm_);
  if (col_comm_ != MPI_COMM_NULL) MPI_Comm_free(&col_comm_);
}

}  // namespace ulibc::bfs::distributed
