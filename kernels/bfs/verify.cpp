// bfs/verify.cpp — the Graph500 validation's checks, in the order verify.hpp lists them.
//
// Levels come from the parent array itself (a walk up each chain, memoised),
// so that the tree is judged without trusting the search that made it. The
// per-edge checks run together in one parallel pass over the input tuples
// (drawn again when they come from the generator); each keeps the lowest
// failing tuple, so the message is the same whatever the team.
//
// Memory: besides the parent array, 9 bytes a vertex (each vertex's parent
// and level side by side, a byte for check 3); nothing per tuple.
#include "bfs/verify.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

#include "ulibc/range.hpp"

namespace ulibc::bfs {

namespace {

using graph::Edge;
using graph::EdgeList;
using graph::Tuples;

constexpr int kUnknown = -1;
constexpr int kOnWalk = -2;  // on the chain being walked: meeting it again is a cycle
constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

Validation failed(std::string why) { return {.valid = false, .failure = std::move(why)}; }

// Each vertex's parent and level side by side: the pass over the tuples
// then takes two cache misses a tuple instead of four.
struct Node {
  Vertex parent;
  int level;  // kUnknown for unreached vertices
};

// Every vertex's parent and level (the root's is 0), or the first
// inconsistency found: a parent that is not a vertex, is not reached, or a
// chain that loops instead of reaching the root.
struct Levels {
  std::vector<Node> node;
  std::string failure;
};

Levels levels_of(Vertex root, std::span<const Vertex> parent, int threads) {
  const auto n = static_cast<Vertex>(parent.size());
  Levels out{std::vector<Node>(parent.size()), {}};
  Node* node = out.node.data();
#pragma omp parallel for num_threads(threads) schedule(static)
  for (Vertex v = 0; v < n; ++v) node[v] = {parent[v], kUnknown};
  node[root].level = 0;
  std::vector<Vertex> walk;
  for (Vertex start = 0; start < n; ++start) {
    if (node[start].parent == kUnreached || node[start].level != kUnknown) continue;
    walk.clear();
    Vertex v = start;
    while (node[v].level == kUnknown) {
      const Vertex p = node[v].parent;
      if (p < 0 || p >= n) {
        out.failure = fmt::format("check 2 (parents): parent[{}] = {} is not a vertex", v, p);
        return out;
      }
      if (node[p].parent == kUnreached) {
        out.failure = fmt::format("check 2 (parents): parent[{}] = {}, which is not reached", v, p);
        return out;
      }
      node[v].level = kOnWalk;
      walk.push_back(v);
      v = p;
    }
    if (node[v].level == kOnWalk) {
      out.failure = fmt::format(
          "check 2 (parents): following parents from {} loops at {} and never reaches the root {}", start, v, root);
      return out;
    }
    for (int l = node[v].level; !walk.empty(); walk.pop_back()) node[walk.back()].level = ++l;
  }
  return out;
}

// What one pass over the tuples finds: for checks 4 and 5 the lowest
// failing tuple (kNone if none), so that the message is the same whatever
// the team; the tuples with a reached end; and, in `confirmed`, the vertices
// whose tree edge appeared (check 3).
struct Sweep {
  std::int64_t far = kNone, cut = kNone;
  Edge far_edge, cut_edge;
  std::int64_t inside = 0;
};

// One pass over the tuples for checks 3, 4 and 5 together, so that tuples
// drawn again from a generator are drawn once per validation.
Sweep sweep(const Tuples& input, const std::vector<Node>& node, std::vector<std::uint8_t>& confirmed, int threads) {
  const std::int64_t m = input.size();
  Sweep all;
#pragma omp parallel num_threads(threads)
  {
    const int team = omp_get_num_threads(), tid = omp_get_thread_num();
    const auto share =
        even_share(IndexRange<std::int64_t>{0, m}, static_cast<std::size_t>(tid), static_cast<std::size_t>(team));
    Sweep mine;
    input.for_each(share.begin, share.end, [&](std::int64_t i, Edge e) {
      const Node u = node[e.u], v = node[e.v];
      if (v.parent == e.u) std::atomic_ref(confirmed[e.v]).store(1, std::memory_order_relaxed);
      if (u.parent == e.v) std::atomic_ref(confirmed[e.u]).store(1, std::memory_order_relaxed);
      const bool in_u = u.level != kUnknown, in_v = v.level != kUnknown;
      if (in_u && in_v && std::abs(u.level - v.level) > 1 && i < mine.far) {
        mine.far = i;
        mine.far_edge = e;
      }
      if (in_u != in_v && i < mine.cut) {
        mine.cut = i;
        mine.cut_edge = e;
      }
      mine.inside += in_u;
    });
#pragma omp critical(ulibc_bfs_sweep)
    {
      if (mine.far < all.far) all.far = mine.far, all.far_edge = mine.far_edge;
      if (mine.cut < all.cut) all.cut = mine.cut, all.cut_edge = mine.cut_edge;
      all.inside += mine.inside;
    }
  }
  return all;
}

}  // namespace

Validation validate(const Tuples& input, Vertex root, std::span<const Vertex> parent, int threads) {
  if (threads <= 0) threads = omp_get_max_threads();
  if (static_cast<std::int64_t>(parent.size()) != input.vertices())
    return failed(fmt::format("the parent array has {} entries for {} vertices", parent.size(), input.vertices()));
  if (root < 0 || root >= input.vertices())
    return failed(fmt::format("root {} is not a vertex of the graph (0..{})", root, input.vertices() - 1));
  if (parent[root] != root)
    return failed(fmt::format("check 1 (root): parent[{}] = {}, not the root itself", root, parent[root]));

  Levels levels = levels_of(root, parent, threads);
  if (!levels.failure.empty()) return failed(std::move(levels.failure));
  const std::vector<Node>& node = levels.node;
  std::vector<std::uint8_t> confirmed(parent.size(), 0);
  const Sweep found = sweep(input, node, confirmed, threads);

  // Check 3: every reached vertex but the root met its tree edge among the tuples.
  const auto n = static_cast<std::int64_t>(parent.size());
  std::int64_t orphan = kNone;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : orphan)
  for (std::int64_t v = 0; v < n; ++v)
    if (v < orphan && v != root && parent[v] != kUnreached && !confirmed[v]) orphan = v;
  if (orphan != kNone)
    return failed(fmt::format("check 3 (tree edges): the tree edge {{{}, {}}} is not an edge of the input", orphan,
                              parent[orphan]));
  if (found.far != kNone) {
    const Edge e = found.far_edge;
    return failed(fmt::format("check 4 (levels): the edge {{{}, {}}} joins levels {} and {}", e.u, e.v, node[e.u].level,
                              node[e.v].level));
  }
  if (found.cut != kNone) {
    const Edge e = found.cut_edge;
    const Vertex in = node[e.u].level == kUnknown ? e.v : e.u, out = in == e.u ? e.v : e.u;
    return failed(fmt::format("check 5 (component): the edge {{{}, {}}} joins reached vertex {} to unreached vertex {}",
                              e.u, e.v, in, out));
  }

  // By now the tuples with either end reached have both ends reached.
  Validation ok{.valid = true, .edges = found.inside};
  for (const Node& x : node) {
    ok.reached += x.level != kUnknown;
    ok.depth = std::max(ok.depth, x.level);
  }
  return ok;
}

Validation validate(const EdgeList& input, Vertex root, std::span<const Vertex> parent, int threads) {
  return validate(Tuples(input), root, parent, threads);
}

}  // namespace ulibc::bfs
