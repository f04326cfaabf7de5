// bfs/verify.cpp — the Graph500 validation's checks, in the order verify.hpp lists them.
//
// Levels come from the parent array itself (a walk up each chain, memoised),
// so that the tree is judged without trusting the search that made it. The
// per-edge checks run in parallel over the input tuples; each keeps the
// lowest failing tuple, so the message is the same whatever the team.
#include "bfs/verify.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <vector>

namespace ulibc::bfs {

namespace {

using graph::Edge;
using graph::EdgeList;

constexpr int kUnknown = -1;
constexpr int kOnWalk = -2;  // on the chain being walked: meeting it again is a cycle
constexpr std::int64_t kNone = std::numeric_limits<std::int64_t>::max();

Validation failed(std::string why) { return {.valid = false, .failure = std::move(why)}; }

// Levels of every reached vertex (the root's is 0), or the first
// inconsistency found: a parent that is not a vertex, is not reached, or a
// chain that loops instead of reaching the root.
struct Levels {
  std::vector<int> level;  // kUnknown for unreached vertices
  std::string failure;
};

Levels levels_of(Vertex root, std::span<const Vertex> parent) {
  const auto n = static_cast<Vertex>(parent.size());
  Levels out{std::vector<int>(parent.size(), kUnknown), {}};
  std::vector<int>& level = out.level;
  level[root] = 0;
  std::vector<Vertex> walk;
  for (Vertex start = 0; start < n; ++start) {
    if (parent[start] == kUnreached || level[start] != kUnknown) continue;
    walk.clear();
    Vertex v = start;
    while (level[v] == kUnknown) {
      const Vertex p = parent[v];
      if (p < 0 || p >= n) {
        out.failure = fmt::format("check 2 (parents): parent[{}] = {} is not a vertex", v, p);
        return out;
      }
      if (parent[p] == kUnreached) {
        out.failure = fmt::format("check 2 (parents): parent[{}] = {}, which is not reached", v, p);
        return out;
      }
      level[v] = kOnWalk;
      walk.push_back(v);
      v = p;
    }
    if (level[v] == kOnWalk) {
      out.failure = fmt::format(
          "check 2 (parents): following parents from {} loops at {} and never reaches the root {}", start, v, root);
      return out;
    }
    for (int l = level[v]; !walk.empty(); walk.pop_back()) level[walk.back()] = ++l;
  }
  return out;
}

// The lowest index i in [0, m) for which bad(i) holds, kNone if none; in parallel.
template <class Bad>
std::int64_t first_bad(std::int64_t m, int threads, const Bad& bad) {
  std::int64_t first = kNone;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first)
  for (std::int64_t i = 0; i < m; ++i)
    if (i < first && bad(i)) first = i;
  return first;
}

// Check 3: mark each vertex whose tree edge appears among the tuples.
std::string check_tree_edges(const EdgeList& input, Vertex root, std::span<const Vertex> parent, int threads) {
  std::vector<std::uint8_t> confirmed(parent.size(), 0);
  const auto m = static_cast<std::int64_t>(input.edges.size());
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    const Edge e = input.edges[i];
    if (parent[e.v] == e.u) std::atomic_ref(confirmed[e.v]).store(1, std::memory_order_relaxed);
    if (parent[e.u] == e.v) std::atomic_ref(confirmed[e.u]).store(1, std::memory_order_relaxed);
  }
  const auto n = static_cast<std::int64_t>(parent.size());
  const std::int64_t v =
      first_bad(n, threads, [&](std::int64_t v) { return v != root && parent[v] != kUnreached && !confirmed[v]; });
  if (v == kNone) return "";
  return fmt::format("check 3 (tree edges): the tree edge {{{}, {}}} is not an edge of the input", v, parent[v]);
}

}  // namespace

Validation validate(const EdgeList& input, Vertex root, std::span<const Vertex> parent, int threads) {
  if (threads <= 0) threads = omp_get_max_threads();
  if (static_cast<std::int64_t>(parent.size()) != input.vertices)
    return failed(fmt::format("the parent array has {} entries for {} vertices", parent.size(), input.vertices));
  if (root < 0 || root >= input.vertices)
    return failed(fmt::format("root {} is not a vertex of the graph (0..{})", root, input.vertices - 1));
  if (parent[root] != root)
    return failed(fmt::format("check 1 (root): parent[{}] = {}, not the root itself", root, parent[root]));

  Levels levels = levels_of(root, parent);
  if (!levels.failure.empty()) return failed(std::move(levels.failure));
  if (std::string why = check_tree_edges(input, root, parent, threads); !why.empty()) return failed(std::move(why));

  const std::vector<int>& level = levels.level;
  const auto m = static_cast<std::int64_t>(input.edges.size());
  const auto at = [&](std::int64_t i) { return std::pair(level[input.edges[i].u], level[input.edges[i].v]); };
  const std::int64_t far = first_bad(m, threads, [&](std::int64_t i) {
    const auto [lu, lv] = at(i);
    return lu != kUnknown && lv != kUnknown && std::abs(lu - lv) > 1;
  });
  if (far != kNone) {
    const Edge e = input.edges[far];
    return failed(
        fmt::format("check 4 (levels): the edge {{{}, {}}} joins levels {} and {}", e.u, e.v, level[e.u], level[e.v]));
  }
  const std::int64_t cut = first_bad(m, threads, [&](std::int64_t i) {
    const auto [lu, lv] = at(i);
    return (lu == kUnknown) != (lv == kUnknown);
  });
  if (cut != kNone) {
    const Edge e = input.edges[cut];
    const Vertex in = level[e.u] == kUnknown ? e.v : e.u, out = in == e.u ? e.v : e.u;
    return failed(fmt::format("check 5 (component): the edge {{{}, {}}} joins reached vertex {} to unreached vertex {}",
                              e.u, e.v, in, out));
  }

  std::int64_t inside = 0;  // tuples with both ends reached: by now, those with either end reached
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : inside)
  for (std::int64_t i = 0; i < m; ++i) inside += level[input.edges[i].u] != kUnknown;
  Validation ok{.valid = true, .edges = inside};
  for (const int l : level) {
    ok.reached += l != kUnknown;
    ok.depth = std::max(ok.depth, l);
  }
  return ok;
}

}  // namespace ulibc::bfs
