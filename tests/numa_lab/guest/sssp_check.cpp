// sssp_check.cpp — shortest paths on an emulated multi-node machine, for every policy and thread count.
//
// A graph copy bound to a node has every page there (a memory-less node's
// copy on the nearest node with memory), and many-query runs with one copy
// per node, on huge pages or not, give the sequential checksums.
#include <gtest/gtest.h>

#include <vector>

#include "graph/road_generator.hpp"
#include "lab.hpp"
#include "sssp/dijkstra.hpp"
#include "sssp/many_query.hpp"
#include "sssp/placed_graph.hpp"
#include "sssp/verify.hpp"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::Mapping;
using ulibc::graph::Distance;
using ulibc::graph::Vertex;
using ulibc::graph::WeightedGraph;

// 120 x 120: a few hundred KiB of arcs, many pages per copy, quick to solve under emulation.
WeightedGraph road() {
  return ulibc::graph::build_weighted(ulibc::graph::generate_road({.rows = 120, .cols = 120, .seed = 5}).arcs);
}

TEST(NumaSssp, AGraphCopyLiesOnItsNode) {
  const WeightedGraph g = road();
  for (const ulibc::Node& n : lab::live().nodes()) {
    const int node = n.id;
    lab::check(where("graph copy on node " + std::to_string(node)), [&] {
      const ulibc::sssp::detail::PlacedGraph copy(g, lab::live(), node, ulibc::PageKind::normal);
      const int expected = machine().nearest_memory_node(node);
      const auto p = ulibc::page_placement(copy.view().arcs, g.arcs().size() * sizeof(ulibc::graph::Arc));
      const auto it = p.per_node.find(expected);
      EXPECT_EQ(it == p.per_node.end() ? 0 : it->second, p.pages)
          << "expected every page on node " << expected << ", found " << describe(p);
    });
  }
}

TEST(NumaSssp, ManyQueriesGiveTheSequentialChecksumsUnderEveryPlacement) {
  const WeightedGraph g = road();
  const std::vector<Vertex> sources = {0, 7000};
  std::vector<ulibc::sssp::Reach> expected;
  ulibc::sssp::Dijkstra search(g.vertices(), ulibc::sssp::Queue::binary_heap);
  std::vector<Distance> dist(static_cast<std::size_t>(g.vertices()));
  for (const Vertex s : sources) {
    search.run(g.view(), s, dist);
    expected.push_back(ulibc::sssp::reach(g.view(), dist));
  }
  for (const Mapping& map : lab::team_mappings(lab::live())) {
    for (const auto pages : {ulibc::PageKind::normal, ulibc::PageKind::transparent_huge}) {
      lab::check(where(map), [&] {
        const auto r = ulibc::sssp::run_many_queries(g, sources, lab::live(), map, {.pages = pages, .replicate = true});
        EXPECT_EQ(r.graph_copies, map.nodes_used());
        for (std::size_t i = 0; i < sources.size(); ++i)
          EXPECT_EQ(r.queries[i].reach, expected[i]) << "source " << sources[i];
      });
    }
  }
}

}  // namespace
