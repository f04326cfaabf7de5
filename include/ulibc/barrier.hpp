// ulibc/barrier.hpp — a hierarchical NUMA barrier.
//
// Threads first meet the other threads of their node (a counter on the
// node's own cache line), then the last arriver of each node meets the other
// nodes' last arrivers; the very last one releases everybody by advancing
// the episode on every node's line. Waiters spin briefly, then sleep in the
// kernel (futex through std::atomic::wait), so an oversubscribed team does
// not burn its time slices.
// Every write made before arrive_and_wait() by any thread is visible to all
// threads after it returns.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc {

class NumaBarrier {
 public:
  // One thread per mapping entry, grouped by node index.
  explicit NumaBarrier(const Mapping& map);
  // Thread t belongs to group group_of_thread[t] (groups dense from 0).
  explicit NumaBarrier(const std::vector<int>& group_of_thread);

  int size() const { return static_cast<int>(group_of_thread_.size()); }
  // Blocks until all size() threads have called it for this episode; thread
  // is the caller's id in 0..size()-1 (each id once per episode).
  void arrive_and_wait(int thread);

 private:
  // One node's threads: they count their arrivals and wait for the release
  // on this line, so that the waiting of a node stays in its own cache.
  struct alignas(64) Group {
    std::atomic<int> arrived{0};
    int members = 0;
    std::atomic<std::uint32_t> episode{0};  // advanced by the releaser in every group
    std::atomic<int> sleepers{0};           // threads that may be asleep on episode
  };
  Group& group_of(int thread);
  bool last_of_group(Group& g);
  bool last_of_groups();
  void release(std::uint32_t episode);
  void wait_for_release(Group& g, std::uint32_t episode) const;

  std::vector<int> group_of_thread_;
  std::unique_ptr<Group[]> groups_;
  int group_count_ = 0;
  int spin_limit_ = 0;  // pause iterations before sleeping; short when threads outnumber processors
  alignas(64) std::atomic<int> groups_arrived_{0};
};

}  // namespace ulibc
