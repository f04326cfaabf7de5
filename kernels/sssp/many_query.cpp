// sssp/many_query.cpp — queries handed out one at a time to a placed team.
#include "sssp/many_query.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <optional>

#include "harness/timer.hpp"
#include "sssp/delta_stepping.hpp"
#include "sssp/placed_graph.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sssp {
namespace {

using detail::PlacedGraph;

// One thread's search state, made by the thread itself: its distance array
// bound to its node (first-touched by it when unplaced) and its queue.
struct Worker {
  Worker(const Topology& topo, const Placement& where, Vertex n, PageKind pages, Queue queue)
      : memory(allocate_parts(
            topo,
            {{.bytes = std::max<std::size_t>(1, static_cast<std::size_t>(n) * sizeof(Distance)), .node = where.node}},
            {.pages = pages})),
        dist(static_cast<Distance*>(memory.data()), static_cast<std::size_t>(n)),
        search(n, queue) {}
  NumaBuffer memory;
  std::span<Distance> dist;
  Dijkstra search;
};

// The nodes the mapping's threads run on; empty (every node) without a placement.
NodeSet nodes_of(const Mapping& map) {
  NodeSet nodes;
  if (map.policy().kind() != PolicyKind::none)
    for (const int node : map.node_ids()) nodes.set(node);
  return nodes;
}

// The graph copies the options ask for, and which one thread t reads.
struct GraphCopies {
  std::vector<PlacedGraph> copies;
  std::vector<int> copy_of_thread;
};

GraphCopies place_graph(const graph::WeightedGraph& g, const Topology& topo, const Mapping& map,
                        const ManyQueryOptions& options) {
  GraphCopies out;
  out.copy_of_thread.assign(static_cast<std::size_t>(map.size()), 0);
  const bool placed = map.policy().kind() != PolicyKind::none;
  if (options.replicate && placed) {
    for (const int node : map.node_ids()) out.copies.emplace_back(g, topo, node, options.pages);
    for (int t = 0; t < map.size(); ++t) out.copy_of_thread[t] = map[t].node_index;
  } else if (options.replicate || options.pages != PageKind::normal) {
    out.copies.emplace_back(g, topo, nodes_of(map), options.pages);
  }
  return out;
}

void check_sources(std::span<const Vertex> sources, Vertex n) {
  for (const Vertex s : sources)
    if (s < 0 || s >= n)
      throw input_error(fmt::format("query source {} is not a vertex of the graph (0..{})", s, n - 1));
}

}  // namespace

double ManyQueryResult::teps() const {
  double arcs = 0;
  for (const QueryRecord& q : queries) arcs += static_cast<double>(q.reach.arcs);
  return seconds > 0 ? arcs / seconds : 0;
}

ManyQueryResult run_many_queries(const graph::WeightedGraph& g, std::span<const Vertex> sources, const Topology& topo,
                                 const Mapping& map, const ManyQueryOptions& options) {
  check_sources(sources, g.vertices());
  ManyQueryResult result;
  const GraphCopies copies = place_graph(g, topo, map, options);
  for (const PlacedGraph& c : copies.copies) {
    result.graph_bytes += c.bytes();
    if (result.note.empty()) result.note = c.note();
  }
  result.graph_copies = static_cast<int>(copies.copies.size());
  result.queries.resize(sources.size());

  const int threads = map.size();
  int team = threads;
  std::atomic<std::size_t> next{0};
  std::exception_ptr failure;
  std::mutex failure_lock;
  std::atomic<bool> failed{false};
  auto fail = [&] {
    const std::lock_guard lock(failure_lock);
    if (!failure) failure = std::current_exception();
    failed = true;
  };
  double start = 0, end = 0;
#pragma omp parallel num_threads(threads)
  {
    if (omp_get_num_threads() != threads) {
      if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    } else {
      const int t = omp_get_thread_num();
      const graph::GraphView view = copies.copies.empty() ? g.view() : copies.copies[copies.copy_of_thread[t]].view();
      std::optional<Worker> me;
      try {
        me.emplace(topo, map[t], g.vertices(), options.pages, options.queue);
      } catch (...) {
        fail();
      }
#pragma omp barrier
#pragma omp single
      start = harness::now_seconds();
      // Every thread passes the barriers whatever happened, so none waits for a thread that gave up.
      if (!failed) {
        try {
          for (std::size_t i; (i = next.fetch_add(1, std::memory_order_relaxed)) < sources.size();) {
            const harness::Timer query;
            const Reach r = me->search.run(view, sources[i], me->dist);
            result.queries[i] = {.source = sources[i], .reach = r, .seconds = query.seconds(), .thread = t};
          }
        } catch (...) {
          fail();
        }
      }
#pragma omp barrier
#pragma omp single
      end = harness::now_seconds();
    }
  }
  ulibc::check_openmp_team_size(threads, team);
  if (failure) std::rethrow_exception(failure);
  result.seconds = end - start;
  return result;
}

ManyQueryResult run_queries_in_turn(const graph::WeightedGraph& g, std::span<const Vertex> sources,
                                    const Topology& topo, const Mapping& map, const InTurnOptions& options) {
  check_sources(sources, g.vertices());
  ManyQueryResult result;
  std::optional<PlacedGraph> copy;
  if (options.pages != PageKind::normal) {
    copy.emplace(g, topo, nodes_of(map), options.pages);
    result.graph_bytes = copy->bytes();
    result.graph_copies = 1;
    result.note = copy->note();
  }
  const graph::GraphView view = copy ? copy->view() : g.view();
  const NumaBuffer memory =
      allocate_interleaved(topo, std::max<std::size_t>(1, static_cast<std::size_t>(g.vertices()) * sizeof(Distance)),
                           nodes_of(map), {.pages = options.pages});
  const std::span<Distance> dist(static_cast<Distance*>(memory.data()), static_cast<std::size_t>(g.vertices()));
  std::optional<DeltaStepping> stepping;
  std::optional<Dijkstra> dijkstra;
  if (options.delta_stepping)
    stepping.emplace(view, g.max_weight(), options.delta ? options.delta : DeltaStepping::default_delta(view),
                     map.size());
  else
    dijkstra.emplace(g.vertices(), options.queue);
  for (const Vertex s : sources) {
    const harness::Timer timer;
    Reach r;
    if (stepping)
      stepping->run(view, s, dist);
    else
      r = dijkstra->run(view, s, dist);
    const double seconds = timer.seconds();
    // Δ-stepping may settle a vertex more than once: its summary is a pass of its own, outside the time.
    if (stepping) r = reach(view, dist);
    result.queries.push_back({.source = s, .reach = r, .seconds = seconds, .thread = 0});
    result.seconds += seconds;
  }
  return result;
}

}  // namespace ulibc::sssp
