// ulibc/node_loop.hpp — per-node loop scheduling with stealing.
//
// [begin, end) is split over the mapping's nodes like a NodePartition. Each
// node hands out chunks of its own part from a counter on its own cache
// line; a thread takes chunks of its node first and, once that is empty,
// steals chunks from the other nodes, nearest first (by node distance when
// the topology gives it, else by node index). Every index runs exactly once.
#pragma once
#include <atomic>
#include <cstddef>
#include <functional>
#include <memory>
#include <vector>

#include "ulibc/mapping.hpp"
#include "ulibc/partition.hpp"

namespace ulibc {

class NodeLoop {
 public:
  // chunk: indices handed out at a time (>= 1, else Error(input)).
  NodeLoop(const Topology& topo, const Mapping& map, std::size_t begin, std::size_t end, std::size_t chunk);

  // Called by each thread of the mapping (ids 0..map.size()-1), concurrently:
  // runs body(Range) on chunks until no index is left anywhere. Returns the
  // number of indices this thread ran that belonged to other nodes (stolen).
  std::size_t run(int thread, const std::function<void(Range)>& body);

  // Makes every index available again (call between loops, not during one).
  void reset();

 private:
  struct alignas(64) Part {
    std::atomic<std::size_t> next{0};
    Range range;
  };
  Range take(Part& part) const;
  std::size_t drain(Part& part, const std::function<void(Range)>& body) const;

  std::size_t begin_ = 0;
  std::size_t chunk_ = 1;
  // Ranges ending so near SIZE_MAX that fetch_add could wrap the counter are
  // handed out by compare-exchange instead.
  bool near_max_ = false;
  NodePartition partition_;
  std::unique_ptr<Part[]> parts_;
  std::vector<std::vector<int>> steal_order_;  // by node index: the other nodes, nearest first
};

}  // namespace ulibc
