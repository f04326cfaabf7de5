// node_loop_test.cpp — per-node loops: every index exactly once for many range and team shapes,
// stealing when one node's threads are late (and never with one node), the
// nearest-first steal order, reuse after reset(), and bad input.
#include <gtest/gtest.h>

#include <atomic>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "run_threads.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::Mapping;
using ulibc::NodeLoop;
using ulibc::NodePartition;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::Range;
using ulibc::Topology;
using ulibc::testing::expect_input_error;
using ulibc::testing::FakeMachine;
using ulibc::testing::run_threads;
using ulibc::testing::TempDir;

using ulibc::testing::four_nodes;
using ulibc::testing::kFourNodes;

// Node distances unlike index order: from node 0 the nearest is node 2,
// then 1, then 3.
const std::vector<std::vector<int>> kUneven = {{10, 30, 20, 40}, {30, 10, 40, 20}, {20, 40, 10, 30}, {40, 20, 30, 10}};

Topology load(FakeMachine m, const std::vector<std::vector<int>>& distances = {}) {
  m.distances = distances;
  return ulibc::testing::load_fake(m);
}

struct BadChunk : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Counts, per index, how often a body ran it, and checks each chunk.
class Tally {
 public:
  Tally(std::size_t begin, std::size_t end, std::size_t chunk)
      : begin_(begin), end_(end), chunk_(chunk), hits_(end - begin) {}

  // Throws on a chunk that is empty, too big or outside the range, to stop
  // a loop that hands out nonsense (a wrapped counter would run forever).
  void add(Range r) {
    if (r.empty() || r.begin < begin_ || r.end > end_ || r.size() > chunk_) {
      bad_chunks_.fetch_add(1);
      throw BadChunk("bad chunk [" + std::to_string(r.begin) + ", " + std::to_string(r.end) + ")");
    }
    for (std::size_t i = r.begin; i < r.end; ++i) hits_[i - begin_].fetch_add(1, std::memory_order_relaxed);
  }

  // Indices run other than `times` times, as "index: count" (the first few).
  std::string wrong(int times) const {
    std::string out;
    int shown = 0;
    for (std::size_t i = 0; i < hits_.size(); ++i)
      if (const int h = hits_[i].load(); h != times && shown++ < 5)
        out += std::to_string(begin_ + i) + ":" + std::to_string(h) + " ";
    if (bad_chunks_.load()) out += std::to_string(bad_chunks_.load()) + " chunks empty, too big or outside the range";
    return out;
  }

 private:
  std::size_t begin_, end_, chunk_;
  std::vector<std::atomic<int>> hits_;
  std::atomic<int> bad_chunks_{0};
};

// loop.run(t, …) with every chunk counted by the tally (and passed to
// `also`); a bad chunk ends the run, the tally reports it.
std::size_t run_counted(NodeLoop& loop, int t, Tally& tally, const std::function<void(Range)>& also = {}) {
  try {
    return loop.run(t, [&](Range r) {
      tally.add(r);
      if (also) also(r);
    });
  } catch (const BadChunk&) {
    return 0;
  }
}

// Runs the loop on every thread of the mapping; checks that each index runs
// exactly once and that each thread's stolen count is what it ran of other
// nodes' parts.
void run_once(NodeLoop& loop, const Mapping& map, std::size_t begin, std::size_t end, Tally& tally) {
  const NodePartition part(map, end - begin);
  std::vector<std::size_t> stolen(static_cast<std::size_t>(map.size())), foreign(stolen.size());
  run_threads(map.size(), [&](int t) {
    const Range own = part.node_range(map[t].node_index);
    std::size_t theirs = 0;
    stolen[static_cast<std::size_t>(t)] = run_counted(loop, t, tally, [&](Range r) {
      if (r.begin - begin < own.begin || r.end - begin > own.end) theirs += r.size();
    });
    foreign[static_cast<std::size_t>(t)] = theirs;
  });
  EXPECT_EQ(stolen, foreign) << "stolen counts differ from the indices run of other nodes";
}

void expect_each_index_once(const Mapping& map, std::size_t begin, std::size_t end, std::size_t chunk) {
  SCOPED_TRACE(map.policy().name() + " threads " + std::to_string(map.size()) + " range [" + std::to_string(begin) +
               ", " + std::to_string(end) + ") chunk " + std::to_string(chunk));
  NodeLoop loop(four_nodes(), map, begin, end, chunk);
  Tally tally(begin, end, chunk);
  run_once(loop, map, begin, end, tally);
  EXPECT_EQ(tally.wrong(1), "");
}

TEST(NodeLoop, RunsEveryIndexOnceForManyShapes) {
  struct Shape {
    std::size_t begin, end, chunk;
  };
  const Shape shapes[] = {
      {0, 0, 1},        {7, 7, 4},     {0, 1, 1},     {0, 3, 8},        {5, 9, 1000}, {0, 1000, 1},
      {1000, 13345, 7}, {3, 4099, 64}, {0, 50000, 1}, {17, 20017, 333}, {0, 15, 1},   {100, 117, 2},
  };
  for (auto kind : {PolicyKind::scatter, PolicyKind::compact, PolicyKind::compact_plus, PolicyKind::none})
    for (int n : {1, 3, 5, 8, 13, 16}) {
      const Mapping map = Mapping::build(four_nodes(), Policy(kind), n);
      for (const Shape& s : shapes) expect_each_index_once(map, s.begin, s.end, s.chunk);
    }
}

// Threads of nodes other than 0 start only after node 0's threads have
// returned: node 0's threads must have run everything, the other nodes'
// parts by stealing.
TEST(NodeLoop, StealsFromNodesWhoseThreadsAreLate) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 8);
  const std::size_t n = 10000;
  NodeLoop loop(four_nodes(), map, 0, n, 16);
  const NodePartition part(map, n);
  Tally tally(0, n, 16);
  std::atomic<int> early_left{0};
  std::atomic<std::size_t> stolen_early{0}, stolen_late{0};
  int early = 0;
  for (const auto& p : map.threads()) early += p.node_index == 0;
  run_threads(map.size(), [&](int t) {
    const bool is_early = map[t].node_index == 0;
    if (!is_early)
      while (early_left.load() < early) std::this_thread::yield();
    const std::size_t s = run_counted(loop, t, tally);
    (is_early ? stolen_early : stolen_late).fetch_add(s);
    if (is_early) early_left.fetch_add(1);
  });
  EXPECT_EQ(tally.wrong(1), "");
  EXPECT_EQ(stolen_early.load(), n - part.node_range(0).size());
  EXPECT_EQ(stolen_late.load(), 0u);
}

TEST(NodeLoop, NeverStealsWithOneNode) {
  const Topology one_node = load(FakeMachine{.packages = 1, .cores_per_package = 4, .smt = 2});
  for (auto kind : {PolicyKind::scatter, PolicyKind::none}) {
    const Mapping map = Mapping::build(one_node, Policy(kind), 6);
    NodeLoop loop(one_node, map, 0, 5000, 3);
    std::atomic<std::size_t> stolen{0};
    Tally tally(0, 5000, 3);
    run_threads(map.size(), [&](int t) {
      if (t != 0) std::this_thread::sleep_for(std::chrono::milliseconds(2));
      stolen.fetch_add(run_counted(loop, t, tally));
    });
    EXPECT_EQ(tally.wrong(1), "");
    EXPECT_EQ(stolen.load(), 0u) << Policy(kind).name();
  }
}

// Which node parts one thread, running alone, visits, in order.
std::vector<int> visit_order(const Topology& topo, const Mapping& map, int thread) {
  const std::size_t n = 4000;
  const NodePartition part(map, n);
  NodeLoop loop(topo, map, 0, n, 1000);
  std::vector<int> order;
  loop.run(thread, [&](Range r) {
    for (int k = 0; k < part.nodes(); ++k)
      if (part.node_range(k).begin <= r.begin && r.end <= part.node_range(k).end &&
          (order.empty() || order.back() != k))
        order.push_back(k);
  });
  return order;
}

int first_thread_of(const Mapping& map, int node_index) {
  for (const auto& p : map.threads())
    if (p.node_index == node_index) return p.thread;
  return -1;
}

TEST(NodeLoop, StealsNearestNodesFirst) {
  const Topology uneven = load(kFourNodes, kUneven);
  const Mapping map = Mapping::build(uneven, Policy(PolicyKind::scatter), 4);
  EXPECT_EQ(visit_order(uneven, map, first_thread_of(map, 0)), (std::vector<int>{0, 2, 1, 3}));
  EXPECT_EQ(visit_order(uneven, map, first_thread_of(map, 1)), (std::vector<int>{1, 3, 0, 2}));
  EXPECT_EQ(visit_order(uneven, map, first_thread_of(map, 3)), (std::vector<int>{3, 1, 2, 0}));
}

TEST(NodeLoop, EqualDistancesStealInIndexOrderAfterTheOwnNode) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 4);
  EXPECT_EQ(visit_order(four_nodes(), map, first_thread_of(map, 0)), (std::vector<int>{0, 1, 2, 3}));
  EXPECT_EQ(visit_order(four_nodes(), map, first_thread_of(map, 2)), (std::vector<int>{2, 3, 0, 1}));
}

// A mapping that uses nodes 0, 1 and 3 only: distances are looked up by node
// id, not by node index (index 2 is node 3, far from node 0).
TEST(NodeLoop, StealOrderUsesNodeIdsOfTheMapping) {
  const Topology uneven = load(kFourNodes, kUneven);
  std::vector<int> procs;
  for (int node : {0, 1, 3})
    for (const auto& p : uneven.processors())
      if (p.node == node) {
        procs.push_back(p.id);
        break;
      }
  const Mapping map = Mapping::build(uneven, Policy::explicit_list(procs), 3);
  ASSERT_EQ(map.node_ids(), (std::vector<int>{0, 1, 3}));
  EXPECT_EQ(visit_order(uneven, map, first_thread_of(map, 0)), (std::vector<int>{0, 1, 2}));
  EXPECT_EQ(visit_order(uneven, map, first_thread_of(map, 2)), (std::vector<int>{2, 1, 0}));
}

TEST(NodeLoop, ResetMakesEveryIndexAvailableAgain) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::compact), 6);
  NodeLoop loop(four_nodes(), map, 10, 3010, 5);
  Tally tally(10, 3010, 5);
  run_once(loop, map, 10, 3010, tally);
  std::atomic<int> after_run{0};
  loop.run(0, [&](Range) { after_run.fetch_add(1); });
  EXPECT_EQ(after_run.load(), 0) << "a finished loop handed out more chunks";
  loop.reset();
  run_once(loop, map, 10, 3010, tally);
  EXPECT_EQ(tally.wrong(2), "");
}

// Ranges ending at or near SIZE_MAX with chunks so large that a counter
// stepped by fetch_add would wrap round.
TEST(NodeLoop, RangesNearSizeMaxDoNotWrap) {
  const std::size_t max = SIZE_MAX;
  struct Shape {
    std::size_t begin, end, chunk;
  };
  const Shape shapes[] = {{max - 200, max, 1},
                          {max - 200, max, 64},
                          {max - 200, max, max / 2},
                          {max - 1000, max - 100, max / 4},
                          {max - 5, max - 2, max}};
  for (int n : {1, 4, 16}) {
    const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), n);
    for (const Shape& s : shapes) {
      SCOPED_TRACE("threads " + std::to_string(n) + " chunk " + std::to_string(s.chunk));
      for (int round = 0; round < 20; ++round) {
        NodeLoop loop(four_nodes(), map, s.begin, s.end, s.chunk);
        Tally tally(s.begin, s.end, s.chunk);
        run_once(loop, map, s.begin, s.end, tally);
        ASSERT_EQ(tally.wrong(1), "");
      }
    }
  }
}

TEST(NodeLoop, RefusesBadInput) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 4);
  expect_input_error([&] { NodeLoop(four_nodes(), map, 0, 10, 0); }, "chunk 0");
  expect_input_error([&] { NodeLoop(four_nodes(), map, 11, 10, 1); }, "[11, 10)");
  NodeLoop loop(four_nodes(), map, 0, 10, 1);
  expect_input_error([&] { loop.run(4, [](Range) {}); }, "4");
  expect_input_error([&] { loop.run(-1, [](Range) {}); }, "-1");
}

}  // namespace
