// mpi/rank_placement.hpp — where each rank of an MPI job runs: its share of the machine it shares with other ranks.
//
// Every rank finds the ranks on its own machine with MPI_Comm_split_type(MPI_COMM_TYPE_SHARED), takes its share of
// the usable processors by ulibc/rank_share.hpp's rule (one rank per NUMA node when the counts allow, otherwise
// contiguous runs in the policy's order) and places its threads by the policy inside it. The launcher's variables
// are not needed: MPI itself says who shares the machine, so a job started by any launcher is placed alike.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <string>

#include "mpi/comm.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/rank_share.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::mpi {

struct RankPlacement {
  Place world;       // in the communicator given
  LocalRank local;   // among the ranks on this machine
  std::string host;  // MPI's name of this machine
  CpuSet share;      // this rank's processors: all usable ones under policy none
  std::string rule;  // which case of the rule gave the share ("" under none: nothing is shared out)
  Topology view;     // the machine as this rank sees it: only its share allowed
};

// Collective over `comm`. Error(input) as rank_shares() gives it (a machine without a usable processor).
RankPlacement place_rank(MPI_Comm comm, const Topology& topo, const Policy& policy);

// Collective: every rank's row (rank, host, local rank, processors, rule, and the processors its `threads`
// threads run on, then the fields of its `extra` object), gathered in rank order on every rank: the table every
// JSON record of an MPI command carries.
nlohmann::ordered_json rank_table(MPI_Comm comm, const RankPlacement& me, const Mapping& threads,
                                  const nlohmann::ordered_json& extra = nlohmann::ordered_json::object());

// Collective: "<host of rank 0>/<ranks> ranks/<hosts> hosts", the layout a stored MPI profile must match
// (mpi/comm_profile.hpp).
std::string layout_key(MPI_Comm comm);

}  // namespace ulibc::mpi
