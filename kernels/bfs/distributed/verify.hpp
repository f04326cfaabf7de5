// bfs/distributed/verify.hpp — the BFS verifier across ranks: Graph500's five checks (bfs/verify.hpp) of a parent
// array that the ranks hold in blocks, against the input tuples, which no rank holds whole.
//
// Levels come from the parents alone, a level of the tree per round: a vertex asks its parent's owner for the
// parent's level until every reached vertex has one; a round that settles none while some wait means the parents
// loop or lead off the tree (check 2). Then each rank reads its even share of the tuples again (a Kronecker graph's
// drawn anew) in rounds: tuple {u, v} goes to u's owner, who notes a tree edge of u (check 3) and passes u's level
// on to v's owner, who compares the two ends' levels (checks 4 and 5) and notes a tree edge of v. Each rank moves
// about 20 bytes per tuple of its share and 12 per reached vertex per level of the tree.
#pragma once
#include <span>

#include "bfs/distributed/grid.hpp"
#include "bfs/verify.hpp"
#include "graph/tuples.hpp"

namespace ulibc::bfs::distributed {

// Collective over grid.world(), on `threads` OpenMP threads a rank. `parent` is this rank's block of the parent
// array (element i for vertex grid.first(rank) + i). Every rank returns the same: valid, the job's edges (Graph500's
// m), reached vertices and depth, or the failure that the lowest rank finding one found.
Validation validate(const graph::Tuples& input, const Grid& grid, Vertex root, std::span<const Vertex> parent,
                    int threads);

}  // namespace ulibc::bfs::distributed
