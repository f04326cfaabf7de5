// gmres/distributed_matrix.hpp — a square sparse matrix split into row blocks, one per MPI rank.
//
// Rank r owns the contiguous rows [first[r], first[r+1]), the blocks chosen so that each carries about the same
// number of stored entries (the work of a product), not the same number of rows. A rank keeps its rows in two
// parts, as PETSc's MPIAIJ does: `diagonal`, the columns it owns itself (the square block on the diagonal, in local
// numbering), and `outside`, the columns other ranks own, numbered by their position in `ghosts` (their global
// numbers, ascending). A product then needs only the values of the ghost columns from elsewhere, and the diagonal
// part can be computed while they travel; the diagonal block is also what block ILU(0) factors.
#pragma once
#include <mpi.h>

#include <span>
#include <vector>

#include "gmres/team.hpp"
#include "sparse/csr_matrix.hpp"

namespace ulibc::gmres {

// The rows every rank owns.
struct RowBlocks {
  std::vector<Index> first;  // ranks + 1 boundaries: rank r owns [first[r], first[r+1])
  int ranks() const { return static_cast<int>(first.size()) - 1; }
  IndexRange<Index> of(int rank) const { return {first[rank], first[static_cast<std::size_t>(rank) + 1]}; }
  int owner(Index row) const;
  // One value per row, as MPI's v-collectives take them: each rank's count and where its block starts.
  std::vector<int> counts() const;
  std::vector<int> displacements() const;
};

// Blocks of about equal stored entries, each at least one row. Error(input) for more ranks than rows.
RowBlocks balance_by_nonzeros(std::span<const Index> row_start, int ranks);

// A rank's rows of one part, CSR with local column numbers, each thread's rows first touched by that thread.
struct LocalRows {
  TeamArray<Index> row_start;  // rows + 1
  TeamArray<Column> columns;
  TeamArray<double> values;
  Index nonzeros() const { return values.size(); }
};

class DistributedMatrix {
 public:
  // Collective over `comm`: the matrix `global` held by rank `root` (the other ranks pass an empty one) is cut into
  // blocks by balance_by_nonzeros and each rank receives its own; threads: the team each rank computes with.
  // Error(input), on every rank, for a matrix that is not square or has fewer rows than there are ranks.
  static DistributedMatrix scatter(const sparse::CsrMatrix& global, int root, MPI_Comm comm, int threads);
  // Collective: this rank's rows of the vector `whole` that rank `root` holds (global_rows() values; the other ranks
  // pass an empty one), and back, the whole vector on `root` (empty elsewhere) from every rank's rows.
  Vector scatter_vector(const std::vector<double>& whole, int root) const;
  std::vector<double> gather_vector(const Vector& x, int root) const;

  Index global_rows() const { return global_rows_; }
  Index global_nonzeros() const { return global_nonzeros_; }
  const RowBlocks& blocks() const { return blocks_; }
  int rank() const { return rank_; }
  IndexRange<Index> own() const { return blocks_.of(rank_); }  // the global rows this rank holds
  Index rows() const { return own().size(); }
  const Team& team() const { return team_; }
  const LocalRows& diagonal() const { return diagonal_; }
  const LocalRows& outside() const { return outside_; }
  std::span<const Index> ghosts() const { return ghosts_; }  // global column of each outside column
  // The local rows whose outside part holds entries, ascending (all of them, or those within `rows`): a banded
  // matrix's rows reach other ranks' columns only near its block's edges, so a product adds the ghosts' part to
  // these rows alone, as PETSc compresses the rows of MPIAIJ's off-diagonal block.
  std::span<const Index> outside_rows() const { return outside_rows_; }
  std::span<const Index> outside_rows(IndexRange<Index> rows) const;
  MPI_Comm comm() const { return comm_; }

 private:
  DistributedMatrix(Team team) : team_(std::move(team)) {}
  Index global_rows_ = 0, global_nonzeros_ = 0;
  RowBlocks blocks_;
  int rank_ = 0;
  Team team_;
  LocalRows diagonal_, outside_;
  std::vector<Index> ghosts_, outside_rows_;
  MPI_Comm comm_ = MPI_COMM_NULL;
};

}  // namespace ulibc::gmres
