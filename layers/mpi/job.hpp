// mpi/job.hpp — a program that joins an MPI job when a launcher started it, and each rank's share of its machine.
//
// A command that runs alone or across ranks (`ulibc bench bfs`, `mpirun -n K ulibc bench bfs`) starts MPI only when
// a launcher's variables say it runs under one (ulibc/rank_share.hpp's launcher_local_rank), so that a run without
// mpirun neither needs nor starts MPI. Every rank calls the collective members alike.
#pragma once
#include <optional>

#include "mpi/comm.hpp"
#include "mpi/rank_placement.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::mpi {

class Job {
 public:
  // Joins the job the first time it is called (MPI_THREAD_FUNNELED, MPI_COMM_WORLD); later calls do nothing.
  // Error(input) as launcher_local_rank for a launcher's variables that make no sense.
  void join();
  int ranks() const { return ranks_; }  // 1 until joined, and without a launcher
  int rank() const { return rank_; }
  bool across_ranks() const { return ranks_ > 1; }

  // Collective: the machine as this rank places its team under `policy`, its share (place_rank) when the job has
  // more than one rank, else the whole topology.
  Topology share(const Topology& topo, const Policy& policy);
  // The placement the last share() found; nullopt before one, and on one rank.
  const std::optional<RankPlacement>& placement() const { return place_; }
  // Collective: whether `mine` holds on every rank.
  bool everywhere(bool mine) const;

 private:
  bool joined_ = false;
  std::optional<Session> session_;  // MPI for the program's lifetime, when this object started it
  int ranks_ = 1, rank_ = 0;
  std::optional<RankPlacement> place_;
};

}  // namespace ulibc::mpi
