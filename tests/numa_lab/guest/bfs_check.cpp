// bfs_check.cpp — the NUMA-partitioned BFS on an emulated multi-node machine, for every distinct placement.
//
// Each node's part of the parent array sits on that node (a memory-less
// node's on the nearest node with memory), and the search passes Graph500's
// validation. One search per placement: an emulated machine validates at a
// few million edges a second, and the BFS tests of the release build cover
// many roots.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>

#include "bfs/bfs.hpp"
#include "bfs/verify.hpp"
#include "graph/builder.hpp"
#include "graph/generator.hpp"
#include "lab.hpp"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::Mapping;
using ulibc::bfs::Vertex;

// 2^17 vertices: four parts of whole bitmap pages (32768 vertices with 4 KiB
// pages). Building the kernel is most of each placement's time under
// emulation, in proportion to the edges: two per vertex still give a giant
// component that reaches every part.
constexpr int kScale = 17;
constexpr int kEdgefactor = 2;

// The hub: its search reaches the giant component, so every part.
Vertex hub_of(const ulibc::graph::CsrGraph& g) {
  Vertex hub = 0;
  for (Vertex v = 0; v < g.vertices(); ++v)
    if (g.degree(v) > g.degree(hub)) hub = v;
  return hub;
}

// The kernel as `ulibc bench bfs` builds it: straight from the tuples, each
// node's lists written into its own part.
void bfs_case(const ulibc::graph::EdgeList& input, const ulibc::graph::CsrGraph& g, const Mapping& map) {
  ulibc::bfs::Bfs bfs(ulibc::graph::Tuples(input), lab::live(), map);
  ASSERT_EQ(bfs.arcs(), g.arcs());
  ASSERT_EQ(bfs.parts(), map.nodes_used());
  const Vertex root = hub_of(g);
  const auto parent = bfs.search(root);
  const auto v = ulibc::bfs::validate(input, root, parent, map.size());
  EXPECT_TRUE(v.valid) << "root " << root << ": " << v.failure;
  for (int k = 0; k < bfs.parts(); ++k) {
    const auto [first, last] = bfs.part_range(k);
    if (first == last) continue;
    const int node = map.node_ids()[k];
    const int expected = machine().nearest_memory_node(node);
    const auto p =
        ulibc::page_placement(parent.data() + first, static_cast<std::size_t>(last - first) * sizeof(Vertex));
    const auto it = p.per_node.find(expected);
    EXPECT_EQ(it == p.per_node.end() ? 0 : it->second, p.pages)
        << "part " << k << " (node " << node << ") parents [" << first << ", " << last
        << "): expected every page on node " << expected << ", found " << describe(p);
  }
}

TEST(NumaBfs, EachNodesPartSitsOnItsNodeAndEverySearchValidates) {
  const auto input = ulibc::graph::kronecker({.scale = kScale, .edgefactor = kEdgefactor, .seed = 3});
  const auto g = ulibc::graph::build_undirected(input);
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { bfs_case(input, g, map); });
}

}  // namespace
