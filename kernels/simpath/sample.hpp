// simpath/sample.hpp — uniformly random paths drawn from the ZDD.
#pragma once
#include <cstdint>
#include <vector>

#include "simpath/zdd.hpp"

namespace ulibc::simpath {

// `k` sets of the family, each drawn uniformly (with replacement) from the
// seed: counts every node's sets (exactly, bottom up), then walks down from
// the root taking each hi arc with probability |hi| / (|lo| + |hi|).
// Empty when the family is.
std::vector<std::vector<PathEdge>> sample_sets(const Zdd& zdd, int k, std::uint64_t seed);

// The vertices of the path made of `edges`, from s. Error(input) when the
// edges are not a simple path starting at s.
std::vector<Vertex> path_vertices(const std::vector<PathEdge>& edges, Vertex s);

}  // namespace ulibc::simpath
