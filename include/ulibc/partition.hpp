// ulibc/partition.hpp — splitting an index range over a mapping's nodes and threads.
//
// Node k (a node index of the mapping) gets a share of [0, n) in proportion
// to the threads mapped to it; within a node, the thread with ordcore r gets
// the r-th of equal slices. This is the arithmetic of the paper's Fig. 6,
// shared by node-distributed arrays and per-node loops.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "ulibc/mapping.hpp"
#include "ulibc/range.hpp"

namespace ulibc {

class NodePartition {
 public:
  NodePartition() = default;
  // Node boundaries are rounded to multiples of `align` (so that, for an
  // array, each node's part starts on a page); the last node ends at n.
  NodePartition(const Mapping& map, std::size_t n, std::size_t align = 1);
  // Node k's part begins at node_begins[k] instead (rounded down to `align`),
  // for work that is not spread in proportion to threads, e.g. where a task
  // scheduler runs a loop (tasks::adws_node_begins). Error(input) unless
  // there is one begin per node, the first 0, none decreasing or past n.
  NodePartition(const Mapping& map, std::size_t n, std::span<const std::size_t> node_begins, std::size_t align = 1);

  std::size_t size() const { return n_; }
  int nodes() const { return static_cast<int>(node_ranges_.size()); }
  Range node_range(int node_index) const;  // Error(input) outside 0..nodes()-1
  Range thread_range(int thread) const;    // Error(input) outside 0..threads-1
  int node_of_thread(int thread) const;

 private:
  std::size_t n_ = 0;
  std::vector<Range> node_ranges_;
  std::vector<Range> thread_ranges_;
  std::vector<int> thread_node_;
};

}  // namespace ulibc
