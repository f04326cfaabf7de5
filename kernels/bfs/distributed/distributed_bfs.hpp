// bfs/distributed/distributed_bfs.hpp — direction-optimizing BFS across the ranks of an MPI job, on a 2-D grid.
//
// Each rank owns a block of vertices (grid.hpp) and their parents, and holds one block of the adjacency matrix
// (block_graph.hpp). A level runs one of two steps, chosen by the one-process kernel's rule (bfs.hpp: Beamer's
// alpha and beta, on counts summed over the job):
//   top-down:  the frontier's vertices are gathered along the grid column as a list; each rank follows the arcs
//              of its block out of them and sends every target it has not sent before, with the source as its
//              parent, to the target's owner along the grid row; the owner keeps the first parent it gets.
//   bottom-up: the frontier is gathered along the grid column as a bitmap; the row block's C segments (its ranks'
//              blocks) go round the grid row in C sub-steps, each rank looking, for every vertex of the segment in
//              hand that no rank has found yet, for a source in the frontier among its block's arcs (stopping at
//              the first), then passing the segment's bitmap on (Beamer, Buluç, Asanović and Patterson,
//              "Distributed memory breadth-first search revisited", §4); each find goes to its owner along the row.
// Every rank's threads (an OpenMP team of `threads`) share each step's loops. The calls into MPI are made by the
// thread that started MPI, between parallel regions (MPI_THREAD_FUNNELED); the steps do not overlap communication
// with computation (docs/DISTRIBUTED_BFS.md says why not here).
#pragma once
#include <mpi.h>

#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "bfs/bfs.hpp"
#include "bfs/distributed/block_graph.hpp"
#include "bfs/distributed/exchange.hpp"
#include "bfs/distributed/grid.hpp"

namespace ulibc::bfs::distributed {

// What one level of the last search did: its step, the job's frontier and discoveries, and this rank's bytes.
struct Level {
  Direction direction = Direction::top_down;  // top_down or bottom_up
  std::int64_t frontier = 0;                  // vertices the step started from, in the whole job
  std::int64_t discovered = 0;                // vertices it added, in the whole job
  Bytes bytes;                                // this rank's traffic in the step, its counts' sums included
  std::int64_t finds = 0;                     // vertices (with a parent) this rank sent to others of its row
};

class DistributedBfs {
 public:
  // Collective over `comm`: forms the grid (Error(input) as Grid's) and builds this rank's block (kernel 1) on
  // `threads` OpenMP threads (>= 1, else Error(input)). `report` (optional) as BlockGraph's.
  DistributedBfs(const graph::Tuples& tuples, MPI_Comm comm, GridShape shape, int threads,
                 graph::BuildReport* report = nullptr);
  ~DistributedBfs();

  // Collective: one search from `root`. Error(input), alike on every rank, for a root outside the graph or alpha or
  // beta not positive. Returns this rank's parents: element i is the parent of vertex grid().first(rank) + i, or
  // kUnreached. Valid until the next search.
  std::span<const Vertex> search(Vertex root, const Params& params = {});

  const std::vector<Level>& levels() const { return levels_; }  // the last search's, in order
  const Grid& grid() const { return *grid_; }
  const BlockGraph& graph() const { return *graph_; }
  int threads() const { return threads_; }
  // This rank's memory as allocated: the grid's tables, its block of the graph and its search state.
  std::size_t bytes() const;
  // Collective: the whole parent array of the last search on rank `to` (empty elsewhere), for tests and small graphs.
  std::vector<Vertex> gather_parents(int to) const;

 private:
  struct Found;
  // The job's frontier size and its arcs (summed after a top-down step only: see bitmap_scout), and this rank's finds
  // sent to others.
  struct Totals {
    std::int64_t frontier = 0, scout = 0, finds = 0;
  };
  void start(Vertex root);
  Totals top_down_step(Bytes& bytes);
  Totals bottom_up_step(Bytes& bytes);
  enum class Sources { all, first, rest };  // which of a vertex's sources a bottom-up sub-step looks at
  void search_segment(const std::vector<std::uint64_t>& frontier, int segment, std::vector<std::uint64_t>& seen,
                      Sources which);
  void gather_row_seen(Bytes& bytes);
  using Sent = Outbox<Found>;  // a thread's finds, per grid column
  Totals keep_found(const std::vector<Sent>& sent, Bytes& bytes);
  Totals frontier_totals(Bytes& bytes);
  std::int64_t bitmap_scout(Bytes& bytes);
  void front_from_bits();
  std::vector<std::uint64_t> frontier_words(Bytes& bytes);

  std::unique_ptr<Grid> grid_;
  std::unique_ptr<BlockGraph> graph_;
  int threads_ = 1;
  Vertex first_ = 0, row_offset_ = 0;  // this rank's first vertex, and its row index
  std::vector<Vertex> parent_;
  std::vector<std::uint64_t> row_seen_;    // row block: visited (own block and gathered), or already sent (top-down)
  std::vector<Vertex> front_;              // this rank's frontier, as global ids (after a top-down step)
  std::vector<std::uint64_t> front_bits_;  // ... or as a bitmap over its block (after a bottom-up step)
  bool front_in_bits_ = false;             // which of the two holds it
  std::vector<Sent> sent_;                 // each thread's finds, per owner's grid column
  std::vector<std::vector<Vertex>> kept_;  // each thread's finds kept in a top-down step, before front_
  std::vector<Level> levels_;
};

}  // namespace ulibc::bfs::distributed
