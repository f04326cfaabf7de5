// bfs/distributed/exchange.cpp — the counted collectives that are not templates.
#include "bfs/distributed/exchange.hpp"

namespace ulibc::bfs::distributed {

void allgather_words(std::span<std::uint64_t> all, const std::vector<int>& counts, const std::vector<int>& displs,
                     MPI_Comm comm, Bytes& bytes) {
  const mpi::Place me = mpi::place_in(comm);
  mpi::check(
      MPI_Allgatherv(MPI_IN_PLACE, 0, MPI_UINT64_T, all.data(), counts.data(), displs.data(), MPI_UINT64_T, comm),
      "MPI_Allgatherv");
  std::int64_t total = 0;
  for (int r = 0; r < me.size; ++r) total += counts[r];
  const std::int64_t own = counts[me.rank];
  bytes.sent += 8 * own * (me.size - 1);
  bytes.received += 8 * (total - own);
}

void sum_in_place(std::span<std::int64_t> values, MPI_Comm comm, Bytes& bytes) {
  const mpi::Place me = mpi::place_in(comm);
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, values.data(), static_cast<int>(values.size()), MPI_INT64_T, MPI_SUM, comm),
             "MPI_Allreduce");
  if (me.size == 1) return;
  const auto payload = static_cast<std::int64_t>(values.size_bytes());
  bytes.sent += payload;
  bytes.received += payload;
}

}  // namespace ulibc::bfs::distributed
