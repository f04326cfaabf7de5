// bfs/distributed/grid.cpp — the grid of ranks and the blocks of vertices they own.
#include "bfs/distributed/grid.hpp"

#include <fmt/format.h>

#include <charconv>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::bfs::distributed {

namespace {

constexpr std::int64_t kWord = 64;

std::int64_t padded(std::int64_t count) { return (count + kWord - 1) / kWord * kWord; }

}  // namespace

std::string GridShape::name() const { return fmt::format("{}x{}", rows, cols); }

GridShape squarest_grid(int ranks) {
  int rows = 1;
  for (int r = 1; r * r <= ranks; ++r)
    if (ranks % r == 0) rows = r;
  return {rows, ranks / rows};
}

GridShape parse_grid(const std::string& text, int ranks) {
  const auto bad = [&](const std::string& why) { return input_error(fmt::format("--grid {}: {}", text, why)); };
  const std::size_t x = text.find('x');
  GridShape g;
  const auto number = [&](std::string_view s, int& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out >= 1;
  };
  if (x == std::string::npos || !number(std::string_view(text).substr(0, x), g.rows) ||
      !number(std::string_view(text).substr(x + 1), g.cols))
    throw bad("not a grid of ranks RxC with R, C >= 1 (e.g. 2x2)");
  if (static_cast<std::int64_t>(g.rows) * g.cols != ranks)
    throw bad(fmt::format("{} ranks, but the job has {}", static_cast<std::int64_t>(g.rows) * g.cols, ranks));
  return g;
}

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
  mpi::check(MPI_Comm_split(comm, row_of(rank_), col_of(rank_), &row_comm_), "MPI_Comm_split");
  mpi::check(MPI_Comm_split(comm, col_of(rank_), row_of(rank_), &col_comm_), "MPI_Comm_split");
}

Grid::~Grid() {
  if (row_comm_ != MPI_COMM_NULL) MPI_Comm_free(&row_comm_);
  if (col_comm_ != MPI_COMM_NULL) MPI_Comm_free(&col_comm_);
}

Vertex Grid::col_vertex(int c, std::int64_t i) const {
  int k = 0;
  while (k + 1 < shape_.rows && col_base(c, k + 1) <= i) ++k;
  return static_cast<Vertex>(first(rank_at(k, c)) + (i - col_base(c, k)));
}

}  // namespace ulibc::bfs::distributed
