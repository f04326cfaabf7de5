// gmres/distributed_matrix.cpp — cutting a matrix into row blocks and sending each rank its own.
#include "gmres/distributed_matrix.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <climits>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

int RowBlocks::owner(Index row) const {
  return static_cast<int>(std::upper_bound(first.begin(), first.end(), row) - first.begin()) - 1;
}

std::vector<int> RowBlocks::counts() const {
  std::vector<int> c;
  for (int r = 0; r < ranks(); ++r) c.push_back(static_cast<int>(of(r).size()));
  return c;
}

std::vector<int> RowBlocks::displacements() const { return std::vector<int>(first.begin(), first.end() - 1); }

RowBlocks balance_by_nonzeros(std::span<const Index> row_start, int ranks) {
  const Index rows = static_cast<Index>(row_start.size()) - 1;
  if (ranks < 1 || ranks > rows)
    throw input_error(fmt::format("{} ranks for a matrix of {} rows: every rank needs at least one row", ranks, rows));
  RowBlocks b{{0}};
  for (int r = 1; r < ranks; ++r) {
    const auto cut = static_cast<Index>(
        weighted_share(row_start, static_cast<std::size_t>(r), static_cast<std::size_t>(ranks)).begin);
    // A row heavier than a block's share would leave a block empty: keep one row each, in order.
    b.first.push_back(std::clamp(cut, b.first.back() + 1, rows - (ranks - r)));
  }
  b.first.push_back(rows);
  return b;
}

namespace {

// What rank `root` sends each rank: its rows' lengths, columns and values (global column numbers).
struct Block {
  std::vector<Index> row_start;
  std::vector<Column> columns;
  std::vector<double> values;
};

// MPI counts are ints: a rank's share of entries must fit one.
int count_of(Index n, const char* what) {
  if (n > INT_MAX)
    throw input_error(fmt::format("{} {} on one rank: more than MPI's {} per message", n, what, INT_MAX));
  return static_cast<int>(n);
}

Block receive_block(const sparse::CsrMatrix& global, const RowBlocks& blocks, int root, MPI_Comm comm) {
  const mpi::Place me = mpi::place_in(comm);
  const int ranks = blocks.ranks();
  std::vector<int> row_counts(static_cast<std::size_t>(ranks)), row_offsets(row_counts.size());
  std::vector<int> entry_counts(row_counts.size()), entry_offsets(row_counts.size());
  std::vector<Index> lengths;  // root: every row's length
  mpi::together(comm, [&] {
    if (me.rank != root) return;
    const auto rs = global.row_start();
    for (int r = 0; r < ranks; ++r) {
      const auto rows = blocks.of(r);
      row_counts[r] = count_of(rows.size(), "rows");
      row_offsets[r] = static_cast<int>(rows.begin);
      entry_counts[r] = count_of(rs[rows.end] - rs[rows.begin], "stored entries");
      entry_offsets[r] = r == 0 ? 0 : entry_offsets[r - 1] + entry_counts[r - 1];
      if (r > 0 && static_cast<Index>(entry_offsets[r - 1]) + entry_counts[r - 1] > INT_MAX)
        throw input_error(fmt::format("{} stored entries: more than MPI's {} per scatter", global.nonzeros(), INT_MAX));
    }
    for (Index i = 0; i < global.rows(); ++i) lengths.push_back(rs[i + 1] - rs[i]);
  });
  const auto own = blocks.of(me.rank);
  Block b;
  std::vector<Index> my_lengths(static_cast<std::size_t>(own.size()));
  mpi::check(MPI_Scatterv(lengths.data(), row_counts.data(), row_offsets.data(), MPI_INT64_T, my_lengths.data(),
                          static_cast<int>(own.size()), MPI_INT64_T, root, comm),
             "MPI_Scatterv");
  b.row_start.assign(1, 0);
  for (const Index n : my_lengths) b.row_start.push_back(b.row_start.back() + n);
  const int entries = static_cast<int>(b.row_start.back());
  b.columns.resize(static_cast<std::size_t>(entries));
  b.values.resize(static_cast<std::size_t>(entries));
  mpi::check(MPI_Scatterv(global.columns().data(), entry_counts.data(), entry_offsets.data(), MPI_INT32_T,
                          b.columns.data(), entries, MPI_INT32_T, root, comm),
             "MPI_Scatterv");
  mpi::check(MPI_Scatterv(global.values().data(), entry_counts.data(), entry_offsets.data(), MPI_DOUBLE,
                          b.values.data(), entries, MPI_DOUBLE, root, comm),
             "MPI_Scatterv");
  return b;
}

// Copies the entries `keep` accepts into `part`, renumbering their columns by `local`, each thread its own rows.
template <class Keep, class Local>
void split_part(const Block& b, const Team& team, Keep keep, Local local, LocalRows& part) {
  std::vector<Index> row_start(1, 0);
  for (std::size_t i = 0; i + 1 < b.row_start.size(); ++i) {
    Index n = 0;
    for (Index k = b.row_start[i]; k < b.row_start[i + 1]; ++k) n += keep(b.columns[k]);
    row_start.push_back(row_start.back() + n);
  }
  part.row_start = TeamArray<Index>(team, static_cast<Index>(row_start.size()));
  part.columns = TeamArray<Column>(team, row_start.back(), row_start);
  part.values = TeamArray<double>(team, row_start.back(), row_start);
  team.run([&](int t, IndexRange<Index> rows) {
    for (Index i = rows.begin; i < rows.end; ++i) {
      part.row_start[i] = row_start[i];
      Index out = row_start[i];
      for (Index k = b.row_start[i]; k < b.row_start[static_cast<std::size_t>(i) + 1]; ++k) {
        const Column c = b.columns[k];
        if (!keep(c)) continue;
        part.columns[out] = local(c);
        part.values[out++] = b.values[k];
      }
    }
    if (t == team.threads() - 1) part.row_start[rows.end] = row_start.back();
  });
}

}  // namespace

DistributedMatrix DistributedMatrix::scatter(const sparse::CsrMatrix& global, int root, MPI_Comm comm, int threads) {
  const mpi::Place me = mpi::place_in(comm);
  Index shape[3] = {global.rows(), global.cols(), global.nonzeros()};
  mpi::check(MPI_Bcast(shape, 3, MPI_INT64_T, root, comm), "MPI_Bcast");
  RowBlocks blocks;
  mpi::together(comm, [&] {
    if (shape[0] != shape[1])
      throw input_error(fmt::format("a {} x {} matrix: GMRES solves square systems only", shape[0], shape[1]));
    if (me.rank == root) blocks = balance_by_nonzeros(global.row_start(), me.size);
  });
  blocks.first.resize(static_cast<std::size_t>(me.size) + 1);
  mpi::check(MPI_Bcast(blocks.first.data(), me.size + 1, MPI_INT64_T, root, comm), "MPI_Bcast");
  const Block b = receive_block(global, blocks, root, comm);

  DistributedMatrix m(Team(b.row_start, threads));
  m.global_rows_ = shape[0];
  m.global_nonzeros_ = shape[2];
  m.blocks_ = blocks;
  m.rank_ = me.rank;
  m.comm_ = comm;
  const auto own = blocks.of(me.rank);
  const auto inside = [&](Column c) { return c >= own.begin && c < own.end; };
  for (const Column c : b.columns)
    if (!inside(c)) m.ghosts_.push_back(c);
  std::sort(m.ghosts_.begin(), m.ghosts_.end());
  m.ghosts_.erase(std::unique(m.ghosts_.begin(), m.ghosts_.end()), m.ghosts_.end());
  split_part(
      b, m.team_, inside, [&](Column c) { return static_cast<Column>(c - own.begin); }, m.diagonal_);
  split_part(
      b, m.team_, [&](Column c) { return !inside(c); },
      [&](Column c) {
        return static_cast<Column>(std::lower_bound(m.ghosts_.begin(), m.ghosts_.end(), c) - m.ghosts_.begin());
      },
      m.outside_);
  for (Index i = 0; i < m.rows(); ++i)
    if (m.outside_.row_start[i + 1] > m.outside_.row_start[i]) m.outside_rows_.push_back(i);
  return m;
}

std::span<const Index> DistributedMatrix::outside_rows(IndexRange<Index> rows) const {
  const auto first = std::lower_bound(outside_rows_.begin(), outside_rows_.end(), rows.begin);
  const auto last = std::lower_bound(first, outside_rows_.end(), rows.end);
  return {first, last};
}

Vector DistributedMatrix::scatter_vector(const std::vector<double>& whole, int root) const {
  Vector mine(team_, rows());
  const std::vector<int> counts = blocks_.counts(), displs = blocks_.displacements();
  mpi::check(MPI_Scatterv(whole.data(), counts.data(), displs.data(), MPI_DOUBLE, mine.data(), static_cast<int>(rows()),
                          MPI_DOUBLE, root, comm_),
             "MPI_Scatterv");
  return mine;
}

std::vector<double> DistributedMatrix::gather_vector(const Vector& x, int root) const {
  const std::vector<int> counts = blocks_.counts(), displs = blocks_.displacements();
  std::vector<double> whole(rank_ == root ? static_cast<std::size_t>(global_rows_) : 0);
  mpi::check(MPI_Gatherv(x.data(), static_cast<int>(rows()), MPI_DOUBLE, whole.data(), counts.data(), displs.data(),
                         MPI_DOUBLE, root, comm_),
             "MPI_Gatherv");
  return whole;
}

}  // namespace ulibc::gmres
