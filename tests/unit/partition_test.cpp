// partition_test.cpp — nodePartition: node shares in proportion to the node's threads, aligned
// node boundaries, exact covers of [0, n) by nodes and of each node's part
// by its threads, for mappings of synthetic machines and many n.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::Mapping;
using ulibc::NodePartition;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::Range;
using ulibc::Topology;
using ulibc::testing::expect_input_error;
using ulibc::testing::FakeMachine;
using ulibc::testing::load_fake;
using u128 = unsigned __int128;

// 4 nodes × 2 cores × 2 SMT threads, and 3 nodes × 3 cores.
const Topology& four_nodes() {
  static const Topology topo = load_fake(FakeMachine{.packages = 4, .cores_per_package = 2, .smt = 2});
  return topo;
}
const Topology& three_nodes() {
  static const Topology topo = load_fake(FakeMachine{.packages = 3, .cores_per_package = 3});
  return topo;
}

std::string describe(const Mapping& map, std::size_t n, std::size_t align) {
  std::string per_node;
  for (int c : map.threads_per_node()) per_node += " " + std::to_string(c);
  return map.policy().name() + ", threads per node" + per_node + ", n " + std::to_string(n) + ", align " +
         std::to_string(align);
}

void expect_nodes_cover_in_proportion(const Mapping& map, const NodePartition& part, std::size_t n, std::size_t align) {
  ASSERT_EQ(part.nodes(), map.nodes_used());
  EXPECT_EQ(part.size(), n);
  EXPECT_EQ(part.node_range(0).begin, 0u);
  EXPECT_EQ(part.node_range(part.nodes() - 1).end, n);
  u128 before = 0;
  for (int k = 0; k < part.nodes(); ++k) {
    const Range r = part.node_range(k);
    EXPECT_LE(r.begin, r.end) << "node " << k;
    if (k > 0) {
      EXPECT_EQ(r.begin, part.node_range(k - 1).end) << "gap or overlap before node " << k;
      EXPECT_EQ(r.begin % align, 0u) << "node " << k << " begins off alignment";
    }
    before += static_cast<u128>(map.threads_per_node()[static_cast<std::size_t>(k)]);
    if (k + 1 == part.nodes()) break;
    // The end is the exact proportional point, rounded down to `align`.
    const u128 exact = static_cast<u128>(n) * before / static_cast<u128>(map.size());
    EXPECT_LE(static_cast<u128>(r.end), exact) << "node " << k;
    EXPECT_LT(exact - r.end, static_cast<u128>(align)) << "node " << k;
  }
}

void expect_threads_tile_their_node(const Mapping& map, const NodePartition& part) {
  for (int k = 0; k < part.nodes(); ++k) {
    std::vector<const ulibc::Placement*> members;
    for (const auto& p : map.threads())
      if (p.node_index == k) members.push_back(&p);
    std::sort(members.begin(), members.end(), [](auto* a, auto* b) { return a->ordcore < b->ordcore; });
    std::size_t at = part.node_range(k).begin, smallest = SIZE_MAX, largest = 0;
    for (const auto* p : members) {
      EXPECT_EQ(part.node_of_thread(p->thread), k);
      const Range r = part.thread_range(p->thread);
      EXPECT_EQ(r.begin, at) << "thread " << p->thread << " (ordcore " << p->ordcore << ") of node " << k;
      EXPECT_LE(r.begin, r.end);
      at = r.end;
      smallest = std::min(smallest, r.size());
      largest = std::max(largest, r.size());
    }
    EXPECT_EQ(at, part.node_range(k).end) << "threads of node " << k << " do not reach its end";
    EXPECT_LE(largest - smallest, 1u) << "unequal slices in node " << k;
  }
}

void expect_partition_properties(const Mapping& map, std::size_t n, std::size_t align = 1) {
  SCOPED_TRACE(describe(map, n, align));
  const NodePartition part(map, n, align);
  expect_nodes_cover_in_proportion(map, part, n, align);
  expect_threads_tile_their_node(map, part);
}

std::vector<Mapping> mappings() {
  std::vector<Mapping> out;
  for (auto kind : {PolicyKind::scatter, PolicyKind::compact, PolicyKind::compact_plus})
    for (int n : {1, 2, 3, 5, 7, 11, 16}) out.push_back(Mapping::build(four_nodes(), Policy(kind), n));
  for (int n : {2, 4, 5, 9}) out.push_back(Mapping::build(three_nodes(), Policy(PolicyKind::scatter), n));
  out.push_back(Mapping::build(four_nodes(), Policy::parse("list:0,1,8,9,2,4,6"), 7));  // 4, 1, 1, 1 threads
  return out;
}

TEST(NodePartition, SharesCoverAndAreProportionalForManySizes) {
  for (const Mapping& map : mappings())
    for (std::size_t n : {0ul, 1ul, 2ul, 3ul, 15ul, 16ul, 17ul, 100ul, 1000ul, 12345ul, 1ul << 20})
      expect_partition_properties(map, n);
}

TEST(NodePartition, AlignsNodeBoundaries) {
  for (const Mapping& map : mappings())
    for (std::size_t align : {2ul, 64ul, 4096ul})
      for (std::size_t n : {0ul, 1ul, 100ul, 4095ul, 4096ul, 4097ul, 3 * 4096ul + 1, 1ul << 24, (1ul << 24) + 123})
        expect_partition_properties(map, n, align);
}

TEST(NodePartition, UnevenThreadCountsGetUnevenShares) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 5);
  ASSERT_EQ(map.threads_per_node(), (std::vector<int>{2, 1, 1, 1}));
  const NodePartition part(map, 1000);
  EXPECT_EQ(part.node_range(0), (Range{0, 400}));
  EXPECT_EQ(part.node_range(1), (Range{400, 600}));
  EXPECT_EQ(part.node_range(3), (Range{800, 1000}));
  EXPECT_EQ(part.thread_range(0), (Range{0, 200}));  // scatter: threads 0 and 4 on node 0
  EXPECT_EQ(part.thread_range(4), (Range{200, 400}));
}

TEST(NodePartition, FewerIndicesThanThreads) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::compact), 16);
  const NodePartition part(map, 3);
  std::size_t total = 0;
  for (int t = 0; t < map.size(); ++t) total += part.thread_range(t).size();
  EXPECT_EQ(total, 3u);
  expect_partition_properties(map, 3);
}

TEST(NodePartition, EmptyRange) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 7);
  const NodePartition part(map, 0, 4096);
  for (int k = 0; k < part.nodes(); ++k) EXPECT_TRUE(part.node_range(k).empty());
  for (int t = 0; t < map.size(); ++t) EXPECT_TRUE(part.thread_range(t).empty());
}

TEST(NodePartition, HugeSizesDoNotOverflow) {
  for (const Mapping& map : mappings())
    for (std::size_t n : {SIZE_MAX / 2 + 12345, SIZE_MAX - 1, SIZE_MAX}) {
      expect_partition_properties(map, n);
      expect_partition_properties(map, n, 4096);
    }
}

TEST(NodePartition, PolicyNoneIsOneNode) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::none), 5);
  const NodePartition part(map, 1001);
  ASSERT_EQ(part.nodes(), 1);
  EXPECT_EQ(part.node_range(0), (Range{0, 1001}));
  for (int t = 0; t < 5; ++t) EXPECT_EQ(part.node_of_thread(t), 0);
  expect_partition_properties(map, 1001);
}

TEST(NodePartition, RefusesIndicesOutsideItsNodesAndThreads) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 6);
  const NodePartition part(map, 100);
  expect_input_error([&] { part.node_range(-1); }, "node index -1 is outside 0..3");
  expect_input_error([&] { part.node_range(4); }, "node index 4 is outside 0..3");
  expect_input_error([&] { part.thread_range(-1); }, "thread -1 is outside 0..5");
  expect_input_error([&] { part.thread_range(6); }, "thread 6 is outside 0..5");
  expect_input_error([&] { part.node_of_thread(6); }, "thread 6");
  expect_input_error([&] { NodePartition(map, 100, 0); }, "alignment");
}

// Given node begins (work not spread by threads): each node's part begins there, rounded down to the alignment,
// and its threads share it evenly as before.
TEST(NodePartition, GivenBeginsPlaceTheNodeBoundaries) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 5);  // 2, 1, 1, 1 threads
  const std::vector<std::size_t> begins = {0, 700, 701, 990};
  const NodePartition part(map, 1000, begins);
  EXPECT_EQ(part.node_range(0), (Range{0, 700}));
  EXPECT_EQ(part.node_range(1), (Range{700, 701}));
  EXPECT_EQ(part.node_range(2), (Range{701, 990}));
  EXPECT_EQ(part.node_range(3), (Range{990, 1000}));
  EXPECT_EQ(part.thread_range(0), (Range{0, 350}));
  EXPECT_EQ(part.thread_range(4), (Range{350, 700}));
  const NodePartition aligned(map, 1000, begins, 64);
  EXPECT_EQ(aligned.node_range(0), (Range{0, 640}));
  EXPECT_EQ(aligned.node_range(1), (Range{640, 640}));
  EXPECT_EQ(aligned.node_range(2), (Range{640, 960}));
  EXPECT_EQ(aligned.node_range(3), (Range{960, 1000}));
  const std::vector<std::size_t> none_after_first = {0, 1000, 1000, 1000};
  EXPECT_EQ(NodePartition(map, 1000, none_after_first).node_range(0), (Range{0, 1000}));
}

TEST(NodePartition, RefusesBeginsThatDoNotSplitTheRange) {
  const Mapping map = Mapping::build(four_nodes(), Policy(PolicyKind::scatter), 4);
  const auto with = [&](std::vector<std::size_t> begins) {
    return [&map, begins] { NodePartition(map, 100, begins); };
  };
  expect_input_error(with({0, 10, 20}), "3 node begins for 4 nodes");
  expect_input_error(with({5, 10, 20, 30}), "node 0 begins at 5, not 0");
  expect_input_error(with({0, 30, 20, 40}), "node 2 begins at 20, outside 30..100");
  expect_input_error(with({0, 10, 20, 101}), "node 3 begins at 101, outside 20..100");
}

TEST(NodePartition, DefaultIsEmpty) {
  const NodePartition part;
  EXPECT_EQ(part.nodes(), 0);
  EXPECT_EQ(part.size(), 0u);
  expect_input_error([&] { part.node_range(0); }, "node index 0 is outside");
  expect_input_error([&] { part.thread_range(0); }, "thread 0 is outside 0..-1");
}

// Both splits cover the range in order with shares that differ by at most one;
// they differ in where the longer shares go.
TEST(Range, EvenAndStaticScheduleSharesCoverInOrder) {
  for (std::size_t n : {0, 1, 7, 10, 1000, 1001}) {
    for (std::size_t count : {1, 2, 3, 4, 7}) {
      const ulibc::Range r{5, 5 + n};
      for (const auto& share : {ulibc::even_share<std::size_t>, ulibc::static_schedule_share<std::size_t>}) {
        std::size_t next = r.begin, shortest = n, longest = 0;
        for (std::size_t i = 0; i < count; ++i) {
          const ulibc::Range s = share(r, i, count);
          EXPECT_EQ(s.begin, next) << "n " << n << ", share " << i << " of " << count;
          next = s.end;
          shortest = std::min(shortest, s.size());
          longest = std::max(longest, s.size());
        }
        EXPECT_EQ(next, r.end);
        EXPECT_LE(longest - shortest, 1u);
      }
    }
  }
}

TEST(Range, StaticScheduleShareGivesTheFirstThreadsTheLongerShares) {
  // libgomp's schedule(static): 10 over 4 is 3, 3, 2, 2; even_share spreads them: 2, 3, 2, 3.
  const ulibc::Range r{0, 10};
  const std::vector<std::size_t> libgomp = {3, 3, 2, 2}, even = {2, 3, 2, 3};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(ulibc::static_schedule_share(r, i, 4).size(), libgomp[i]);
    EXPECT_EQ(ulibc::even_share(r, i, 4).size(), even[i]);
  }
}

}  // namespace

namespace {

// Rows weighed by their entries: the shares cover the rows in order, and no share carries more than an even split
// plus one row's weight.
TEST(WeightedShare, SplitsByWeightNotCount) {
  const std::vector<long> prefix = {0, 100, 101, 102, 103, 104, 200, 201, 202};  // rows of 100, 1, 1, 1, 1, 96, 1, 1
  for (std::size_t count = 1; count <= 10; ++count) {
    std::size_t next = 0;
    for (std::size_t i = 0; i < count; ++i) {
      const ulibc::Range s = ulibc::weighted_share(std::span<const long>(prefix), i, count);
      EXPECT_EQ(s.begin, next) << "share " << i << " of " << count;
      next = s.end;
      EXPECT_LE(prefix[s.end] - prefix[s.begin], 202 / static_cast<long>(count) + 100) << "share " << i;
    }
    EXPECT_EQ(next, prefix.size() - 1);
  }
  // Two shares: the heavy first row and the next reach half (101 of 202); the six rows after carry the rest.
  EXPECT_EQ(ulibc::weighted_share(std::span<const long>(prefix), 0, 2), (ulibc::Range{0, 2}));
  EXPECT_EQ(ulibc::weighted_share(std::span<const long>(prefix), 1, 2), (ulibc::Range{2, 8}));
  // Rows of equal weight: counts that differ by at most one.
  const std::vector<long> even = {0, 3, 6, 9, 12, 15, 18, 21, 24, 27, 30};
  for (std::size_t i = 0; i < 4; ++i) {
    const auto size = ulibc::weighted_share(std::span<const long>(even), i, 4).size();
    EXPECT_TRUE(size == 2 || size == 3) << i;
  }
}

}  // namespace
