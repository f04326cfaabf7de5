// simpath/zdd.hpp — a reduced ZDD over a graph's edges, and its text form.
//
// Each node decides one edge: its hi child is the family of the sets that
// take the edge (the edge removed), its lo child that of the sets that do
// not. Reduced: no two nodes of a step have the same children, and no node
// has the 0-terminal as hi child (such a node is replaced by its lo child).
#pragma once
#include <cstdint>
#include <ostream>
#include <vector>

#include "simpath/node_ref.hpp"
#include "simpath/path_problem.hpp"

namespace ulibc::simpath {

struct ZddNode {
  NodeRef lo = kZero;
  NodeRef hi = kZero;
  bool operator==(const ZddNode&) const = default;
};

struct Zdd {
  std::vector<PathEdge> edges;               // step i decides edges[i]
  std::vector<std::vector<ZddNode>> levels;  // levels[i]: the nodes of step i
  NodeRef root = kZero;

  const ZddNode& node(NodeRef r) const { return levels[ref_step(r)][ref_index(r)]; }
  std::uint64_t size() const;  // nodes, terminals not counted
};

// The text form of docs/ZDD_FORMAT.md: the edges in step order, then the
// nodes from the last step up (children before parents), numbered from 2.
void write_zdd(const Zdd& zdd, Vertex s, Vertex t, std::ostream& out);

}  // namespace ulibc::simpath
