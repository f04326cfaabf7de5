// bfs/distributed/block_graph.hpp — Graph500's kernel 1 across ranks: each rank's block of the adjacency matrix.
//
// Rank (r, c) of the grid (grid.hpp) holds the arcs u → v with u in column block c and v in row block r, without
// self-loops or duplicates, indexed both ways: by target (a row vertex's sources, as column indices, those of
// highest degree in the whole graph first), what a bottom-up step reads, and by source (a column vertex's targets, as
// row indices, ascending), what a top-down step reads. Both indices hold the same arcs: 8 bytes an arc where the
// one-process kernel's lists take 4, the price of searching both ways without a transpose on the fly.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "bfs/distributed/exchange.hpp"
#include "bfs/distributed/grid.hpp"
#include "graph/builder.hpp"
#include "graph/tuples.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/range.hpp"

namespace ulibc::bfs::distributed {

using graph::EdgeIndex;

// Arcs a rank sends per round of its tuples: a round's buffers are what construction holds beyond the graph.
inline constexpr std::int64_t kRoundTuples = std::int64_t{1} << 20;

// This rank's even share of `tuples` tuples, cut into rounds of at most kRoundTuples. Every rank gets as many
// rounds (the last ones may be empty), so that each round can be one collective exchange for all of them.
std::vector<IndexRange<std::int64_t>> tuple_rounds(std::int64_t tuples, const Grid& grid);

// A compressed list of lists: list i is ids[offsets[i], offsets[i + 1]).
struct Lists {
  std::vector<EdgeIndex> offsets;
  std::vector<std::uint32_t> ids;
  std::span<const std::uint32_t> of(std::int64_t i) const {
    return {ids.data() + offsets[i], static_cast<std::size_t>(offsets[i + 1] - offsets[i])};
  }
  std::size_t bytes() const { return offsets.size() * sizeof(EdgeIndex) + ids.size() * sizeof(std::uint32_t); }
};

class BlockGraph {
 public:
  // Collective over grid.world(). Each rank reads an even share of the tuples (a Kronecker graph's drawn again
  // from (seed, i): no rank ever holds the edge list) on `threads` OpenMP threads and sends each arc to the rank
  // that holds it, kRoundTuples tuples at a time. `report` (optional) gets the job's self-loops and duplicates.
  // Error(input) as graph::check_edge_list for an edge list naming an id outside the graph.
  BlockGraph(const graph::Tuples& tuples, const Grid& grid, int threads, graph::BuildReport* report = nullptr);

  std::span<const std::uint32_t> sources(std::int64_t row_index) const { return by_target_.of(row_index); }
  // Each row vertex's first source, in an array of its own: a bottom-up step reads it in vertex order before the
  // vertex's list (a cache miss each), and it is usually the parent. Unused for a vertex without sources here.
  std::uint32_t first_source(std::int64_t row_index) const { return first_source_[row_index]; }
  // A bitmap over the row block: which vertices have sources here. Bits beyond the row's end are clear.
  const std::uint64_t* sourced() const { return sourced_.data(); }
  std::span<const std::uint32_t> targets(std::int64_t col_index) const { return by_source_.of(col_index); }
  // The degree, in the whole graph, of this rank's i-th vertex (grid.first(rank) + i).
  EdgeIndex degree(std::int64_t own_index) const { return degree_[own_index]; }
  EdgeIndex arcs() const { return arcs_; }  // of the whole graph
  EdgeIndex local_arcs() const { return static_cast<EdgeIndex>(by_target_.ids.size()); }
  std::size_t bytes() const {
    return by_target_.bytes() + by_source_.bytes() + (first_source_.size() + degree_.size()) * sizeof(Vertex) +
           sourced_.size() * sizeof(std::uint64_t);
  }
  const Bytes& traffic() const { return traffic_; }  // what construction moved
  // Which nodes hold the pages of this rank's block (ulibc::page_placement over the pages wholly inside its
  // arrays): one rank per node should find them all on its own.
  PagePlacement placement() const;

 private:
  struct Arc;
  std::vector<Arc> receive_arcs(const graph::Tuples& tuples, const Grid& grid, int threads, graph::BuildReport& report);
  void index_by_target(std::vector<Arc> arcs, const Grid& grid, int threads, graph::BuildReport& report);
  void index_by_source(const Grid& grid, int threads);
  void sum_degrees(const Grid& grid);
  std::vector<Vertex> column_degrees(const Grid& grid);
  void order_sources(std::span<const Vertex> source_degree, int threads);

  Lists by_target_, by_source_;
  std::vector<std::uint32_t> first_source_;
  std::vector<std::uint64_t> sourced_;
  std::vector<Vertex> degree_;
  EdgeIndex arcs_ = 0;
  Bytes traffic_;
};

}  // namespace ulibc::bfs::distributed
