// peers/sssp_boost.cpp — the Boost Graph Library's dijkstra_shortest_paths on
// the graph `ulibc sssp` solves: the BGL peer of the shortest-path comparison
// (peers/sssp_vs_peers.py).
//
// The graph is a DIMACS .gr file (9th challenge) or ULIBC's binary weighted
// graph, read by ULIBC's reader (graph/dimacs_io.hpp) into its CSR form,
// every arc as the file gives it: parallel arcs and self-loops kept, as
// ULIBC keeps them. It is held in a
// boost::compressed_sparse_row_graph<directedS> with an edge_weight property
// (32-bit weights), 32-bit vertex ids and 64-bit edge positions (ULIBC's
// widths), built from ULIBC's rows in order. Distances are 64-bit, as
// ULIBC's: no sum of 32-bit weights along a simple path can overflow them.
//
// For each source, in the order given, one timed query as a user of BGL
// writes it: a distance vector of num_vertices entries allocated, then
// dijkstra_shortest_paths from the source, which sets every distance to
// infinity itself, allocates and whitens its two-bit colour map and its
// 4-ary heap's index map, and runs. The timer covers all of it, as ULIBC's
// covers its initialisation of the distance array and GAP's its DeltaStep
// call. BGL's Dijkstra is sequential: one thread.
//
// Distances only, by default: what ULIBC and GAP compute, and what the
// checksum reads. --predecessors adds a predecessor vector (32-bit ids,
// allocated in the timer like the distances), the shortest-path tree most
// BGL users also ask for: one more store per improving relaxation and one
// more pass of initialisation.
//
// --variant no-color times dijkstra_shortest_paths_no_color_map instead,
// which tells "not yet reached" by distance == infinity rather than by a
// colour map. The default is BGL's documented entry point because neither is
// faster: on ULIBC's 1000 x 1000 road graph (1M vertices, 2.95M arcs, 16
// sources; a 2-core AMD EPYC virtual machine) both take a median 0.18 to
// 0.20 s a query, within each other's noise, and predecessors add some 5%.
//
// Output (stdout), JSON:
//   {"peer": "boost-graph 1.74.0", "variant": "color", "predecessors": false,
//    "vertices": n, "arcs": m, "graph_bytes": b, "state_bytes": b, "peak_rss_bytes": b,
//    "queries": [{"source": s, "seconds": t, "reached": k, "checksum": c}, ...]}
// source is the DIMACS id, 1-based, as the sources file gives it. reached
// counts the vertices with a finite distance (the source included), and
// checksum is the 9th challenge's: the sum of those distances, modulo 2^62.
// Both are computed after the timer stops. graph_bytes is the CSR's arrays:
// (n + 1) x 8 bytes of row starts, arcs x 4 of heads and arcs x 4 of weights
// (BGL's vectors may hold a little more capacity); state_bytes is one query's
// distance vector (n x 8), heap index map (n x 8), colour map (n / 4, the
// colour variant) and predecessors (n x 4, with --predecessors), not counting
// the heap itself (a std::vector of at most n ids). peak_rss_bytes is the
// process's peak resident set (VmHWM of /proc/self/status; -1 where there is
// none), reading the graph and building BGL's copy included.
//
// usage: ulibc_peer_sssp_boost GRAPH (--sources FILE.ss | --source ID ...)
//                               [--variant color|no-color] [--predecessors]
// Exit status 2 for bad input: an unreadable or malformed graph or sources
// file, a source outside 1..n, no sources.
#include <boost/graph/compressed_sparse_row_graph.hpp>
#include <boost/graph/dijkstra_shortest_paths.hpp>
#include <boost/graph/dijkstra_shortest_paths_no_color_map.hpp>
#include <boost/iterator/transform_iterator.hpp>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <limits>
#include <new>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "boost_peer.hpp"
#include "graph/dimacs_io.hpp"
#include "graph/weighted_graph.hpp"
#include "harness/options.hpp"
#include "ulibc/error.hpp"

namespace {

using VertexId = std::uint32_t;
using ArcIndex = std::uint64_t;
using Weight = ulibc::graph::Weight;      // 32-bit
using Distance = ulibc::graph::Distance;  // 64-bit
using WeightProperty = boost::property<boost::edge_weight_t, Weight>;
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, WeightProperty,
                                                 boost::no_property, VertexId, ArcIndex>;
constexpr Distance kInfinity = std::numeric_limits<Distance>::max();  // BGL's default infinity
constexpr std::uint64_t kChecksumMask = (std::uint64_t{1} << 62) - 1;

struct HeadOf {
  const ulibc::graph::WeightedGraph* g;
  VertexId operator()(ArcIndex arc) const { return static_cast<VertexId>(g->arcs()[arc].head); }
};
using ArcIterator = ulibc::peers::CsrArcIterator<VertexId, ArcIndex, HeadOf>;

struct ArcWeight {
  Weight operator()(const ulibc::graph::Arc& a) const { return a.weight; }
};

// One query: BGL's Dijkstra from `source` into `dist` (and `pred`, if not
// null), the way the variant asks.
void dijkstra(const Graph& g, VertexId source, bool no_color, Distance* dist, VertexId* pred) {
  const auto index = get(boost::vertex_index, g);
  const auto dist_map = boost::make_iterator_property_map(dist, index);
  if (no_color) {
    if (pred)
      boost::dijkstra_shortest_paths_no_color_map(
          g, source, boost::distance_map(dist_map).predecessor_map(boost::make_iterator_property_map(pred, index)));
    else
      boost::dijkstra_shortest_paths_no_color_map(g, source, boost::distance_map(dist_map));
  } else {
    if (pred)
      boost::dijkstra_shortest_paths(
          g, source, boost::distance_map(dist_map).predecessor_map(boost::make_iterator_property_map(pred, index)));
    else
      boost::dijkstra_shortest_paths(g, source, boost::distance_map(dist_map));
  }
}

// The sources, 0-based: from a DIMACS .ss file, or the --source options (1-based), checked against n vertices.
std::vector<VertexId> read_sources(const std::string& path, const std::vector<std::int64_t>& options, long long n) {
  std::vector<VertexId> sources;
  if (!path.empty()) {
    for (auto s : ulibc::graph::read_dimacs_sources(path, n)) sources.push_back(static_cast<VertexId>(s));
    if (sources.empty()) throw ulibc::input_error(path + ": no sources");
    return sources;
  }
  for (const std::int64_t s : options) {
    if (s < 1 || s > n)
      throw ulibc::input_error("source " + std::to_string(s) + " outside the graph's vertices 1.." + std::to_string(n));
    sources.push_back(static_cast<VertexId>(s - 1));
  }
  return sources;
}

// One timed search from each source: its seconds, the vertices it reached and DIMACS's checksum of the distances.
nlohmann::ordered_json run_queries(const Graph& g, const std::vector<VertexId>& sources, bool no_color,
                                   bool predecessors) {
  nlohmann::ordered_json queries = nlohmann::ordered_json::array();
  for (VertexId source : sources) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<Distance> dist(num_vertices(g));
    std::vector<VertexId> pred(predecessors ? num_vertices(g) : 0);
    dijkstra(g, source, no_color, dist.data(), predecessors ? pred.data() : nullptr);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    long long reached = 0;
    std::uint64_t checksum = 0;
    for (Distance d : dist)
      if (d != kInfinity) {
        ++reached;
        checksum = (checksum + (d & kChecksumMask)) & kChecksumMask;
      }
    queries.push_back({{"source", static_cast<long long>(source) + 1},
                       {"seconds", seconds},
                       {"reached", reached},
                       {"checksum", checksum}});
  }
  return queries;
}

}  // namespace

int main(int argc, char** argv) {
  std::string graph_path, sources_path, variant = "color";
  std::vector<std::int64_t> source_options;
  bool predecessors = false;
  const auto stop = ulibc::harness::parse_program(
      "The Boost Graph Library's dijkstra_shortest_paths from each source, timed (JSON on stdout)", argc, argv,
      [&](ulibc::harness::Options& o) {
        o.add("graph", graph_path, "DIMACS shortest-path graph (.gr) or ULIBC binary weighted graph").required();
        o.add("--sources", sources_path, "DIMACS sources file (.ss): one 's ID' line each");
        o.add("--source", source_options, "A source, 1-based as in DIMACS (repeatable)").excludes("--sources");
        o.add("--variant", variant, "color: dijkstra_shortest_paths; no-color: its no_color_map version")
            .one_of({"color", "no-color"})
            .show_default();
        o.flag("--predecessors", predecessors, "Also record each vertex's predecessor (in the timer)");
      });
  if (stop) return *stop;

  return ulibc::peers::run_reporting_errors("ulibc_peer_sssp_boost", [&] {
    if (sources_path.empty() && source_options.empty())
      throw ulibc::input_error("no sources: give --sources FILE.ss or --source ID");
    ulibc::graph::WeightedGraph rows = ulibc::graph::read_weighted_graph(graph_path);
    const long long n = rows.vertices();
    const std::vector<VertexId> sources = read_sources(sources_path, source_options, n);

    // BGL's copy of the rows, weights beside the heads (building is not timed).
    const auto arcs = static_cast<ArcIndex>(rows.arc_count());
    Graph g(boost::edges_are_sorted, ArcIterator(rows.offsets(), 0, {&rows}),
            ArcIterator(rows.offsets(), arcs, {&rows}),
            boost::make_transform_iterator(rows.arcs().begin(), ArcWeight{}), static_cast<VertexId>(n), arcs);
    rows = {};  // free ULIBC's copy before the queries

    const bool no_color = variant == "no-color";
    const nlohmann::ordered_json queries = run_queries(g, sources, no_color, predecessors);

    const long long graph_bytes = (n + 1) * static_cast<long long>(sizeof(ArcIndex)) +
                                  static_cast<long long>(arcs * (sizeof(VertexId) + sizeof(Weight)));
    long long state_bytes = n * static_cast<long long>(sizeof(Distance) + sizeof(std::size_t));
    if (!no_color) state_bytes += (n + 3) / 4;
    if (predecessors) state_bytes += n * static_cast<long long>(sizeof(VertexId));
    nlohmann::ordered_json out = {{"peer", "boost-graph " + ulibc::peers::boost_version()},
                                  {"variant", variant},
                                  {"predecessors", predecessors},
                                  {"vertices", n},
                                  {"arcs", arcs},
                                  {"graph_bytes", graph_bytes},
                                  {"state_bytes", state_bytes},
                                  {"peak_rss_bytes", ulibc::peers::peak_rss_bytes()},
                                  {"queries", queries}};
    std::printf("%s\n", out.dump(1).c_str());
    return 0;
  });
}
