// memory_test.cpp — node-local memory: allocation, binding and page placement on the live
// machine's first memory node, the checks made before anything is mapped
// (some against synthetic topologies), huge page fallbacks, and the C API.
#include "ulibc/memory.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "live_machine.hpp"
#include "ulibc/error.hpp"
#include "ulibc/ulibc.h"

namespace {

using namespace ulibc;
using ulibc::testing::FakeMachine;
using ulibc::testing::TempDir;

constexpr std::size_t kMax = std::numeric_limits<std::size_t>::max();

using ulibc::testing::live;

// The node the live tests allocate on: the first node with memory we may use
// (node 0 on an ordinary machine).
int home() {
  for (const Node& n : live().nodes())
    if (n.has_memory() && n.allowed) return n.id;
  return -1;
}

NodeSet memory_nodes(const Topology& topo) {
  NodeSet out;
  for (const Node& n : topo.nodes())
    if (n.has_memory() && n.allowed) out.set(n.id);
  return out;
}

void touch(void* data, std::size_t bytes) {
  for (std::size_t i = 0; i < bytes; i += page_size()) static_cast<volatile char*>(data)[i] = 1;
}

bool aligned(const void* p, std::size_t to) { return reinterpret_cast<std::uintptr_t>(p) % to == 0; }

using ulibc::testing::contains;

using ulibc::testing::input_error_of;

// The live kernel's settings, read here independently of the library.
std::string read_file(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}
bool thp_enabled() {
  const std::string mode = read_file("/sys/kernel/mm/transparent_hugepage/enabled");
  return contains(mode, "[always]") || contains(mode, "[madvise]");
}
std::size_t thp_bytes() { return std::stoul("0" + read_file("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size")); }
std::size_t hugetlb_bytes() {
  const std::string meminfo = read_file("/proc/meminfo");
  const auto pos = meminfo.find("Hugepagesize:");
  return pos == std::string::npos ? 0 : std::stoul(meminfo.substr(pos + 13)) << 10;
}
std::uint64_t free_hugetlb_pages(int node, std::size_t huge) {
  const std::string text = read_file("/sys/devices/system/node/node" + std::to_string(node) + "/hugepages/hugepages-" +
                                     std::to_string(huge >> 10) + "kB/free_hugepages");
  return text.empty() ? 0 : std::stoull(text);
}

TEST(Memory, StrictAllocationIsPageAlignedAndBoundBeforeAnyTouch) {
  const std::size_t page = page_size();
  NumaBuffer b = allocate_on_node(live(), 3 * page + 1, home());
  ASSERT_NE(b.data(), nullptr);
  EXPECT_TRUE(aligned(b.data(), page));
  EXPECT_EQ(b.size(), 3 * page + 1);
  EXPECT_EQ(b.mapped_bytes(), 4 * page);
  EXPECT_EQ(b.pages(), PageKind::normal);
  EXPECT_EQ(b.note(), "");
  for (std::size_t at : {std::size_t{0}, 3 * page}) {
    const MemPolicy pol = memory_policy(static_cast<char*>(b.data()) + at);
    EXPECT_EQ(pol.mode, MemPolicyMode::bind);
    EXPECT_EQ(pol.nodes, NodeSet{home()});
  }
}

TEST(Memory, PagesAreAbsentUntilTouchedThenOnTheNode) {
  const std::size_t page = page_size();
  NumaBuffer b = allocate_on_node(live(), 64 * page, home());
  PagePlacement before = page_placement(b.data(), b.size());
  EXPECT_EQ(before.pages, 64u);
  EXPECT_EQ(before.absent, 64u);
  EXPECT_TRUE(before.per_node.empty());
  touch(b.data(), 24 * page);
  PagePlacement half = page_placement(b.data(), b.size());
  EXPECT_EQ(half.absent, 40u);
  EXPECT_EQ(half.per_node, (std::map<int, std::size_t>{{home(), 24}}));
  touch(b.data(), b.size());
  PagePlacement after = page_placement(b.data(), b.size());
  EXPECT_EQ(after.absent, 0u);
  EXPECT_EQ(after.per_node, (std::map<int, std::size_t>{{home(), 64}}));
}

TEST(Memory, PlacementCountsEveryPageTheRangeTouches) {
  const std::size_t page = page_size();
  NumaBuffer b = allocate_on_node(live(), 4 * page, home());
  touch(b.data(), b.size());
  const char* p = static_cast<const char*>(b.data());
  EXPECT_EQ(page_placement(p + 10, page).pages, 2u);  // straddles a boundary
  EXPECT_EQ(page_placement(p + page, 1).pages, 1u);
  EXPECT_EQ(page_placement(p, 0).pages, 0u);
  // Larger than one query batch (1024 pages).
  NumaBuffer big = allocate_on_node(live(), 2500 * page, home());
  touch(big.data(), big.size());
  const PagePlacement pl = page_placement(big.data(), big.size());
  EXPECT_EQ(pl.pages, 2500u);
  EXPECT_EQ(pl.per_node.at(home()), 2500u);
}

TEST(Memory, PagesOnlyReadAreAbsentNotAnError) {
  NumaBuffer b = allocate_on_node(live(), 8 * page_size(), home());
  long sum = 0;
  for (std::size_t i = 0; i < b.size(); i += page_size()) sum += static_cast<volatile char*>(b.data())[i];
  EXPECT_EQ(sum, 0);
  const PagePlacement pl = page_placement(b.data(), b.size());
  EXPECT_EQ(pl.absent, 8u);  // the shared zero page is no page of ours
}

// The first page of the address space is below the kernel's mmap_min_addr and never mapped. A freed buffer's range
// would not do: in the ASan build, under load, that range was mapped again before the query.
TEST(Memory, PlacementOfAnUnmappedRangeIsAnError) {
  void* never_mapped = nullptr;
  EXPECT_TRUE(contains(input_error_of([&] { page_placement(never_mapped, 4 * page_size()); }), "not all mapped"));
}

TEST(Memory, PreferredIsBoundPreferred) {
  NumaBuffer b = allocate_on_node(live(), 5000, home(), {.bind = MemBind::preferred});
  const MemPolicy pol = memory_policy(b.data());
  EXPECT_EQ(pol.mode, MemPolicyMode::preferred);
  EXPECT_EQ(pol.nodes, NodeSet{home()});
  touch(b.data(), b.size());
  EXPECT_EQ(page_placement(b.data(), b.size()).per_node.at(home()), 2u);
}

TEST(Memory, InterleavedOverGivenNodes) {
  NumaBuffer b = allocate_interleaved(live(), 16 * page_size(), NodeSet{home()});
  const MemPolicy pol = memory_policy(b.data());
  EXPECT_EQ(pol.mode, MemPolicyMode::interleave);
  EXPECT_EQ(pol.nodes, NodeSet{home()});
  EXPECT_TRUE(aligned(b.data(), page_size()));
  touch(b.data(), b.size());
  EXPECT_EQ(page_placement(b.data(), b.size()).per_node.at(home()), 16u);
}

TEST(Memory, InterleavedOverNoNodesMeansEveryMemoryNode) {
  NumaBuffer b = allocate_interleaved(live(), 100, {});
  const MemPolicy pol = memory_policy(b.data());
  EXPECT_EQ(pol.mode, MemPolicyMode::interleave);
  EXPECT_EQ(pol.nodes, memory_nodes(live()));
}

TEST(Memory, NodesThatDoNotExistAreRefusedByName) {
  const int beyond = live().nodes().back().id + 1;
  for (int node : {beyond, 99, -1}) {
    if (live().node(node)) continue;
    const std::string why = input_error_of([&] { allocate_on_node(live(), 4096, node); });
    EXPECT_TRUE(contains(why, "node " + std::to_string(node) + " does not exist")) << why;
    EXPECT_TRUE(contains(why, "4096 bytes")) << why;
    EXPECT_TRUE(contains(input_error_of([&] { allocate_on_node(live(), 1, node, {.bind = MemBind::preferred}); }),
                         "does not exist"));
    if (node >= 0) {
      EXPECT_TRUE(contains(input_error_of([&] {
                             allocate_interleaved(live(), 1, NodeSet{home(), node});
                           }),
                           "node " + std::to_string(node)));
    }
  }
}

TEST(Memory, BadSizesAreRefusedBeforeMapping) {
  const int n = home();
  EXPECT_TRUE(contains(input_error_of([&] { allocate_on_node(live(), 0, n); }), "size is 0"));
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(live(), 0, {}); }), "size is 0"));
  const std::string overflow = input_error_of([&] { allocate_on_node(live(), kMax, n); });
  EXPECT_TRUE(contains(overflow, "does not fit")) << overflow;
  EXPECT_TRUE(contains(overflow, std::to_string(kMax) + " bytes")) << overflow;
  EXPECT_TRUE(contains(input_error_of([&] { allocate_on_node(live(), kMax - page_size(), n); }), "does not fit"));
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(live(), kMax, {}); }), "does not fit"));
  const std::uint64_t node_memory = live().node(n)->memory_bytes;
  const std::string strict = input_error_of([&] { allocate_on_node(live(), node_memory + page_size(), n); });
  EXPECT_TRUE(contains(strict, "larger than the memory of node " + std::to_string(n))) << strict;
  const std::string preferred =
      input_error_of([&] { allocate_on_node(live(), kMax / 2, n, {.bind = MemBind::preferred}); });
  EXPECT_TRUE(contains(preferred, "larger than the memory of the nodes this process may use")) << preferred;
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(live(), kMax / 2, {}); }), "larger than"));
}

TEST(Memory, MovedBufferOwnsTheMapping) {
  NumaBuffer a = allocate_on_node(live(), 4096, home());
  void* p = a.data();
  NumaBuffer b = std::move(a);
  EXPECT_EQ(a.data(), nullptr);
  EXPECT_EQ(a.mapped_bytes(), 0u);
  EXPECT_EQ(b.data(), p);
  NumaBuffer c = allocate_on_node(live(), 4096, home());
  void* q = c.data();
  c = std::move(b);  // unmaps what c held
  EXPECT_EQ(c.data(), p);
  EXPECT_TRUE(contains(input_error_of([&] { page_placement(q, 4096); }), "not all mapped"));
  touch(c.data(), c.size());
}

std::size_t address_space_used() {
  const std::string status = read_file("/proc/self/status");
  return std::stoul(status.substr(status.find("VmSize:") + 7)) << 10;
}

// In a child: 256 MiB on `node` with almost no address space left. Exits 0
// on an Error(system), printing it; 1 without an error, 2 on another error.
[[noreturn]] void allocate_under_address_limit(int node) {
  const Topology& topo = live();
  const rlimit limit{address_space_used() + (1 << 20), RLIM_INFINITY};
  setrlimit(RLIMIT_AS, &limit);
  try {
    allocate_on_node(topo, std::size_t{256} << 20, node);
  } catch (const Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    std::_Exit(e.kind() == ErrorKind::system ? 0 : 2);
  }
  std::_Exit(1);
}

// The kernel refusing the mapping (here: RLIMIT_AS) is an Error(system) that
// names the size and the reason. In a child process, as the limit would
// starve everything else.
TEST(MemoryDeathTest, RefusedMappingIsAnErrorNotACrash) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  EXPECT_EXIT(allocate_under_address_limit(home()), ::testing::ExitedWithCode(0),
              "268435456 bytes on node [0-9]+ \\(strict\\): mmap of 268435456 bytes: Cannot allocate memory");
}

// A synthetic 4-node machine: node 1 without memory, node 3 outside the
// cgroup's mems. Every check here is made before any system call.
class SyntheticChecks : public ::testing::Test {
 protected:
  void SetUp() override {
    FakeMachine m{.packages = 4, .cores_per_package = 2, .cpuset = CpuSet::parse_list("0-7"), .memoryless_nodes = {1}};
    ulibc::testing::write_fake_sysfs(m, dir.path());
    std::ofstream(dir.path() + "/sys/fs/cgroup/batch/job/cpuset.mems.effective") << "0-2\n";
    topo = Topology::load(dir.path(), Detail::placement);
    ASSERT_FALSE(topo.node(3)->allowed);
  }
  TempDir dir;
  Topology topo;
};

TEST_F(SyntheticChecks, StrictOnAMemorylessNodeIsRefused) {
  const std::string why = input_error_of([&] { allocate_on_node(topo, 8192, 1); });
  EXPECT_TRUE(contains(why, "8192 bytes on node 1 (strict)")) << why;
  EXPECT_TRUE(contains(why, "node 1 has no memory")) << why;
}

TEST_F(SyntheticChecks, NodesOutsideTheAllowedMemsAreRefused) {
  for (MemBind bind : {MemBind::strict, MemBind::preferred}) {
    const std::string why = input_error_of([&] { allocate_on_node(topo, 4096, 3, {.bind = bind}); });
    EXPECT_TRUE(contains(why, "node 3 is outside the memory nodes this process may use (0,2)")) << why;
  }
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(topo, 4096, NodeSet{0, 3}); }), "node 3 is outside"));
}

TEST_F(SyntheticChecks, UnknownNodesListTheMachinesNodes) {
  const std::string why = input_error_of([&] { allocate_on_node(topo, 4096, 4); });
  EXPECT_TRUE(contains(why, "node 4 does not exist (the machine's nodes are 0-3)")) << why;
}

TEST_F(SyntheticChecks, SizesAreCheckedAgainstTheNodesMemory) {
  const std::size_t gib = std::size_t{1} << 30;  // each node of the fake machine
  EXPECT_TRUE(
      contains(input_error_of([&] { allocate_on_node(topo, gib + 1, 0); }), "larger than the memory of node 0"));
  // Preferred and interleaved may use nodes 0 and 2: 2 GiB.
  const std::string why = input_error_of([&] { allocate_on_node(topo, 2 * gib + 1, 0, {.bind = MemBind::preferred}); });
  EXPECT_TRUE(contains(why, "(" + std::to_string(2 * gib) + " bytes)")) << why;
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(topo, 2 * gib + 1, {}); }), "larger than"));
}

TEST_F(SyntheticChecks, InterleavingOnlyMemorylessNodesIsRefused) {
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(topo, 4096, NodeSet{1}); }), "none of these nodes"));
}

// These reach the kernel, binding to node 0 (which every Linux machine has).
TEST_F(SyntheticChecks, PreferredOnAMemorylessNodePrefersTheNearestWithAReason) {
  NumaBuffer b = allocate_on_node(topo, 4096, 1, {.bind = MemBind::preferred});
  EXPECT_TRUE(contains(b.note(), "node 1 has no memory: preferring node 0")) << b.note();
  const MemPolicy pol = memory_policy(b.data());
  EXPECT_EQ(pol.mode, MemPolicyMode::preferred);
  EXPECT_EQ(pol.nodes, NodeSet{0});
}

TEST_F(SyntheticChecks, InterleavingSkipsMemorylessNodesWithAReason) {
  NumaBuffer b = allocate_interleaved(topo, 4096, NodeSet{0, 1});
  EXPECT_TRUE(contains(b.note(), "no memory on nodes 1: interleaved over 0")) << b.note();
  EXPECT_EQ(memory_policy(b.data()).nodes, NodeSet{0});
  // The empty set means the allowed nodes with memory: 0 and 2, not 1 or 3.
  EXPECT_TRUE(contains(input_error_of([&] { allocate_interleaved(topo, 0, {}); }), "over nodes 0,2"));
}

TEST(NearestMemoryNode, ByDistanceTiesToTheLowerId) {
  TempDir dir;
  FakeMachine m{.packages = 4, .cores_per_package = 1, .memoryless_nodes = {1, 2}};
  ulibc::testing::write_fake_sysfs(m, dir.path());
  const char* rows[] = {"10 20 17 30", "20 10 12 15", "17 12 10 17", "30 15 17 10"};
  for (int n = 0; n < 4; ++n)
    std::ofstream(dir.path() + "/sys/devices/system/node/node" + std::to_string(n) + "/distance") << rows[n] << "\n";
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  EXPECT_EQ(nearest_memory_node(topo, 0), 0);
  EXPECT_EQ(nearest_memory_node(topo, 1), 3);  // 15 beats 20
  EXPECT_EQ(nearest_memory_node(topo, 2), 0);  // 17 to both: the lower id
  EXPECT_EQ(nearest_memory_node(topo, 3), 3);
  EXPECT_TRUE(contains(input_error_of([&] { nearest_memory_node(topo, 4); }), "node 4 does not exist"));

  // Node 3 outside the cgroup's mems takes no memory, not even its own.
  FakeMachine limited = m;
  limited.cpuset = CpuSet::parse_list("0-3");
  TempDir dir2;
  ulibc::testing::write_fake_sysfs(limited, dir2.path());
  for (int n = 0; n < 4; ++n)
    std::ofstream(dir2.path() + "/sys/devices/system/node/node" + std::to_string(n) + "/distance") << rows[n] << "\n";
  std::ofstream(dir2.path() + "/sys/fs/cgroup/batch/job/cpuset.mems.effective") << "0-2\n";
  const Topology narrowed = Topology::load(dir2.path(), Detail::placement);
  EXPECT_EQ(nearest_memory_node(narrowed, 1), 0);
  EXPECT_EQ(nearest_memory_node(narrowed, 3), 0);
}

TEST(Memory, TransparentHugePagesAreAlignedOrFallBackWithAReason) {
  const std::size_t bytes = 3 * (std::size_t{1} << 20);
  NumaBuffer b = allocate_on_node(live(), bytes, home(), {.pages = PageKind::transparent_huge});
  if (thp_enabled()) {
    const std::size_t huge = thp_bytes();
    EXPECT_EQ(b.pages(), PageKind::transparent_huge);
    EXPECT_EQ(b.note(), "");
    EXPECT_TRUE(aligned(b.data(), huge));
    EXPECT_EQ(b.mapped_bytes(), (bytes + huge - 1) / huge * huge);
  } else {
    EXPECT_EQ(b.pages(), PageKind::normal);
    EXPECT_TRUE(contains(b.note(), "transparent huge pages")) << b.note();
    EXPECT_TRUE(contains(b.note(), "using base pages")) << b.note();
  }
  EXPECT_EQ(memory_policy(b.data()).mode, MemPolicyMode::bind);
  touch(b.data(), b.mapped_bytes());
  EXPECT_EQ(page_placement(b.data(), b.mapped_bytes()).per_node.at(home()), b.mapped_bytes() / page_size());
}

TEST(Memory, FirstTouchIsUnboundPageAlignedAndOfTheKindAsked) {
  const std::size_t page = page_size();
  NumaBuffer b = allocate_first_touch(3 * page + 1);
  ASSERT_NE(b.data(), nullptr);
  EXPECT_TRUE(aligned(b.data(), page));
  EXPECT_EQ(b.size(), 3 * page + 1);
  EXPECT_EQ(b.mapped_bytes(), 4 * page);
  EXPECT_EQ(memory_policy(b.data()).mode, MemPolicyMode::none);
  EXPECT_EQ(page_placement(b.data(), b.mapped_bytes()).absent, 4u);
  touch(b.data(), b.mapped_bytes());
  EXPECT_EQ(page_placement(b.data(), b.mapped_bytes()).absent, 0u);

  const std::size_t bytes = 3 * (std::size_t{1} << 20);
  NumaBuffer h = allocate_first_touch(bytes, {.pages = PageKind::transparent_huge});
  EXPECT_EQ(memory_policy(h.data()).mode, MemPolicyMode::none);
  if (thp_enabled()) {
    EXPECT_EQ(h.pages(), PageKind::transparent_huge);
    EXPECT_TRUE(aligned(h.data(), thp_bytes()));
    EXPECT_EQ(h.mapped_bytes(), (bytes + thp_bytes() - 1) / thp_bytes() * thp_bytes());
  } else {
    EXPECT_EQ(h.pages(), PageKind::normal);
    EXPECT_TRUE(contains(h.note(), "using base pages")) << h.note();
  }
  EXPECT_TRUE(contains(input_error_of([&] { allocate_first_touch(0); }), "size is 0"));
  EXPECT_TRUE(contains(input_error_of([&] { allocate_first_touch(kMax); }), "does not fit"));
}

// Where the mapping holding p ends, from /proc/self/maps (0: no mapping holds p).
std::uintptr_t mapping_end(const void* p) {
  const auto at = reinterpret_cast<std::uintptr_t>(p);
  std::ifstream maps("/proc/self/maps");
  std::string line;
  while (std::getline(maps, line)) {
    const std::uintptr_t begin = std::stoull(line, nullptr, 16);
    const std::uintptr_t end = std::stoull(line.substr(line.find('-') + 1), nullptr, 16);
    if (begin <= at && at < end) return end;
  }
  return 0;
}

// Bound to a node, the buffer's mapping cannot merge with whatever is mapped after it later: its end is its own.
TEST(Memory, ShrinkGivesTheWholePagesBeyondBackAndKeepsTheData) {
  const std::size_t page = page_size();
  NumaBuffer b = allocate_on_node(live(), 8 * page, home());
  auto* p = static_cast<unsigned char*>(b.data());
  for (std::size_t i = 0; i < 8 * page; ++i) p[i] = static_cast<unsigned char>(i * 7);
  b.shrink(3 * page + 1);
  EXPECT_EQ(b.data(), p);
  EXPECT_EQ(b.size(), 3 * page + 1);
  EXPECT_EQ(b.mapped_bytes(), 4 * page);
  EXPECT_EQ(mapping_end(p), reinterpret_cast<std::uintptr_t>(p + 4 * page));
  for (std::size_t i = 0; i < 4 * page; ++i) ASSERT_EQ(p[i], static_cast<unsigned char>(i * 7)) << "byte " << i;
  b.shrink(4 * page);  // not smaller: nothing changes
  EXPECT_EQ(b.size(), 3 * page + 1);
  EXPECT_EQ(b.mapped_bytes(), 4 * page);
  b.shrink(0);
  EXPECT_EQ(b.data(), nullptr);
  EXPECT_EQ(b.mapped_bytes(), 0u);

  NumaBuffer h = allocate_on_node(live(), 3 * (std::size_t{1} << 20), home(), {.pages = PageKind::transparent_huge});
  h.shrink(1);  // whole pages of its own kind
  EXPECT_EQ(h.mapped_bytes(), page_granule(h.pages()));
}

TEST(Memory, ExplicitHugePagesNeverSigbusAndFallBackWithAReason) {
  const std::size_t huge = hugetlb_bytes();
  // One page more than the node has free: the first touch of that page
  // would be a SIGBUS, so it must not be taken from the hugetlb pool.
  const std::uint64_t pages = (huge ? free_hugetlb_pages(home(), huge) : 0) + 1;
  const std::size_t bytes = huge ? pages * huge : std::size_t{4} << 20;
  NumaBuffer b = allocate_on_node(live(), bytes, home(), {.pages = PageKind::explicit_huge});
  EXPECT_NE(b.pages(), PageKind::explicit_huge);
  EXPECT_EQ(b.pages(), thp_enabled() ? PageKind::transparent_huge : PageKind::normal);
  EXPECT_TRUE(contains(b.note(), "huge pages")) << b.note();
  if (huge) {
    EXPECT_TRUE(contains(b.note(), std::to_string(pages) + " needed")) << b.note();
  }
  EXPECT_TRUE(contains(b.note(), thp_enabled() ? "using transparent huge pages" : "using base pages")) << b.note();
  touch(b.data(), b.mapped_bytes());
  EXPECT_EQ(page_placement(b.data(), b.mapped_bytes()).absent, 0u);
}

TEST(Memory, ExplicitHugePagesWhenTheNodeHasThem) {
  const std::size_t huge = hugetlb_bytes();
  if (huge == 0 || free_hugetlb_pages(home(), huge) == 0) {
    EXPECT_NE(allocate_on_node(live(), 1, home(), {.pages = PageKind::explicit_huge}).pages(), PageKind::explicit_huge);
    return;
  }
  NumaBuffer b = allocate_on_node(live(), 1, home(), {.pages = PageKind::explicit_huge});
  EXPECT_EQ(b.pages(), PageKind::explicit_huge) << b.note();
  EXPECT_EQ(b.mapped_bytes(), huge);
  EXPECT_TRUE(aligned(b.data(), huge));
  touch(b.data(), b.mapped_bytes());
}

TEST(Memory, PageGranules) {
  EXPECT_EQ(page_granule(PageKind::normal), page_size());
  EXPECT_EQ(page_granule(PageKind::transparent_huge) % page_size(), 0u);
  EXPECT_EQ(page_granule(PageKind::explicit_huge) % page_size(), 0u);
  if (const std::size_t huge = hugetlb_bytes()) {
    EXPECT_EQ(page_granule(PageKind::explicit_huge), huge);
  }
}

TEST(Memory, PartsAreBoundEachToItsNodeOrLeftUnbound) {
  const std::size_t page = page_size();
  NumaBuffer b = allocate_parts(
      live(), {{.bytes = 2 * page, .node = home()}, {.bytes = 3 * page, .node = -1}, {.bytes = 100, .node = home()}});
  EXPECT_EQ(b.size(), 5 * page + 100);
  EXPECT_EQ(b.mapped_bytes(), 6 * page);
  const char* p = static_cast<const char*>(b.data());
  EXPECT_EQ(memory_policy(p).mode, MemPolicyMode::bind);
  EXPECT_EQ(memory_policy(p + 2 * page).mode, MemPolicyMode::none);
  EXPECT_EQ(memory_policy(p + 4 * page).mode, MemPolicyMode::none);
  EXPECT_EQ(memory_policy(p + 5 * page).mode, MemPolicyMode::bind);  // the last part, rounded up
  const std::string why = input_error_of([&] {
    allocate_parts(live(), {{.bytes = 100, .node = home()}, {.bytes = 1}});
  });
  EXPECT_TRUE(contains(why, "part 0 (100 bytes) is not a multiple")) << why;
  EXPECT_TRUE(contains(input_error_of([&] { allocate_parts(live(), {}); }), "size is 0"));
  EXPECT_TRUE(contains(input_error_of([&] { allocate_parts(live(), {{.bytes = kMax}, {.bytes = kMax}}); }), "add up"));
}

// The C API over the live machine.
class CApiMemory : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_EQ(ulibc_init_with("/", "scatter", 0), 0) << ulibc_last_error(); }
  static std::string error() { return ulibc_last_error(); }
};

TEST_F(CApiMemory, LmallocByNodeIndexAndLfree) {
  void* p = ulibc_lmalloc(10000, 0);
  ASSERT_NE(p, nullptr) << error();
  EXPECT_TRUE(aligned(p, page_size()));
  EXPECT_STREQ(ulibc_lmalloc_note(p), "");
  const MemPolicy pol = memory_policy(p);
  EXPECT_EQ(pol.mode, MemPolicyMode::bind);
  EXPECT_EQ(pol.nodes, NodeSet{ulibc_get_numa_node_osid(0)});
  touch(p, 10000);
  EXPECT_EQ(ulibc_lfree(p), 0) << error();
}

TEST_F(CApiMemory, LfreeRefusesWhatItDidNotHandOut) {
  EXPECT_EQ(ulibc_lfree(nullptr), 0);
  void* p = ulibc_lmalloc(4096, 0);
  ASSERT_NE(p, nullptr) << error();
  EXPECT_EQ(ulibc_lfree(static_cast<char*>(p) + 8), -1);
  EXPECT_TRUE(contains(error(), "points inside the block")) << error();
  EXPECT_EQ(ulibc_lfree(p), 0);
  EXPECT_EQ(ulibc_lfree(p), -1);  // twice
  EXPECT_TRUE(contains(error(), "already freed")) << error();
  void* foreign = std::malloc(64);
  EXPECT_EQ(ulibc_lfree(foreign), -1);
  EXPECT_TRUE(contains(error(), "was not returned by ulibc_lmalloc")) << error();
  std::free(foreign);
  int local = 0;
  EXPECT_EQ(ulibc_lfree(&local), -1);
  EXPECT_EQ(ulibc_lmalloc_note(&local), nullptr);
}

TEST_F(CApiMemory, BadRequestsGiveNullAndAReason) {
  EXPECT_EQ(ulibc_lmalloc(100, ulibc_get_online_numa_nodes()), nullptr);
  EXPECT_TRUE(contains(error(), "node index " + std::to_string(ulibc_get_online_numa_nodes()))) << error();
  EXPECT_EQ(ulibc_lmalloc(100, -1), nullptr);
  EXPECT_EQ(ulibc_lmalloc(0, 0), nullptr);
  EXPECT_TRUE(contains(error(), "size is 0")) << error();
  EXPECT_EQ(ulibc_lmalloc(kMax, 0), nullptr);
  if (!live().node(99)) {
    EXPECT_EQ(ulibc_lmalloc_node(100, 99, ULIBC_MEM_STRICT), nullptr);
    EXPECT_TRUE(contains(error(), "node 99 does not exist")) << error();
  }
  EXPECT_EQ(ulibc_lmalloc_node(100, -1, ULIBC_MEM_PREFERRED), nullptr);
  EXPECT_TRUE(contains(error(), "node -1 does not exist")) << error();
  EXPECT_EQ(ulibc_lmalloc_node(100, home(), 64), nullptr);
  EXPECT_TRUE(contains(error(), "unknown bits")) << error();
  EXPECT_EQ(ulibc_lmalloc_node(100, home(), -1), nullptr);
  const int minus_one = -1;
  EXPECT_EQ(ulibc_lmalloc_interleaved(100, &minus_one, 1, 0), nullptr);
  EXPECT_EQ(ulibc_lmalloc_interleaved(100, nullptr, 2, 0), nullptr);
  EXPECT_TRUE(contains(error(), "NULL")) << error();
  EXPECT_EQ(ulibc_lmalloc_interleaved(100, nullptr, -1, 0), nullptr);
  EXPECT_TRUE(contains(error(), "negative")) << error();
}

TEST_F(CApiMemory, FlagsChooseBindingAndPages) {
  void* pref = ulibc_lmalloc_node(100, home(), ULIBC_MEM_PREFERRED);
  ASSERT_NE(pref, nullptr) << error();
  EXPECT_EQ(memory_policy(pref).mode, MemPolicyMode::preferred);
  void* huge = ulibc_lmalloc_node(std::size_t{4} << 20, home(), ULIBC_MEM_HUGETLB);
  ASSERT_NE(huge, nullptr) << error();
  if (hugetlb_bytes() == 0 || free_hugetlb_pages(home(), hugetlb_bytes()) < 4) {
    EXPECT_TRUE(contains(ulibc_lmalloc_note(huge), "huge pages")) << ulibc_lmalloc_note(huge);
  }
  touch(huge, std::size_t{4} << 20);
  void* spread = ulibc_lmalloc_interleaved(100, nullptr, 0, ULIBC_MEM_THP);
  ASSERT_NE(spread, nullptr) << error();
  EXPECT_EQ(memory_policy(spread).mode, MemPolicyMode::interleave);
  if (thp_enabled()) {
    EXPECT_TRUE(aligned(spread, thp_bytes()));
  }
  for (void* p : {pref, huge, spread}) EXPECT_EQ(ulibc_lfree(p), 0) << error();
}

TEST_F(CApiMemory, PolicyNoneLeavesPlacementToFirstTouch) {
  ASSERT_EQ(ulibc_set_affinity_policy(ULIBC_NONE), 0);
  void* p = ulibc_lmalloc(4096, 0);
  ASSERT_NE(p, nullptr) << error();
  EXPECT_EQ(memory_policy(p).mode, MemPolicyMode::none);
  EXPECT_EQ(ulibc_lfree(p), 0);
}

TEST_F(CApiMemory, ThreadsAllocateAndFreeConcurrently) {
  std::vector<std::thread> threads;
  std::vector<int> failures(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&failures, t] {
      for (int i = 0; i < 200; ++i) {
        void* p = ulibc_lmalloc(4096 * (1 + i % 3), 0);
        if (!p) {
          ++failures[static_cast<std::size_t>(t)];
          continue;
        }
        static_cast<volatile char*>(p)[0] = 1;
        if (ulibc_lfree(p) != 0) ++failures[static_cast<std::size_t>(t)];
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(failures, std::vector<int>(4, 0));
}

TEST(CApiMemorySynthetic, StrictOnAMemorylessNodeIndexIsRefused) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 2, .cores_per_package = 2, .memoryless_nodes = {1}},
                                   dir.path());
  ASSERT_EQ(ulibc_init_with(dir.path().c_str(), "scatter", 4), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc_lmalloc(4096, 1), nullptr);
  EXPECT_TRUE(contains(ulibc_last_error(), "node 1 has no memory")) << ulibc_last_error();
  ASSERT_EQ(ulibc_init_with("/", "scatter", 0), 0);
}

}  // namespace
