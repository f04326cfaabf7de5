// sssp/dijkstra.hpp — sequential Dijkstra with a choice of priority queue.
//
// One Dijkstra object is one thread's search state: its queue, kept between
// queries so that a many-query run allocates nothing per query. The
// distance array is the caller's, so that the caller decides where it lives
// (on the thread's node, on huge pages: sssp/many_query.hpp).
#pragma once
#include <memory>
#include <span>
#include <string>

#include "graph/weighted_graph.hpp"
#include "sssp/binary_heap.hpp"
#include "sssp/radix_heap.hpp"
#include "sssp/verify.hpp"

namespace ulibc::sssp {

using graph::EdgeIndex;
using graph::GraphView;
using graph::kUnreached;

enum class Queue {
  binary_heap,  // indexed, with decrease-key: O(log n) per operation
  radix_heap,   // monotone buckets by the highest differing bit: O(1) amortised per push on integer keys
};
std::string to_string(Queue q);

class Dijkstra {
 public:
  Dijkstra(Vertex vertices, Queue queue);

  // dist[v] := the length of a shortest path from source to v, kUnreached
  // where there is none. dist has g.vertices entries; source is a vertex.
  // Returns reach(g, dist), summed as each vertex is settled (each exactly
  // once, its distance and arcs in hand): no second pass over the arrays.
  Reach run(const GraphView& g, Vertex source, std::span<Distance> dist);

  // The length of a shortest source -> target path (kUnreached: none),
  // stopping as soon as target is settled (a DIMACS .p2p query). dist is
  // working space as for run(); entries beyond the settled ball stay
  // tentative.
  Distance distance(const GraphView& g, Vertex source, Vertex target, std::span<Distance> dist);

  Queue queue() const { return queue_; }

 private:
  template <class Heap>
  Reach search(Heap& heap, const GraphView& g, Vertex source, Vertex target, std::span<Distance> dist);

  Queue queue_;
  // Only the chosen one is made: a binary heap's index is 4 bytes per vertex.
  std::unique_ptr<detail::BinaryHeap> binary_;
  std::unique_ptr<detail::RadixHeap> radix_;
};

}  // namespace ulibc::sssp
