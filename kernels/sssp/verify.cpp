// sssp/verify.cpp — the checksum, the reference and the certificate.
#include "sssp/verify.hpp"

#include <fmt/format.h>

#include <functional>
#include <queue>
#include <utility>

namespace ulibc::sssp {

using graph::kUnreached;

Reach reach(const GraphView& g, std::span<const Distance> dist) {
  Reach r;
  for (Vertex v = 0; v < g.vertices; ++v) {
    if (dist[v] == kUnreached) continue;
    r.checksum += dist[v];
    ++r.vertices;
    r.arcs += g.offsets[v + 1] - g.offsets[v];
  }
  r.checksum &= kChecksumMask;
  return r;
}

std::vector<Distance> reference_distances(const GraphView& g, Vertex source) {
  std::vector<Distance> dist(static_cast<std::size_t>(g.vertices), kUnreached);
  using Item = std::pair<Distance, Vertex>;
  std::priority_queue<Item, std::vector<Item>, std::greater<>> queue;
  dist[source] = 0;
  queue.push({0, source});
  while (!queue.empty()) {
    const auto [d, u] = queue.top();
    queue.pop();
    if (d > dist[u]) continue;
    for (const graph::Arc& a : g.out(u)) {
      if (d + a.weight < dist[a.head]) {
        dist[a.head] = d + a.weight;
        queue.push({d + a.weight, a.head});
      }
    }
  }
  return dist;
}

std::string check_distances(const GraphView& g, Vertex source, std::span<const Distance> dist) {
  if (dist.size() != static_cast<std::size_t>(g.vertices))
    return fmt::format("{} distances for {} vertices", dist.size(), g.vertices);
  if (dist[source] != 0) return fmt::format("the source {} has distance {}, not 0", source, dist[source]);
  for (Vertex u = 0; u < g.vertices; ++u) {
    const Distance du = dist[u];
    if (du == kUnreached) continue;
    for (const graph::Arc& a : g.out(u))
      if (dist[a.head] > du + a.weight)
        return fmt::format("arc {} -> {} (weight {}) gives {} a shorter path ({} < {})", u, a.head, a.weight, a.head,
                           du + a.weight, dist[a.head]);
  }
  // Every finite distance must be reached from the source over tight arcs.
  std::vector<bool> seen(dist.size(), false);
  std::vector<Vertex> stack = {source};
  seen[source] = true;
  Vertex found = 0;
  while (!stack.empty()) {
    const Vertex u = stack.back();
    stack.pop_back();
    ++found;
    for (const graph::Arc& a : g.out(u)) {
      const auto v = static_cast<std::size_t>(a.head);
      if (!seen[v] && dist[v] == dist[u] + a.weight) {
        seen[v] = true;
        stack.push_back(a.head);
      }
    }
  }
  if (found != reach(g, dist).vertices) {
    for (Vertex v = 0; v < g.vertices; ++v)
      if (dist[v] != kUnreached && !seen[v])
        return fmt::format("vertex {} has distance {} but no path of that length leads to it", v, dist[v]);
  }
  return "";
}

}  // namespace ulibc::sssp
