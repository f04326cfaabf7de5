// simpath/sample.cpp — exact uniform sampling over the ZDD's sets.
#include "simpath/sample.hpp"

#include <fmt/format.h>

#include <boost/random/mersenne_twister.hpp>
#include <boost/random/uniform_int_distribution.hpp>
#include <map>

#include "simpath/big_integer.hpp"
#include "ulibc/error.hpp"

namespace ulibc::simpath {

using boost::multiprecision::cpp_int;

std::vector<std::vector<PathEdge>> sample_sets(const Zdd& zdd, int k, std::uint64_t seed) {
  if (k <= 0) return {};  // counting every node's sets costs memory like the ZDD's own
  // Every node's count; children lie on later steps, so count from the last step up.
  std::vector<std::vector<cpp_int>> card(zdd.levels.size());
  const auto count = [&](NodeRef r) -> const cpp_int& {
    static const cpp_int zero = 0, one = 1;
    return r == kZero ? zero : r == kOne ? one : card[ref_step(r)][ref_index(r)];
  };
  for (std::size_t i = zdd.levels.size(); i-- > 0;) {
    card[i].resize(zdd.levels[i].size());
    for (std::size_t x = 0; x < zdd.levels[i].size(); ++x)
      card[i][x] = count(zdd.levels[i][x].lo) + count(zdd.levels[i][x].hi);
  }
  std::vector<std::vector<PathEdge>> sets;
  if (count(zdd.root) == 0) return sets;
  boost::random::mt19937_64 rng(seed);
  for (int s = 0; s < k; ++s) {
    // A number below the root's count picks one set; descend by it.
    cpp_int r = boost::random::uniform_int_distribution<cpp_int>(0, count(zdd.root) - 1)(rng);
    std::vector<PathEdge> set;
    for (NodeRef at = zdd.root; at != kOne;) {
      const ZddNode& n = zdd.node(at);
      const cpp_int& lo = count(n.lo);
      if (r < lo) {
        at = n.lo;
      } else {
        r -= lo;
        set.push_back(zdd.edges[ref_step(at)]);
        at = n.hi;
      }
    }
    sets.push_back(std::move(set));
  }
  return sets;
}

std::vector<Vertex> path_vertices(const std::vector<PathEdge>& edges, Vertex s) {
  std::multimap<Vertex, Vertex> adjacent;
  for (const PathEdge& e : edges) adjacent.emplace(e.u, e.v), adjacent.emplace(e.v, e.u);
  std::vector<Vertex> path{s};
  for (Vertex prev = -1, at = s; path.size() <= edges.size();) {
    Vertex next = -1;
    for (auto [it, end] = adjacent.equal_range(at); it != end; ++it)
      if (it->second != prev) next = it->second;
    if (next < 0 || adjacent.count(at) > (at == s ? 1u : 2u))
      throw input_error(fmt::format("the edges are not a simple path from {}: stuck at vertex {}", s, at));
    path.push_back(next);
    prev = at;
    at = next;
  }
  return path;
}

}  // namespace ulibc::simpath
