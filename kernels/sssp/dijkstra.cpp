// sssp/dijkstra.cpp — Dijkstra's algorithm, once for both queues.
#include "sssp/dijkstra.hpp"

#include <algorithm>

namespace ulibc::sssp {
namespace {

void insert(detail::BinaryHeap& heap, Distance key, Vertex v) { heap.push_or_decrease(key, v); }
void insert(detail::RadixHeap& heap, Distance key, Vertex v) { heap.push(key, v); }

constexpr Vertex kNoTarget = -1;

}  // namespace

std::string to_string(Queue q) { return q == Queue::binary_heap ? "binary-heap" : "radix-heap"; }

Dijkstra::Dijkstra(Vertex vertices, Queue queue) : queue_(queue) {
  if (queue == Queue::binary_heap)
    binary_ = std::make_unique<detail::BinaryHeap>(vertices);
  else
    radix_ = std::make_unique<detail::RadixHeap>();
}

Reach Dijkstra::run(const GraphView& g, Vertex source, std::span<Distance> dist) {
  return queue_ == Queue::binary_heap ? search(*binary_, g, source, kNoTarget, dist)
                                      : search(*radix_, g, source, kNoTarget, dist);
}

Distance Dijkstra::distance(const GraphView& g, Vertex source, Vertex target, std::span<Distance> dist) {
  if (queue_ == Queue::binary_heap)
    search(*binary_, g, source, target, dist);
  else
    search(*radix_, g, source, target, dist);
  return dist[target];
}

template <class Heap>
Reach Dijkstra::search(Heap& heap, const GraphView& g, Vertex source, Vertex target, std::span<Distance> dist) {
  std::fill(dist.begin(), dist.end(), kUnreached);
  heap.reset();
  Reach r;
  dist[source] = 0;
  insert(heap, 0, source);
  while (!heap.empty()) {
    const auto [d, u] = heap.pop();
    // A radix heap keeps an entry per improvement: only the last is current.
    if (d != dist[u]) continue;
    if (u == target) break;
    const std::span<const graph::Arc> arcs = g.out(u);
    r.checksum += d;
    ++r.vertices;
    r.arcs += static_cast<EdgeIndex>(arcs.size());
    for (const graph::Arc& a : arcs) {
      const Distance nd = d + a.weight;
      Distance& dv = dist[a.head];
      if (nd < dv) {
        dv = nd;
        insert(heap, nd, a.head);
        __builtin_prefetch(g.arcs + g.offsets[a.head]);
      }
    }
  }
  r.checksum &= kChecksumMask;
  return r;
}

}  // namespace ulibc::sssp
