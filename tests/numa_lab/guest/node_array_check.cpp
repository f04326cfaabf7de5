// node_array_check.cpp — after the parallel first touch, every node part of
// a NodeArray sits on its node (a memory-less node's part on the nearest
// node with memory), for every policy and thread count.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "lab.hpp"
#include "ulibc/node_array.hpp"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::Mapping;

constexpr std::size_t kElements = (4u << 20) / sizeof(double) + 123;  // 4 MiB and a partial page

void node_array_case(const Mapping& map) {
  ulibc::NodeArray<double> a(lab::live(), map, kElements);
  ASSERT_EQ(a.size(), kElements);
  a.fill(1.5);
  std::size_t covered = 0;
  for (int k = 0; k < map.nodes_used(); ++k) {
    const int node = map.node_ids()[k];
    const int expected = machine().nearest_memory_node(node);
    const auto part = a.node_part(k);
    const auto range = a.partition().node_range(k);
    EXPECT_EQ(range.begin, covered) << "node index " << k << " does not start where the previous part ended";
    covered = range.end;
    if (part.empty()) continue;
    EXPECT_EQ(reinterpret_cast<std::uintptr_t>(part.data()) % ulibc::page_size(), 0u)
        << "node index " << k << " (node " << node << ") part does not start on a page";
    const auto p = ulibc::page_placement(part.data(), part.size_bytes());
    const auto it = p.per_node.find(expected);
    EXPECT_EQ(it == p.per_node.end() ? 0 : it->second, p.pages)
        << "node index " << k << " (node " << node << ") part [" << range.begin << ", " << range.end
        << "): expected every page on node " << expected << (expected == node ? "" : " (the nearest node with memory)")
        << ", found " << describe(p);
    std::size_t wrong = 0;
    for (double x : part) wrong += x != 1.5;
    EXPECT_EQ(wrong, 0u) << "node index " << k << ": elements not filled";
  }
  EXPECT_EQ(covered, kElements) << "the node parts do not cover the array";
}

TEST(NodeArray, EveryNodePartSitsOnItsNode) {
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { node_array_case(map); });
}

}  // namespace
