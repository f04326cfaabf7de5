// bfs/bfs.hpp — breadth-first search: top-down, bottom-up and
// direction-optimizing (Beamer, Asanović, Patterson, SC'12), plain or
// NUMA-partitioned (Yasui & Fujisawa; the ULIBC paper, section 4.1).
//
// A search yields the BFS tree as a parent array: parent[root] == root,
// parent[v] == kUnreached for a vertex the search did not reach.
//
// The NUMA kernel splits the vertex range over the nodes of a mapping, in
// proportion to their threads; each node's part of the graph (its vertices'
// neighbour lists) and of the per-vertex state (parents, frontier bitmaps,
// queue) is allocated on that node, and each thread works on its own node's
// vertices. The plain kernel is the same search with one part for the whole
// team, placed by first touch: on one node the two do the same work.
#pragma once
#include <cstddef>
#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "graph/builder.hpp"
#include "graph/csr_graph.hpp"
#include "graph/tuples.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::bfs {

using graph::CsrGraph;
using graph::EdgeIndex;
using graph::Vertex;

constexpr Vertex kUnreached = -1;

enum class Direction { top_down, bottom_up, optimizing };

// Beamer's switching rule: go bottom-up when the frontier's edges exceed
// 1/alpha of the edges not yet examined, back top-down once the frontier is
// shrinking and holds fewer than 1/beta of the vertices.
struct Params {
  Direction direction = Direction::optimizing;
  double alpha = 15;  // GAP's and the paper's defaults
  double beta = 18;
};

// What one level of the last search did, for tests and diagnostics.
struct Step {
  Direction direction = Direction::top_down;  // top_down or bottom_up
  std::int64_t frontier = 0;                  // vertices the step started from
  std::int64_t discovered = 0;                // vertices it added
};

class Bfs {
 public:
  // Each kernel holds its graph once, as its own neighbour lists (on each
  // part's node for the NUMA kernel), each list ordered by descending
  // neighbour degree (ties by id): a bottom-up step stops at the first
  // neighbour in the frontier, and high-degree vertices are the likeliest
  // there. On Kronecker graphs that was 5-20% faster than searching an
  // id-ordered CSR. Each vertex's first neighbour is also kept in an array of
  // its own (see bytes()).
  //
  // From a CsrGraph the kernel copies its lists, which may go afterwards.
  // From tuples it builds them itself, reading the tuples twice (a
  // Kronecker graph's are drawn again each time, never held) and dropping
  // self-loops and duplicates as graph::build_undirected does; `report`
  // (optional) gets what was dropped. The lists are the same either way.
  //
  // The plain kernel on a team of `threads` OpenMP threads (>= 1, else
  // Error(input)); its memory is placed by the first touch of its threads.
  // Error(input) as graph::build_undirected's for tuples naming an id out of range.
  Bfs(const CsrGraph& g, int threads);
  Bfs(const graph::Tuples& tuples, int threads, graph::BuildReport* report = nullptr);
  // The NUMA kernel: thread t of the team (map.size() threads) is map[t] and
  // works on node map[t].node_index's part; each node's part of the graph
  // and of the state is bound to that node. The kernel does not bind
  // threads: bind the team first (bind_openmp_team(map)) so that thread t
  // runs where map[t] says. Errors of allocate_parts (ulibc/memory.hpp) pass through.
  Bfs(const CsrGraph& g, const Topology& topo, const Mapping& map);
  Bfs(const graph::Tuples& tuples, const Topology& topo, const Mapping& map, graph::BuildReport* report = nullptr);
  ~Bfs();
  Bfs(Bfs&&) noexcept;
  Bfs& operator=(Bfs&&) noexcept;

  // One search from `root` on `threads()` OpenMP threads, started by the
  // caller (not inside a parallel region). Error(input) for a root outside
  // the graph, for alpha or beta not positive, and when the OpenMP runtime
  // gives fewer threads than threads() (OMP_THREAD_LIMIT, a nested region).
  // The time of a search includes resetting the state, as in GAP and
  // Graph500. The parent array stays valid until the next search.
  std::span<const Vertex> search(Vertex root, const Params& params = {});

  const std::vector<Step>& steps() const;  // the last search's levels, in order
  int threads() const;
  int parts() const;  // 1 for the plain kernel, the mapping's nodes for the NUMA one
  // The vertices [first, last) of part p (the NUMA kernel: node index p),
  // whose neighbour lists and per-vertex state lie on that part's node.
  std::pair<Vertex, Vertex> part_range(int p) const;
  Vertex vertices() const;
  EdgeIndex arcs() const;            // twice the undirected edges
  EdgeIndex degree(Vertex v) const;  // Error(input) for v outside the graph
  // Memory the kernel holds: its graph (8-byte offsets and the top-neighbour
  // array per vertex, a 4-byte id per arc) and its per-vertex search state
  // (parents, queue, four bitmaps, the threads' queue blocks), without the
  // rounding of each array up to whole pages.
  std::size_t bytes() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace ulibc::bfs
