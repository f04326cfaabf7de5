// sync_check.cpp — the NUMA barrier and the per-node loop on the guest's
// real nodes, with every thread bound by the mapping (run_team).
#include <gtest/gtest.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "lab.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/barrier.hpp"
#include "ulibc/node_loop.hpp"
#include "ulibc/ulibc.h"

namespace {

using lab::machine;
using lab::where;
using ulibc::Mapping;
using ulibc::Placement;

// Enough to meet every node's counter many times over; the barrier's
// interleavings are stressed natively under TSan (tests/threads), not here.
constexpr int kEpisodes = 40;

// The first problem any thread saw, with its words; later ones only count.
class Problems {
 public:
  void add(const std::string& what) {
    std::lock_guard lock(mutex_);
    if (count_++ == 0) first_ = what;
  }
  int count() const { return count_; }
  const std::string& first() const { return first_; }

 private:
  std::mutex mutex_;
  int count_ = 0;
  std::string first_;
};

// In episode e every thread writes e into its slot, meets the others, and
// must then see e in every slot; a second barrier keeps the next episode's
// writes from overtaking a slow reader.
void barrier_case(const Mapping& map) {
  ulibc::NumaBarrier barrier(map);
  ASSERT_EQ(barrier.size(), map.size());
  std::vector<int> slot(map.size(), -1);  // plain ints: the barrier must order them
  Problems problems;
  ulibc::run_team(map, [&](const Placement& p) {
    for (int e = 0; e < kEpisodes; ++e) {
      slot[p.thread] = e;
      barrier.arrive_and_wait(p.thread);
      for (int t = 0; t < map.size(); ++t)
        if (slot[t] != e)
          problems.add("episode " + std::to_string(e) + ": thread " + std::to_string(p.thread) + " saw thread " +
                       std::to_string(t) + "'s slot at " + std::to_string(slot[t]) + ", expected " + std::to_string(e));
      barrier.arrive_and_wait(p.thread);
    }
  });
  EXPECT_EQ(problems.count(), 0) << problems.first();
}

TEST(Barrier, EveryEpisodeSeesEveryThreadsWrite) {
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { barrier_case(map); });
}

void c_api_barrier_case(int threads) {
  ASSERT_EQ(ulibc_init_with(nullptr, "scatter", threads), 0) << ulibc_last_error();
  ulibc_barrier* b = ulibc_barrier_create();
  ASSERT_NE(b, nullptr) << ulibc_last_error();
  std::vector<int> slot(threads, -1);
  Problems problems;
  std::vector<std::thread> team;
  for (int tid = 0; tid < threads; ++tid)
    team.emplace_back([&, tid] {
      if (ulibc_set_affinity(ulibc_get_numa_procid(tid)) != 0) problems.add(ulibc_last_error());
      for (int e = 0; e < kEpisodes; ++e) {
        slot[tid] = e;
        if (ulibc_barrier_wait(b, tid) != 0) problems.add(ulibc_last_error());
        for (int t = 0; t < threads; ++t)
          if (slot[t] != e)
            problems.add("episode " + std::to_string(e) + ": thread " + std::to_string(tid) + " saw thread " +
                         std::to_string(t) + "'s slot at " + std::to_string(slot[t]));
        if (ulibc_barrier_wait(b, tid) != 0) problems.add(ulibc_last_error());
      }
    });
  for (auto& t : team) t.join();
  ulibc_barrier_destroy(b);
  EXPECT_EQ(problems.count(), 0) << problems.first();
}

TEST(Barrier, CApiBarrierOnBoundThreads) {
  const int threads = machine().usable().count();
  lab::check(where("C API barrier, policy scatter, " + std::to_string(threads) + " threads"),
             [&] { c_api_barrier_case(threads); });
}

// Every index of [begin, end) runs exactly once, twice over (reset between).
void node_loop_case(const Mapping& map, std::size_t chunk) {
  constexpr std::size_t kBegin = 3, kEnd = 20003;
  ulibc::NodeLoop loop(lab::live(), map, kBegin, kEnd, chunk);
  auto runs = std::make_unique<std::atomic<int>[]>(kEnd);
  Problems problems;
  for (int round = 1; round <= 2; ++round) {
    std::atomic<std::size_t> stolen{0};
    ulibc::run_team(map, [&](const Placement& p) {
      stolen += loop.run(p.thread, [&](ulibc::Range r) {
        if (r.begin < kBegin || r.end > kEnd || r.begin > r.end)
          problems.add("thread " + std::to_string(p.thread) + " got [" + std::to_string(r.begin) + ", " +
                       std::to_string(r.end) + "), outside [3, 20003)");
        else
          for (std::size_t i = r.begin; i < r.end; ++i) runs[i].fetch_add(1, std::memory_order_relaxed);
      });
    });
    EXPECT_EQ(problems.count(), 0) << problems.first();
    std::size_t wrong = 0, first_wrong = 0;
    for (std::size_t i = kBegin; i < kEnd; ++i)
      if (runs[i].load() != round && wrong++ == 0) first_wrong = i;
    EXPECT_EQ(wrong, 0u) << "round " << round << ": " << wrong << " indices did not run exactly once; index "
                         << first_wrong << " ran " << runs[first_wrong].load() - (round - 1) << " times";
    EXPECT_LE(stolen.load(), kEnd - kBegin) << "round " << round << ": more indices stolen than exist";
    loop.reset();
  }
}

TEST(NodeLoop, EveryIndexRunsExactlyOnce) {
  for (const Mapping& map : lab::team_mappings(lab::live()))
    for (std::size_t chunk : {1u, 64u})
      lab::check(where(map) + ", chunk " + std::to_string(chunk), [&] { node_loop_case(map, chunk); });
}

}  // namespace
