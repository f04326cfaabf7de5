// ulibc/rank_share.hpp — the processors each of the processes that share a machine takes (hybrid MPI + threads).
//
// K processes on one machine — the ranks of an MPI job that share its memory, numbered by their launcher's local
// rank — split its usable processors, and each then places its own threads by the policy inside its share
// (Topology::restricted_to). The rule, the first case that applies:
//   1. K divides the nodes with usable processors: each rank takes nodes/K whole nodes, in node order;
//   2. the nodes divide K: each node's cores are split evenly among its K/nodes ranks;
//   3. K is at most the cores: the cores in the policy's order (scatter: round robin over the nodes; the others
//      and none: node by node), split into K runs of whole cores, so that no two ranks share a core;
//   4. K is at most the processors: the processors in the policy's order, split into K runs;
//   5. more ranks than processors: rank r takes processor r mod P of that order, shared with others.
// An explicit list policy is its own order: its processors split into K runs (4 and 5).
#pragma once
#include <optional>
#include <vector>

#include "ulibc/cpuset.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc {

// The share of each of `ranks` local ranks, by rank, and which case of the rule gave it.
struct RankShares {
  std::vector<CpuSet> cpus;  // by local rank
  int rule = 0;              // 1..5, as numbered above
  bool shared() const { return rule == 5; }
  const char* rule_name() const;  // "whole nodes", "nodes split by cores", … "processors shared"
};

// Error(input) for ranks outside 1..Mapping::kMaxThreads or a machine without a usable processor.
RankShares rank_shares(const Topology& topo, const Policy& policy, int ranks);

// This process's place among the processes its launcher started on this machine.
struct LocalRank {
  int rank = 0;   // 0..ranks-1
  int ranks = 1;  // on this machine
};
// From the launcher's variables: Open MPI's OMPI_COMM_WORLD_LOCAL_RANK and OMPI_COMM_WORLD_LOCAL_SIZE, else
// MPICH's MPI_LOCALRANKID and MPI_LOCALNRANKS; nullopt when neither pair is set. Error(input) naming the
// variable for a half-set pair, a value that is not a number, or a rank outside 0..ranks-1.
std::optional<LocalRank> launcher_local_rank();

// The machine as local rank `me` sees it under `policy`: only its share allowed.
Topology rank_view(const Topology& topo, const Policy& policy, LocalRank me);

// The machine this process places its threads on: rank_view of its launcher's local rank when a launcher
// started it and the policy binds (under none nothing is placed, so nothing is shared out); otherwise `topo`.
// What `ulibc run` and the C API's set-up both use.
struct ProcessView {
  Topology topo;
  std::optional<LocalRank> rank;  // set when topo is a rank's share
};
ProcessView launcher_view(const Topology& topo, const Policy& policy);

}  // namespace ulibc
