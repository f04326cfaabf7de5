// mpi/job.cpp — joining a launcher's job, and a rank's share of its machine.
#include "mpi/job.hpp"

#include "ulibc/rank_share.hpp"

namespace ulibc::mpi {

void Job::join() {
  if (joined_) return;
  joined_ = true;
  if (!launcher_local_rank()) return;
  session_.emplace(ThreadLevel::funneled);
  const Place me = place_in(MPI_COMM_WORLD);
  ranks_ = me.size;
  rank_ = me.rank;
}

Topology Job::share(const Topology& topo, const Policy& policy) {
  join();
  if (!across_ranks()) return topo;
  place_ = place_rank(MPI_COMM_WORLD, topo, policy);
  return place_->view;
}

bool Job::everywhere(bool mine) const {
  int all = mine;
  if (across_ranks()) check(MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_LAND, MPI_COMM_WORLD), "MPI_Allreduce");
  return all != 0;
}

}  // namespace ulibc::mpi
