// simpath/edge_order.cpp — vertex placements and the edge sequence they give.
#include "simpath/edge_order.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cstdint>
#include <functional>
#include <limits>
#include <queue>
#include <span>
#include <tuple>

#include "ulibc/error.hpp"

namespace ulibc::simpath {

namespace {

// Adjacency lists of the problem's simple graph.
struct Adjacency {
  std::vector<std::int64_t> offsets;
  std::vector<Vertex> neighbours;
  explicit Adjacency(const PathProblem& p) : offsets(static_cast<std::size_t>(p.vertices) + 1, 0) {
    for (const PathEdge& e : p.edges) ++offsets[e.u + 1], ++offsets[e.v + 1];
    for (std::size_t v = 1; v < offsets.size(); ++v) offsets[v] += offsets[v - 1];
    neighbours.resize(offsets.back());
    std::vector<std::int64_t> next(offsets.begin(), offsets.end() - 1);
    for (const PathEdge& e : p.edges) neighbours[next[e.u]++] = e.v, neighbours[next[e.v]++] = e.u;
    for (std::size_t v = 0; v + 1 < offsets.size(); ++v)
      std::sort(neighbours.begin() + offsets[v], neighbours.begin() + offsets[v + 1]);
  }
  std::span<const Vertex> of(Vertex v) const {
    return {neighbours.data() + offsets[v], static_cast<std::size_t>(offsets[v + 1] - offsets[v])};
  }
};

constexpr std::int64_t kFar = std::numeric_limits<std::int64_t>::max();

// Breadth-first distances from s; the vertices s does not reach get n, n+1, … in id order.
std::vector<std::int64_t> distances_from(const Adjacency& adj, Vertex s, Vertex n) {
  std::vector<std::int64_t> dist(n, kFar);
  std::vector<Vertex> queue{s};
  dist[s] = 0;
  for (std::size_t head = 0; head < queue.size(); ++head)
    for (Vertex w : adj.of(queue[head]))
      if (dist[w] == kFar) dist[w] = dist[queue[head]] + 1, queue.push_back(w);
  std::int64_t next = n;
  for (auto& d : dist)
    if (d == kFar) d = next++;
  return dist;
}

std::vector<Vertex> bfs_placement(const std::vector<std::int64_t>& dist) {
  std::vector<Vertex> order(dist.size());
  for (std::size_t v = 0; v < order.size(); ++v) order[v] = static_cast<Vertex>(v);
  std::stable_sort(order.begin(), order.end(), [&](Vertex a, Vertex b) { return dist[a] < dist[b]; });
  return order;
}

// Greedy: among the unplaced neighbours of placed vertices (or, when there
// are none, the nearest unplaced vertex), place the one after which the
// frontier is smallest. Placing v changes the frontier by
//   [v keeps an unplaced neighbour] - #{placed neighbours whose last unplaced neighbour is v},
// which changes only when a neighbour's count of unplaced neighbours does:
// scores are kept in a heap and refreshed then, O((n + m) log n) in all.
std::vector<Vertex> greedy_placement(const Adjacency& adj, const std::vector<std::int64_t>& dist, Vertex s) {
  const auto n = static_cast<Vertex>(dist.size());
  std::vector<std::int64_t> unplaced_nbrs(n), closing(n, 0);  // closing: placed neighbours v would take off
  for (Vertex v = 0; v < n; ++v) unplaced_nbrs[v] = static_cast<std::int64_t>(adj.of(v).size());
  std::vector<char> placed(n, 0);
  const auto growth = [&](Vertex v) { return (unplaced_nbrs[v] > 0 ? 1 : 0) - closing[v]; };
  using Key = std::tuple<std::int64_t, std::int64_t, Vertex>;  // growth, distance from s, id: smallest first
  std::priority_queue<Key, std::vector<Key>, std::greater<Key>> heap;
  const auto rescore = [&](Vertex v) { heap.emplace(growth(v), dist[v], v); };
  // w (placed) has one unplaced neighbour left: placing that one takes w off the frontier.
  const auto last_neighbour_closes = [&](Vertex w) {
    for (Vertex u : adj.of(w))
      if (!placed[u]) ++closing[u], rescore(u);
  };
  std::vector<Vertex> order;
  const auto place = [&](Vertex v) {
    placed[v] = 1;
    order.push_back(v);
    if (unplaced_nbrs[v] == 1) last_neighbour_closes(v);
    for (Vertex w : adj.of(v)) {
      --unplaced_nbrs[w];
      if (!placed[w])
        rescore(w);
      else if (unplaced_nbrs[w] == 1)
        last_neighbour_closes(w);
    }
  };
  const std::vector<Vertex> fallback = bfs_placement(dist);
  std::size_t fallback_next = 0;
  place(s);
  while (order.size() < static_cast<std::size_t>(n)) {
    // Entries whose vertex is placed or whose score has changed since are stale.
    while (!heap.empty() &&
           (placed[std::get<2>(heap.top())] || std::get<0>(heap.top()) != growth(std::get<2>(heap.top()))))
      heap.pop();
    if (!heap.empty()) {
      place(std::get<2>(heap.top()));
      continue;
    }
    while (placed[fallback[fallback_next]]) ++fallback_next;
    place(fallback[fallback_next]);
  }
  return order;
}

}  // namespace

EdgeOrder edge_order_named(const std::string& name) {
  if (name == "auto") return EdgeOrder::automatic;
  if (name == "bfs") return EdgeOrder::bfs;
  if (name == "greedy") return EdgeOrder::greedy;
  if (name == "input") return EdgeOrder::input;
  throw input_error(fmt::format("unknown edge order \"{}\" (auto, bfs, greedy, input)", name));
}

const char* edge_order_name(EdgeOrder order) {
  switch (order) {
    case EdgeOrder::automatic:
      return "auto";
    case EdgeOrder::bfs:
      return "bfs";
    case EdgeOrder::greedy:
      return "greedy";
    case EdgeOrder::input:
      return "input";
  }
  return "?";
}

std::vector<PathEdge> order_edges(const PathProblem& p, EdgeOrder order) {
  if (p.vertices == 0) return {};
  const Adjacency adj(p);
  const std::vector<std::int64_t> dist = distances_from(adj, p.s, p.vertices);
  // Only s's component can hold a path; an edge elsewhere would only widen the frontier.
  const auto reached = [&](Vertex v) { return dist[v] < static_cast<std::int64_t>(p.vertices); };  // see distances_from
  if (!reached(p.t)) return {};
  std::vector<PathEdge> edges;
  edges.reserve(p.edges.size());
  if (order == EdgeOrder::input || order == EdgeOrder::automatic) {
    for (const PathEdge& e : p.edges)
      if (reached(e.u)) edges.push_back(e);
    return edges;
  }
  const std::vector<Vertex> placement =
      order == EdgeOrder::bfs ? bfs_placement(dist) : greedy_placement(adj, dist, p.s);
  std::vector<Vertex> position(p.vertices);
  for (std::size_t i = 0; i < placement.size(); ++i) position[placement[i]] = static_cast<Vertex>(i);
  for (Vertex v : placement)
    for (Vertex w : adj.of(v))
      if (position[w] < position[v] && reached(v)) edges.push_back({w, v});
  return edges;
}

}  // namespace ulibc::simpath
