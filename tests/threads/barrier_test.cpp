// barrier_test.cpp — the NUMA barrier under stress: teams of 1..16 std::threads (more than the
// processors of a small machine, so waiters really sleep), grouped like the
// mappings of a synthetic 4-node machine, for thousands of episodes each.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "run_threads.hpp"
#include "ulibc.hpp"
#include "ulibc/ulibc.h"

namespace {

using ulibc::Mapping;
using ulibc::NumaBarrier;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::Topology;
using ulibc::testing::expect_input_error;
using ulibc::testing::FakeMachine;
using ulibc::testing::kFourNodes;
using ulibc::testing::run_threads;
using ulibc::testing::TempDir;

using ulibc::testing::four_nodes;

std::vector<int> groups_of(const Mapping& map) {
  std::vector<int> out;
  for (const auto& p : map.threads()) out.push_back(p.node_index);
  return out;
}

// A lost wake-up or a miscounted episode shows as a hang: abort with a
// message instead of waiting for ctest's timeout.
class Watchdog {
 public:
  Watchdog(std::string what, std::chrono::seconds limit) : what_(std::move(what)) {
    thread_ = std::thread([this, limit] {
      std::unique_lock lock(mutex_);
      if (!done_cv_.wait_for(lock, limit, [this] { return done_; })) {
        std::fprintf(stderr, "watchdog: %s still running after %llds: a thread never left the barrier\n", what_.c_str(),
                     static_cast<long long>(limit.count()));
        std::abort();
      }
    });
  }
  ~Watchdog() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_one();
    thread_.join();
  }

 private:
  std::string what_;
  std::mutex mutex_;
  std::condition_variable done_cv_;
  bool done_ = false;
  std::thread thread_;
};

// Fewer episodes for bigger teams: an oversubscribed episode costs a few
// context switches per thread.
int episodes_for(int threads) { return std::max(1000, 24000 / threads); }

std::string describe(const std::vector<int>& groups) {
  std::string out = "groups";
  for (int g : groups) out += " " + std::to_string(g);
  return out;
}

// Each thread writes its slot (plain memory) before every episode and, after
// it, reads every other thread's slot: a thread that leaves early reads a
// value two episodes old, and a missing happens-before is a data race that
// ThreadSanitizer reports. Slots alternate between two buffers, so a slot is
// rewritten only two barriers after it was read.
void stress(const std::vector<int>& groups, int episodes) {
  SCOPED_TRACE(describe(groups));
  NumaBarrier barrier(groups);
  const int n = barrier.size();
  ASSERT_EQ(n, static_cast<int>(groups.size()));
  std::vector<long> slots[2] = {std::vector<long>(static_cast<std::size_t>(n), -1),
                                std::vector<long>(static_cast<std::size_t>(n), -1)};
  std::atomic<long> errors{0};
  Watchdog watchdog(describe(groups), std::chrono::seconds(100));
  run_threads(n, [&](int t) {
    const auto self = static_cast<std::size_t>(t);
    for (long e = 0; e < episodes; ++e) {
      auto& slot = slots[e % 2];
      slot[self] = e * n + t;
      barrier.arrive_and_wait(t);
      for (int u = 0; u < n; ++u)
        if (slot[static_cast<std::size_t>(u)] != e * n + u) errors.fetch_add(1, std::memory_order_relaxed);
    }
  });
  EXPECT_EQ(errors.load(), 0) << "threads left an episode before every thread had arrived";
}

TEST(NumaBarrier, OneThreadNeverWaits) {
  Watchdog watchdog("one thread", std::chrono::seconds(20));
  NumaBarrier barrier(std::vector<int>{0});
  EXPECT_EQ(barrier.size(), 1);
  for (int e = 0; e < 100000; ++e) barrier.arrive_and_wait(0);
}

TEST(NumaBarrier, FlatTeamsOfEverySize) {
  for (int n = 1; n <= 16; ++n) stress(std::vector<int>(static_cast<std::size_t>(n), 0), episodes_for(n));
}

TEST(NumaBarrier, OneThreadPerGroup) {
  for (int n = 2; n <= 16; n += (n < 4 ? 1 : 4)) {
    std::vector<int> groups;
    for (int t = 0; t < n; ++t) groups.push_back(n - 1 - t);  // group order unlike thread order
    stress(groups, episodes_for(n));
  }
}

TEST(NumaBarrier, GroupedLikeScatterAndCompactMappings) {
  for (auto kind : {PolicyKind::scatter, PolicyKind::compact})
    for (int n : {2, 3, 5, 7, 8, 12, 16}) {
      const Mapping map = Mapping::build(four_nodes(), Policy(kind), n);
      stress(groups_of(map), episodes_for(n));
    }
}

TEST(NumaBarrier, UnevenGroups) {
  stress({0, 1, 1, 1, 1, 1, 2}, episodes_for(7));
  stress({2, 0, 2, 1, 2, 2, 0, 2}, episodes_for(8));
}

TEST(NumaBarrier, BuildsFromAMappingAndRunsItsTeam) {
  for (auto kind : {PolicyKind::scatter, PolicyKind::compact, PolicyKind::none}) {
    const Mapping map = Mapping::build(four_nodes(), Policy(kind), 6);
    NumaBarrier barrier(map);
    ASSERT_EQ(barrier.size(), 6);
    std::atomic<int> arrived{0};
    std::atomic<long> errors{0};
    Watchdog watchdog("mapping team", std::chrono::seconds(60));
    run_threads(6, [&](int t) {
      for (int e = 1; e <= 500; ++e) {
        arrived.fetch_add(1, std::memory_order_relaxed);
        barrier.arrive_and_wait(t);
        if (arrived.load(std::memory_order_relaxed) < 6 * e) errors.fetch_add(1);
        barrier.arrive_and_wait(t);
      }
    });
    EXPECT_EQ(errors.load(), 0) << Policy(kind).name();
  }
}

// Late arrivals, long enough that the others go to sleep in the kernel:
// every sleeper must be woken, in every episode.
TEST(NumaBarrier, WakesSleepersEveryEpisode) {
  for (const std::vector<int>& groups :
       {std::vector<int>{0, 0}, std::vector<int>{0, 1, 0, 1}, std::vector<int>{0, 1, 2}}) {
    SCOPED_TRACE(describe(groups));
    NumaBarrier barrier(groups);
    const int n = barrier.size();
    std::atomic<int> arrived{0};
    std::atomic<long> errors{0};
    Watchdog watchdog(describe(groups), std::chrono::seconds(60));
    run_threads(n, [&](int t) {
      for (int e = 1; e <= 60; ++e) {
        if (t == e % n) std::this_thread::sleep_for(std::chrono::microseconds(1500));
        arrived.fetch_add(1, std::memory_order_relaxed);
        barrier.arrive_and_wait(t);
        if (arrived.load(std::memory_order_relaxed) < n * e) errors.fetch_add(1);
        barrier.arrive_and_wait(t);
      }
    });
    EXPECT_EQ(errors.load(), 0);
  }
}

TEST(NumaBarrier, RefusesBadGroups) {
  expect_input_error([] { NumaBarrier b(std::vector<int>{}); }, "at least one thread");
  expect_input_error([] { NumaBarrier b(std::vector<int>{0, -1}); }, "-1");
  expect_input_error([] { NumaBarrier b(std::vector<int>{0, 2}); }, "group 2");
  expect_input_error([] { NumaBarrier b(std::vector<int>{1, 1}); }, "group 1");
  expect_input_error([] { NumaBarrier b(std::vector<int>{0, 0, 2}); }, "group 1 has no thread");
  expect_input_error([] { NumaBarrier b(std::vector<int>{0, 1000000000}); }, "1000000000");
}

TEST(NumaBarrier, RefusesThreadsOutsideTheTeam) {
  Watchdog watchdog("refused arrivals", std::chrono::seconds(20));
  NumaBarrier barrier(std::vector<int>{0, 1, 0});
  expect_input_error([&] { barrier.arrive_and_wait(3); }, "3");
  expect_input_error([&] { barrier.arrive_and_wait(-1); }, "-1");
  // The refused calls did not count as arrivals.
  run_threads(3, [&](int t) { barrier.arrive_and_wait(t); });
}

TEST(CBarrier, RunsTheCurrentMappingsTeam) {
  TempDir dir;
  const std::string root = ulibc::testing::write_fake_sysfs(kFourNodes, dir.path());
  ASSERT_EQ(ulibc_init_with(root.c_str(), "scatter", 8), 0) << ulibc_last_error();
  ulibc_barrier* b = ulibc_barrier_create();
  ASSERT_NE(b, nullptr) << ulibc_last_error();
  std::atomic<int> arrived{0};
  std::atomic<long> errors{0};
  Watchdog watchdog("C barrier", std::chrono::seconds(60));
  run_threads(8, [&](int t) {
    for (int e = 1; e <= 300; ++e) {
      arrived.fetch_add(1, std::memory_order_relaxed);
      if (ulibc_barrier_wait(b, t) != 0) errors.fetch_add(1);
      if (arrived.load(std::memory_order_relaxed) < 8 * e) errors.fetch_add(1);
      if (ulibc_barrier_wait(b, t) != 0) errors.fetch_add(1);
    }
  });
  EXPECT_EQ(errors.load(), 0);

  EXPECT_EQ(ulibc_barrier_wait(b, 8), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find("8"), std::string::npos) << ulibc_last_error();
  EXPECT_EQ(ulibc_barrier_wait(nullptr, 0), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find("NULL"), std::string::npos) << ulibc_last_error();
  ulibc_barrier_destroy(b);
  ulibc_barrier_destroy(nullptr);
  ASSERT_EQ(ulibc_init(), 0) << ulibc_last_error();  // back to the live machine for later tests
}

}  // namespace
