// sssp/radix_heap.hpp — the radix heap, Dijkstra's monotone queue (internal).
//
// Ahuja, Mehlhorn, Orlin and Tarjan's radix heap in its one-level form.
// Dijkstra only ever inserts keys >= the last key removed. A radix heap uses
// that: an entry sits in bucket b = the position of the highest bit in which
// its key differs from the last key removed (bucket 0: equal to it). When
// bucket 0 runs out, the lowest non-empty bucket's smallest key becomes the
// new "last" and that bucket is redistributed into lower buckets. Each entry
// moves down at most 64 times and usually once or twice, and every
// operation is a push_back or a pop_back on a plain array: no sift, no
// pointer chasing, no decrease-key. Entries are not updated in place: a
// vertex whose distance improves is pushed again and its stale entry is
// skipped when it comes out (the caller compares with its distance array).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "graph/weighted_graph.hpp"

namespace ulibc::sssp::detail {

using graph::Distance;
using graph::Vertex;

class RadixHeap {
 public:
  struct Entry {
    Distance key;
    Vertex vertex;
  };

  bool empty() const { return size_ == 0; }
  std::size_t size() const { return size_; }

  // key must be >= the key of the last entry popped (0 before the first pop).
  void push(Distance key, Vertex v) {
    buckets_[bucket_of(key)].push_back({key, v});
    ++size_;
  }

  // The entry with the smallest key (of several equal ones, any). Not empty().
  Entry pop() {
    if (buckets_[0].empty()) refill();
    --size_;
    const Entry e = buckets_[0].back();
    buckets_[0].pop_back();
    return e;
  }

  // Empties the heap for a new search, keeping the buckets' capacity.
  void reset() {
    for (auto& b : buckets_) b.clear();
    size_ = 0;
    last_ = 0;
  }

 private:
  static constexpr int kBuckets = 65;  // 0: equal to last_; b: highest differing bit b-1

  std::size_t bucket_of(Distance key) const {
    return key == last_ ? 0 : static_cast<std::size_t>(std::bit_width(key ^ last_));
  }

  // Bucket 0 is empty: the lowest non-empty bucket's minimum becomes last_,
  // and its entries all move to lower buckets (they agree with the new last_
  // on every bit above the bucket's).
  void refill() {
    std::size_t b = 1;
    while (buckets_[b].empty()) ++b;
    std::vector<Entry>& from = buckets_[b];
    last_ =
        std::min_element(from.begin(), from.end(), [](const Entry& x, const Entry& y) { return x.key < y.key; })->key;
    for (const Entry& e : from) buckets_[bucket_of(e.key)].push_back(e);
    from.clear();
  }

  std::array<std::vector<Entry>, kBuckets> buckets_;
  std::size_t size_ = 0;
  Distance last_ = 0;
};

}  // namespace ulibc::sssp::detail
