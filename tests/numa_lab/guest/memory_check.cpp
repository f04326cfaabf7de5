// memory_check.cpp — node-local and interleaved memory land where asked:
// strict on every node with memory, refused on a memory-less node, preferred
// there falls back to the nearest node; interleaved spreads evenly.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <string>

#include "lab.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/ulibc.h"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::MemBind;
using ulibc::PagePlacement;

constexpr std::size_t kBytes = 4u << 20;  // 1024 base pages: enough to see a spread, quick under TCG

std::size_t pages_of(std::size_t bytes) { return (bytes + ulibc::page_size() - 1) / ulibc::page_size(); }

std::size_t on(const PagePlacement& p, int node) {
  auto it = p.per_node.find(node);
  return it == p.per_node.end() ? 0 : it->second;
}

// Touches the range from a processor of another node where there is one, so
// that a page on `node` shows the binding at work, not first touch.
void touch_away_from(int node, void* data, std::size_t bytes) {
  int away = -1;
  for (int proc : machine().usable())
    if (machine().node_of(proc) != node) away = proc;
  if (away >= 0) ulibc::bind_current_thread(away);
  lab::touch(data, bytes);
  if (away >= 0) ulibc::restore_affinity();
}

void expect_all_on(int node, const void* data, std::size_t bytes) {
  const PagePlacement p = ulibc::page_placement(data, bytes);
  EXPECT_EQ(p.pages, pages_of(bytes));
  EXPECT_EQ(on(p, node), p.pages) << "expected every page on node " << node << ", found " << describe(p);
}

void strict_buffer_on(int node) {
  const ulibc::NumaBuffer buf = ulibc::allocate_on_node(lab::live(), kBytes, node);
  ASSERT_NE(buf.data(), nullptr);
  touch_away_from(node, buf.data(), buf.size());
  expect_all_on(node, buf.data(), buf.size());
}

void strict_lmalloc_on(int node) {
  void* p = ulibc_lmalloc_node(kBytes, node, ULIBC_MEM_STRICT);
  ASSERT_NE(p, nullptr) << ulibc_last_error();
  touch_away_from(node, p, kBytes);
  expect_all_on(node, p, kBytes);
  EXPECT_EQ(ulibc_lfree(p), 0) << ulibc_last_error();
}

TEST(Memory, StrictAllocationSitsOnItsNode) {
  for (int node : machine().memory_nodes()) {
    const std::string n = std::to_string(node);
    lab::check(where("allocate_on_node(strict), node " + n), [&] { strict_buffer_on(node); });
    lab::check(where("ulibc_lmalloc_node(ULIBC_MEM_STRICT), node " + n), [&] { strict_lmalloc_on(node); });
  }
}

// ulibc_lmalloc takes a node index of the current mapping and is strict.
void lmalloc_index_on(int index, int node) {
  void* p = ulibc_lmalloc(kBytes, index);
  if (!machine().has_memory(node)) {
    EXPECT_EQ(p, nullptr) << "strict allocation on a node without memory succeeded";
    EXPECT_STRNE(ulibc_last_error(), "");
    return;
  }
  ASSERT_NE(p, nullptr) << ulibc_last_error();
  touch_away_from(node, p, kBytes);
  expect_all_on(node, p, kBytes);
  EXPECT_EQ(ulibc_lfree(p), 0) << ulibc_last_error();
}

// The paper's lmalloc (ulibc_lmalloc_nearest) gives a memory-less node's index its nearest memory, and says so.
void nearest_lmalloc_index_on(int index, int node) {
  void* p = ulibc_lmalloc_nearest(kBytes, index);
  ASSERT_NE(p, nullptr) << ulibc_last_error();
  const int target = machine().nearest_memory_node(node);
  touch_away_from(target, p, kBytes);
  expect_all_on(target, p, kBytes);
  if (target == node)
    EXPECT_STREQ(ulibc_lmalloc_note(p), "");
  else
    EXPECT_NE(std::string(ulibc_lmalloc_note(p)).find("is on node " + std::to_string(target)), std::string::npos)
        << ulibc_lmalloc_note(p);
  EXPECT_EQ(ulibc_lfree(p), 0) << ulibc_last_error();
}

TEST(Memory, LmallocByNodeIndex) {
  ASSERT_EQ(ulibc_init_with(nullptr, "scatter", machine().usable().count()), 0) << ulibc_last_error();
  for (int index = 0; index < ulibc_get_online_numa_nodes(); ++index) {
    int node = -1;
    for (int t = 0; t < ulibc_get_num_threads(); ++t)
      if (ulibc_get_numa_nodeid(t) == index) node = ulibc_get_numa_node_osid(t);
    const std::string context =
        "ulibc_lmalloc, node index " + std::to_string(index) + " (node " + std::to_string(node) + ")";
    lab::check(where(context), [&] { lmalloc_index_on(index, node); });
    lab::check(
        where("ulibc_lmalloc_nearest, node index " + std::to_string(index) + " (node " + std::to_string(node) + ")"),
        [&] { nearest_lmalloc_index_on(index, node); });
  }
}

TEST(Memory, MemorylessNodeRefusesStrictAndFallsBackWhenPreferred) {
  bool any = false;
  for (const auto& spec : machine().nodes) {
    if (spec.memory_mib > 0) continue;
    any = true;
    const int node = spec.id, nearest = machine().nearest_memory_node(node);
    lab::check(where("allocate_on_node(strict) on memory-less node " + std::to_string(node)), [&] {
      try {
        ulibc::allocate_on_node(lab::live(), kBytes, node);
        ADD_FAILURE() << "expected Error(input), the allocation succeeded";
      } catch (const ulibc::Error& e) {
        EXPECT_EQ(e.kind(), ulibc::ErrorKind::input) << e.what();
        EXPECT_NE(std::string(e.what()).find(std::to_string(node)), std::string::npos) << e.what();
      }
      EXPECT_EQ(ulibc_lmalloc_node(kBytes, node, ULIBC_MEM_STRICT), nullptr);
      EXPECT_STRNE(ulibc_last_error(), "");
    });
    lab::check(where("allocate_on_node(preferred) on memory-less node " + std::to_string(node) +
                     ", nearest node with memory " + std::to_string(nearest)),
               [&] {
                 const ulibc::NumaBuffer buf =
                     ulibc::allocate_on_node(lab::live(), kBytes, node, {.bind = MemBind::preferred});
                 ASSERT_NE(buf.data(), nullptr);
                 lab::touch(buf.data(), buf.size());
                 expect_all_on(nearest, buf.data(), buf.size());
               });
    lab::check(where("ulibc_lmalloc_node(ULIBC_MEM_PREFERRED) on memory-less node " + std::to_string(node) +
                     ", nearest node with memory " + std::to_string(nearest)),
               [&] {
                 void* p = ulibc_lmalloc_node(kBytes, node, ULIBC_MEM_PREFERRED);
                 ASSERT_NE(p, nullptr) << ulibc_last_error();
                 lab::touch(p, kBytes);
                 expect_all_on(nearest, p, kBytes);
                 EXPECT_EQ(ulibc_lfree(p), 0) << ulibc_last_error();
               });
  }
  if (!any) GTEST_SKIP() << "every node of " << machine().name << " has memory";
}

// Each node of the set holds pages/nodes pages, give or take one.
void expect_even(const ulibc::NodeSet& nodes, const void* data, std::size_t bytes) {
  const PagePlacement p = ulibc::page_placement(data, bytes);
  EXPECT_EQ(p.absent, 0u) << describe(p);
  const double share = static_cast<double>(p.pages) / nodes.count();
  for (const auto& [node, pages] : p.per_node)
    EXPECT_TRUE(nodes.test(node)) << "pages on node " << node << ", outside the set " << nodes.to_list() << ": "
                                  << describe(p);
  std::string uneven;
  for (int node : nodes)
    if (std::abs(static_cast<double>(on(p, node)) - share) > 1.0)
      uneven += " node " + std::to_string(node) + " holds " + std::to_string(on(p, node)) + ";";
  EXPECT_TRUE(uneven.empty()) << "expected " << share << " pages (+-1) on each node of " << nodes.to_list() << ":"
                              << uneven << " " << describe(p);
}

TEST(Memory, InterleavedPagesSpreadOverTheNodeSet) {
  const ulibc::NodeSet all = machine().memory_nodes();
  lab::check(where("allocate_interleaved over every node with memory (" + all.to_list() + ")"), [&] {
    const ulibc::NumaBuffer buf = ulibc::allocate_interleaved(lab::live(), kBytes, {});
    ASSERT_NE(buf.data(), nullptr);
    lab::touch(buf.data(), buf.size());
    expect_even(all, buf.data(), buf.size());
  });
  const ulibc::NodeSet two{all.first(), all.last()};
  if (all.count() > 2)
    lab::check(where("allocate_interleaved over nodes " + two.to_list()), [&] {
      const ulibc::NumaBuffer buf = ulibc::allocate_interleaved(lab::live(), kBytes, two);
      lab::touch(buf.data(), buf.size());
      expect_even(two, buf.data(), buf.size());
    });
  lab::check(where("ulibc_lmalloc_interleaved over every node with memory (" + all.to_list() + ")"), [&] {
    void* p = ulibc_lmalloc_interleaved(kBytes, nullptr, 0, ULIBC_MEM_STRICT);
    ASSERT_NE(p, nullptr) << ulibc_last_error();
    lab::touch(p, kBytes);
    expect_even(all, p, kBytes);
    EXPECT_EQ(ulibc_lfree(p), 0) << ulibc_last_error();
  });
}

}  // namespace
