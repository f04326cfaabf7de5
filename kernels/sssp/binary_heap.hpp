// sssp/binary_heap.hpp — the textbook indexed binary heap, one of Dijkstra's queues (internal).
//
// With decrease-key: each vertex is in the heap at most once.
// The baseline queue: O(log n) per operation, the one Dijkstra's analysis
// and most libraries (BGL's d-ary heap is its cousin) use. Keys are kept in
// the heap array beside their vertex so that sifting compares without
// reading the distance array; pos_ maps a vertex to its slot, for
// decrease-key.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/weighted_graph.hpp"

namespace ulibc::sssp::detail {

using graph::Distance;
using graph::Vertex;

class BinaryHeap {
 public:
  struct Entry {
    Distance key;
    Vertex vertex;
  };

  // A heap for vertices 0..vertices-1, empty.
  explicit BinaryHeap(Vertex vertices) : pos_(static_cast<std::size_t>(vertices), kAbsent) {}

  bool empty() const { return heap_.empty(); }
  bool contains(Vertex v) const { return pos_[v] != kAbsent; }

  // Inserts v with `key`, or lowers its key to `key` if it is in the heap
  // with a larger one. Keys never rise.
  void push_or_decrease(Distance key, Vertex v) {
    std::int32_t slot = pos_[v];
    if (slot == kAbsent) {
      slot = static_cast<std::int32_t>(heap_.size());
      heap_.push_back({key, v});
    } else {
      heap_[slot].key = key;
    }
    sift_up(slot);
  }

  Entry pop() {
    const Entry top = heap_.front();
    pos_[top.vertex] = kAbsent;
    const Entry last = heap_.back();
    heap_.pop_back();
    if (!heap_.empty()) sift_down(last);
    return top;
  }

  // Empties the heap for a new search (only vertices still in it need resetting).
  void reset() {
    for (const Entry& e : heap_) pos_[e.vertex] = kAbsent;
    heap_.clear();
  }

 private:
  static constexpr std::int32_t kAbsent = -1;  // a heap holds fewer than 2^31 vertices

  void place(std::int32_t slot, Entry e) {
    heap_[slot] = e;
    pos_[e.vertex] = slot;
  }

  void sift_up(std::int32_t slot) {
    const Entry e = heap_[slot];
    while (slot > 0) {
      const std::int32_t parent = (slot - 1) / 2;
      if (heap_[parent].key <= e.key) break;
      place(slot, heap_[parent]);
      slot = parent;
    }
    place(slot, e);
  }

  // Puts e in the hole at the root and lets it sink.
  void sift_down(Entry e) {
    const auto n = static_cast<std::int32_t>(heap_.size());
    std::int32_t slot = 0;
    for (std::int32_t child = 1; child < n; child = 2 * slot + 1) {
      if (child + 1 < n && heap_[child + 1].key < heap_[child].key) ++child;
      if (e.key <= heap_[child].key) break;
      place(slot, heap_[child]);
      slot = child;
    }
    place(slot, e);
  }

  std::vector<Entry> heap_;
  std::vector<std::int32_t> pos_;
};

}  // namespace ulibc::sssp::detail
