// bfs/distributed/graph500.hpp — the Graph500 procedure around the BFS across ranks: search keys, and timed,
// validated searches with each rank's traffic.
#pragma once
#include <cstdint>
#include <vector>

#include "bfs/distributed/distributed_bfs.hpp"
#include "bfs/graph500.hpp"
#include "graph/tuples.hpp"

namespace ulibc::bfs::distributed {

// bfs::choose_roots's draw (bfs/graph500.hpp) among the vertices with neighbours, which here lie in the ranks'
// blocks: the same keys as the one-process draw from the same graph and seed, with one sum across the ranks per key
// instead of a list of every candidate on every rank. Collective.
std::vector<Vertex> choose_roots(const DistributedBfs& bfs, int count, std::uint64_t seed);
// Collective over `comm`: Error(input) on every rank naming the first of `roots` that is not a vertex or lies in no
// tuple but self-loops, before any graph is built. Each rank reads its even share of the tuples once, on `threads`.
void check_roots(const graph::Tuples& tuples, const std::vector<Vertex>& roots, MPI_Comm comm, int threads);

// A search as bfs::run_searches records it, with this rank's part of its traffic, level by level.
struct Search {
  SearchRecord record;
  std::vector<Level> levels;
};

// Collective: each search timed from a barrier to the slowest rank's end, then validated across the ranks
// (distributed/verify.hpp), the validation untimed.
std::vector<Search> run_searches(DistributedBfs& bfs, const graph::Tuples& input, const std::vector<Vertex>& roots,
                                 const Params& params);

}  // namespace ulibc::bfs::distributed
