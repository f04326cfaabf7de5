// node_array_test.cpp — nodeArray: the layout over many synthetic machines and mappings (pure
// arithmetic), binding and first touch on the live machine, and memory-less
// nodes whose parts move to the nearest node with memory.
#include "ulibc/node_array.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <cstdint>
#include <fstream>
#include <numeric>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "live_machine.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc;
using ulibc::testing::FakeMachine;
using ulibc::testing::Numbering;
using ulibc::testing::TempDir;

using ulibc::testing::live;

Mapping live_map(PolicyKind kind) { return Mapping::build(live(), Policy(kind), live().usable().count()); }

using ulibc::testing::contains;

struct Triple {
  double x, y, z;
};

// Every property a layout must have, for any mapping.
void expect_sound_layout(const Mapping& map, std::size_t n, std::size_t elem, PageKind pages) {
  SCOPED_TRACE(map.policy().name() + " threads=" + std::to_string(map.size()) + " n=" + std::to_string(n) +
               " elem=" + std::to_string(elem));
  const NodePartition part = NodeStorage::layout(map, n, elem, pages);
  const std::size_t page = page_granule(pages);
  const std::size_t align = page / std::gcd(page, elem);
  ASSERT_EQ(part.size(), n);
  ASSERT_EQ(part.nodes(), map.nodes_used());
  std::size_t next = 0;
  for (int k = 0; k < part.nodes(); ++k) {
    const Range r = part.node_range(k);
    EXPECT_EQ(r.begin, next) << "node " << k << ": parts must be contiguous";
    EXPECT_EQ(r.begin * elem % page, 0u) << "node " << k << " starts inside a page";
    // Its share of n by threads, off by less than the alignment at each end.
    const auto per_node = map.threads_per_node();
    const std::size_t before = static_cast<std::size_t>(std::accumulate(per_node.begin(), per_node.begin() + k, 0));
    const double exact_begin = static_cast<double>(n) * static_cast<double>(before) / map.size();
    EXPECT_LT(std::abs(static_cast<double>(r.begin) - exact_begin), static_cast<double>(align)) << "node " << k;
    next = r.end;
  }
  EXPECT_EQ(next, n) << "parts must cover [0, n)";
  // Thread ranges: inside their node's part, and together exactly the part.
  std::vector<std::size_t> covered(static_cast<std::size_t>(part.nodes()), 0);
  for (const Placement& p : map.threads()) {
    const Range t = part.thread_range(p.thread);
    const Range node = part.node_range(p.node_index);
    EXPECT_EQ(part.node_of_thread(p.thread), p.node_index);
    EXPECT_GE(t.begin, node.begin) << "thread " << p.thread;
    EXPECT_LE(t.end, node.end) << "thread " << p.thread;
    covered[static_cast<std::size_t>(p.node_index)] += t.size();
  }
  for (int k = 0; k < part.nodes(); ++k) EXPECT_EQ(covered[static_cast<std::size_t>(k)], part.node_range(k).size());
}

TEST(NodeArrayLayout, SoundOverManyMachinesMappingsAndSizes) {
  const FakeMachine machines[] = {
      {.packages = 4, .cores_per_package = 4},                                    // the paper's 4 nodes
      {.packages = 2, .nodes_per_package = 2, .cores_per_package = 6, .smt = 2},  // sub-NUMA clusters
      {.packages = 3, .cores_per_package = 5, .numbering = Numbering::smt_adjacent, .node_ids = {0, 2, 7}},
  };
  for (const FakeMachine& m : machines) {
    TempDir dir;
    ulibc::testing::write_fake_sysfs(m, dir.path());
    const Topology topo = Topology::load(dir.path(), Detail::placement);
    for (PolicyKind kind : {PolicyKind::scatter, PolicyKind::compact, PolicyKind::compact_plus, PolicyKind::none})
      for (int threads : {1, 3, 7, m.total_processors()}) {
        const Mapping map = Mapping::build(topo, Policy(kind), threads);
        for (std::size_t n : {std::size_t{1}, std::size_t{1000}, std::size_t{123457}, std::size_t{1} << 21})
          for (std::size_t elem : {sizeof(char), sizeof(double), sizeof(Triple), std::size_t{5000}})
            expect_sound_layout(map, n, elem, PageKind::normal);
      }
  }
}

TEST(NodeArrayLayout, HugePagePartsStartOnHugePages) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 4, .cores_per_package = 2}, dir.path());
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 8);
  for (PageKind pages : {PageKind::transparent_huge, PageKind::explicit_huge})
    expect_sound_layout(map, std::size_t{3} << 20, sizeof(double), pages);
}

// Given node begins, each part starts on the page that holds its begin.
TEST(NodeArrayLayout, GivenBeginsStartEachPartOnThePageThatHoldsIt) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 4, .cores_per_package = 2}, dir.path());
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 8);
  const std::size_t page = page_granule(PageKind::normal), n = 40 * page;
  const std::vector<std::size_t> begins = {0, 3 * page + 5, 3 * page + 9, 30 * page};
  const NodePartition part = NodeStorage::layout(map, n, 1, PageKind::normal, begins);
  EXPECT_EQ(part.node_range(0), (Range{0, 3 * page}));
  EXPECT_EQ(part.node_range(1), (Range{3 * page, 3 * page}));
  EXPECT_EQ(part.node_range(2), (Range{3 * page, 30 * page}));
  EXPECT_EQ(part.node_range(3), (Range{30 * page, n}));
  const NodePartition doubles = NodeStorage::layout(map, n, sizeof(double), PageKind::normal, begins);
  EXPECT_EQ(doubles.node_range(3).begin, 30 * page);  // a multiple of page / 8 elements
  EXPECT_EQ(doubles.node_range(1).begin, 3 * page);
}

TEST(NodeArrayLayout, RefusesNothingToStore) {
  const Mapping map = live_map(PolicyKind::scatter);
  try {
    NodeArray<double> a(live(), map, 0);
    ADD_FAILURE() << "n = 0 accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_TRUE(contains(e.what(), "n = 0")) << e.what();
  }
  EXPECT_THROW(NodeStorage::layout(map, 1, 0, PageKind::normal), Error);
  EXPECT_THROW(NodeStorage::layout(map, std::size_t{1} << 62, 8, PageKind::normal), Error);
}

TEST(NodeArray, EachNodePartIsBoundToItsNode) {
  const Mapping map = live_map(PolicyKind::scatter);
  NodeArray<double> a(live(), map, 300000);
  EXPECT_EQ(a.size(), 300000u);
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % page_size(), 0u);
  EXPECT_EQ(a.buffer().pages(), PageKind::normal);
  for (int k = 0; k < a.partition().nodes(); ++k) {
    const Range r = a.partition().node_range(k);
    if (r.empty()) continue;
    const MemPolicy pol = memory_policy(&a[r.begin]);
    EXPECT_EQ(pol.mode, MemPolicyMode::bind);
    EXPECT_EQ(pol.nodes, NodeSet{nearest_memory_node(live(), map.node_ids()[static_cast<std::size_t>(k)])});
  }
  EXPECT_EQ(page_placement(a.data(), a.size() * sizeof(double)).absent,
            (a.size() * sizeof(double) + page_size() - 1) / page_size());
}

TEST(NodeArray, SpansAndRangesAgree) {
  const Mapping map = live_map(PolicyKind::compact);
  NodeArray<Triple> a(live(), map, 5000);
  for (int t = 0; t < map.size(); ++t) {
    const auto part = a.thread_part(t);
    const Range r = a.partition().thread_range(t);
    EXPECT_EQ(part.data(), a.data() + r.begin);
    EXPECT_EQ(part.size(), r.size());
    std::size_t count = 0;
    for (std::size_t i : a.thread_range(t)) EXPECT_EQ(i, r.begin + count++);
    EXPECT_EQ(count, r.size());
  }
  EXPECT_EQ(a.node_part(0).data(), a.data());
}

TEST(NodeArray, ComplexNumbersStartAsZero) {
  // std::complex is not trivially default-constructible, but its default (0, 0) is zero bytes.
  NodeArray<std::complex<double>> z(live(), live_map(PolicyKind::compact), 1000);
  for (std::size_t i = 0; i < z.size(); ++i) ASSERT_EQ(z[i], std::complex<double>()) << i;
  z.fill({1.0, -2.0});
  EXPECT_EQ(z[999], std::complex<double>(1.0, -2.0));
}

TEST(NodeArray, FillTouchesEveryPageOnItsNode) {
  const Mapping map = live_map(PolicyKind::scatter);
  NodeArray<double> a(live(), map, 1 << 20);
  a.fill(1.5);
  for (std::size_t i = 0; i < a.size(); i += 4099) ASSERT_EQ(a[i], 1.5) << i;
  EXPECT_EQ(a[a.size() - 1], 1.5);
  for (int k = 0; k < a.partition().nodes(); ++k) {
    const auto part = a.node_part(k);
    if (part.empty()) continue;
    const PagePlacement pl = page_placement(part.data(), part.size_bytes());
    const int node = nearest_memory_node(live(), map.node_ids()[static_cast<std::size_t>(k)]);
    EXPECT_EQ(pl.absent, 0u);
    EXPECT_EQ(pl.per_node.at(node), pl.pages) << "node index " << k;
  }
}

// The paper's Fig. 6 STREAM Triad, as node_array.hpp shows it.
TEST(NodeArray, TriadOverThreadRanges) {
  const Mapping map = live_map(PolicyKind::scatter);
  const std::size_t n = 100003;
  NodeArray<double> a(live(), map, n), b(live(), map, n), c(live(), map, n);
  b.fill(2.0);
  c.fill(0.5);
  a.fill(0.0);
  run_team(map, [&](const Placement& p) {
    for (auto i : a.thread_range(p.thread)) a[i] = b[i] + 3.0 * c[i];
  });
  for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(a[i], 3.5) << i;
}

TEST(NodeArray, PolicyNoneBindsNothing) {
  const Mapping map = live_map(PolicyKind::none);
  NodeArray<int> a(live(), map, 10000);
  EXPECT_EQ(memory_policy(a.data()).mode, MemPolicyMode::none);
  a.fill(7);
  EXPECT_EQ(a[9999], 7);
  EXPECT_EQ(page_placement(a.data(), a.size() * sizeof(int)).absent, 0u);
}

TEST(NodeArray, TransparentHugePagePartsAreHugeAligned) {
  const Mapping map = live_map(PolicyKind::scatter);
  NodeArray<double> a(live(), map, std::size_t{1} << 20, PageKind::transparent_huge);
  const bool huge = a.buffer().pages() == PageKind::transparent_huge;
  const std::size_t granule = huge ? page_granule(PageKind::transparent_huge) : page_size();
  EXPECT_EQ(reinterpret_cast<std::uintptr_t>(a.data()) % granule, 0u) << a.buffer().note();
  for (int k = 0; k < a.partition().nodes(); ++k)
    EXPECT_EQ(a.partition().node_range(k).begin * sizeof(double) % page_granule(PageKind::transparent_huge), 0u);
}

// A synthetic machine whose nodes 1.. have processors but no memory: their
// parts go to node 0, the nearest with memory (and one every Linux machine
// has, so that the binding reaches the kernel here too).
TEST(NodeArray, MemorylessNodesPartsGoToTheNearestNodeWithMemory) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 4, .cores_per_package = 2, .memoryless_nodes = {1, 2, 3}},
                                   dir.path());
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 8);
  ASSERT_EQ(map.nodes_used(), 4);
  NodeArray<double> a(topo, map, 100000);
  for (int node : {1, 2, 3})
    EXPECT_TRUE(contains(a.buffer().note(), "node " + std::to_string(node) + " has no memory: its part is on node 0"))
        << a.buffer().note();
  for (int k = 0; k < 4; ++k) {
    const MemPolicy pol = memory_policy(&a[a.partition().node_range(k).begin]);
    EXPECT_EQ(pol.mode, MemPolicyMode::bind);
    EXPECT_EQ(pol.nodes, NodeSet{0});
  }
}

TEST(NodeArray, PartsOfNodesOutsideTheAllowedMemsGoToTheNearestAllowed) {
  TempDir dir;
  const FakeMachine m{.packages = 2, .cores_per_package = 2, .cpuset = CpuSet::parse_list("0-3")};
  ulibc::testing::write_fake_sysfs(m, dir.path());
  std::ofstream(dir.path() + "/sys/fs/cgroup/batch/job/cpuset.mems.effective") << "0\n";
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::compact), 4);
  NodeArray<float> a(topo, map, 50000);
  EXPECT_TRUE(contains(a.buffer().note(), "node 1 is outside the allowed memory nodes: its part is on node 0"))
      << a.buffer().note();
  EXPECT_EQ(memory_policy(&a[a.partition().node_range(1).begin]).nodes, NodeSet{0});
}

TEST(NodeArray, PartsBeyondANodesMemoryAreRefused) {
  TempDir dir;
  FakeMachine m{.packages = 2, .cores_per_package = 1, .node_memory_bytes = std::uint64_t{1} << 20};
  ulibc::testing::write_fake_sysfs(m, dir.path());
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::scatter), 2);
  try {
    NodeArray<double> a(topo, map, (std::size_t{1} << 18) + 1);  // node 1: 1 MiB and one element
    ADD_FAILURE() << "2 MiB + 8 bytes over two 1 MiB nodes accepted";
  } catch (const Error& e) {
    EXPECT_EQ(e.kind(), ErrorKind::input);
    EXPECT_TRUE(contains(e.what(), "larger than the memory of node 1")) << e.what();
  }
}

}  // namespace
