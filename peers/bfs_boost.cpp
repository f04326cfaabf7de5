// peers/bfs_boost.cpp — the Boost Graph Library's breadth_first_search on
// the graph `ulibc bench bfs` searches: the BGL peer of the Graph500 BFS
// comparison (peers/bfs_vs_peers.py).
//
// The edge list (SNAP-style text or ULIBC's binary, read by
// ulibc::graph::read_edges) becomes the undirected graph ULIBC's builder
// (graph/builder.hpp) makes: both arcs of every edge, self-loops and duplicate tuples dropped
// ({u,v} and {v,u} are one edge), neighbours ascending. It is held in a
// boost::compressed_sparse_row_graph<directedS> with 32-bit vertex ids and
// 64-bit edge positions (ULIBC's and GAP's widths), built from the sorted
// arcs. Dropping duplicates gives BGL the same arcs to scan as ULIBC and GAP
// (GAP squishes them too); BGL's CSR would hold them, at the cost of extra
// examined edges.
//
// For each root, in the order given, one timed search as a user of BGL
// writes it: a parent array of num_vertices entries allocated and filled
// with "none", parent[root] = root, then breadth_first_search with a
// visitor recording each tree edge's source as its target's parent; BGL
// allocates and whitens its own two-bit colour map and queue inside the
// call. The timer covers all of it (the parent array's allocation and
// initialisation included, as GAP's DOBFS does its own). BGL's BFS is
// sequential: one thread, whatever OMP_NUM_THREADS says.
//
// Output (stdout), JSON:
//   {"peer": "boost-graph 1.74.0", "vertices": n, "input_edges": tuples read,
//    "arcs": arcs stored, "graph_bytes": b, "state_bytes": b, "peak_rss_bytes": b,
//    "searches": [{"root": r, "seconds": s, "reached": k}, ...]}
// graph_bytes is the CSR's two arrays, (n + 1) x 8 bytes of row starts and
// arcs x 4 bytes of column indices (BGL's vectors may hold a little more
// capacity); state_bytes is one search's parent array (n x 4) and colour map
// (n / 4), not counting the queue (a std::deque of at most n x 4 bytes).
// peak_rss_bytes is the process's peak resident set (VmHWM of /proc/self/status;
// -1 where there is none), graph construction included.
//
// usage: ulibc_peer_bfs_boost GRAPH (--roots FILE | --root V ...)
// Exit status 2 for bad input: an unreadable or malformed graph, a root
// outside 0..n-1 or not a number, no roots.
#include <algorithm>
#include <boost/graph/breadth_first_search.hpp>
#include <boost/graph/compressed_sparse_row_graph.hpp>
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
#include "graph/builder.hpp"
#include "graph/edge_io.hpp"
#include "harness/options.hpp"
#include "ulibc/error.hpp"

namespace {

using VertexId = std::uint32_t;
using ArcIndex = std::uint64_t;
using Graph = boost::compressed_sparse_row_graph<boost::directedS, boost::no_property, boost::no_property,
                                                 boost::no_property, VertexId, ArcIndex>;
constexpr VertexId kNone = std::numeric_limits<VertexId>::max();

struct HeadOf {
  const ulibc::graph::CsrGraph* g;
  VertexId operator()(ArcIndex arc) const { return static_cast<VertexId>(g->neighbour_array()[arc]); }
};
using ArcIterator = ulibc::peers::CsrArcIterator<VertexId, ArcIndex, HeadOf>;

std::vector<std::int64_t> read_root_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw ulibc::input_error(path + ": cannot open the roots file");
  std::vector<std::int64_t> roots;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    const auto first = line.find_first_not_of(" \t\r");
    if (first == std::string::npos || line[first] == '#') continue;
    std::size_t used = 0;
    std::int64_t r = 0;
    try {
      r = std::stoll(line.substr(first), &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || line.find_first_not_of(" \t\r", first + used) != std::string::npos)
      throw ulibc::input_error(path + ":" + std::to_string(number) + ": expected one vertex id, got \"" + line + "\"");
    roots.push_back(r);
  }
  return roots;
}

}  // namespace

int main(int argc, char** argv) {
  std::string graph_path, roots_path;
  std::vector<std::int64_t> root_options;
  const auto stop = ulibc::harness::parse_program(
      "The Boost Graph Library's breadth_first_search from each root, timed (JSON on stdout)", argc, argv,
      [&](ulibc::harness::Options& o) {
        o.add("graph", graph_path, "Edge list: SNAP-style text or ULIBC binary (docs/GRAPH_FORMAT.md)").required();
        o.add("--roots", roots_path, "File of roots, one vertex id per line");
        o.add("--root", root_options, "A root (repeatable)").excludes("--roots");
      });
  if (stop) return *stop;

  return ulibc::peers::run_reporting_errors("ulibc_peer_bfs_boost", [&] {
    std::vector<std::int64_t> roots = roots_path.empty() ? root_options : read_root_file(roots_path);
    if (roots.empty()) throw ulibc::input_error("no roots: give --roots FILE or --root V");

    ulibc::graph::EdgeList input = ulibc::graph::read_edges(graph_path);
    const long long n = input.vertices;
    const long long input_edges = static_cast<long long>(input.edges.size());
    for (const std::int64_t r : roots)
      if (r < 0 || r >= n)
        throw ulibc::input_error("root " + std::to_string(r) + " outside the graph's vertices 0.." +
                                 std::to_string(n - 1));

    // ULIBC's builder makes the rows (one thread: building is not timed).
    ulibc::graph::CsrGraph rows = ulibc::graph::build_undirected(input, 1);
    input = {};  // the tuples are no longer needed: free them before BGL copies the rows
    const auto arcs = static_cast<ArcIndex>(rows.arcs());
    Graph g(boost::edges_are_sorted, ArcIterator(rows.offsets(), 0, {&rows}),
            ArcIterator(rows.offsets(), arcs, {&rows}), static_cast<VertexId>(n), arcs);
    rows = {};

    nlohmann::ordered_json searches = nlohmann::ordered_json::array();
    for (const std::int64_t r : roots) {
      const auto root = static_cast<VertexId>(r);
      const auto t0 = std::chrono::steady_clock::now();
      std::vector<VertexId> parent(num_vertices(g), kNone);
      parent[root] = root;
      boost::breadth_first_search(
          g, root,
          boost::visitor(boost::make_bfs_visitor(boost::record_predecessors(parent.data(), boost::on_tree_edge()))));
      const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
      const long long reached = std::count_if(parent.begin(), parent.end(), [](VertexId p) { return p != kNone; });
      searches.push_back({{"root", r}, {"seconds", seconds}, {"reached", reached}});
    }

    const long long graph_bytes = (n + 1) * static_cast<long long>(sizeof(ArcIndex)) +
                                  static_cast<long long>(arcs) * static_cast<long long>(sizeof(VertexId));
    const long long state_bytes = n * static_cast<long long>(sizeof(VertexId)) + (n + 3) / 4;
    nlohmann::ordered_json out = {{"peer", "boost-graph " + ulibc::peers::boost_version()},
                                  {"vertices", n},
                                  {"input_edges", input_edges},
                                  {"arcs", arcs},
                                  {"graph_bytes", graph_bytes},
                                  {"state_bytes", state_bytes},
                                  {"peak_rss_bytes", ulibc::peers::peak_rss_bytes()},
                                  {"searches", searches}};
    std::printf("%s\n", out.dump(1).c_str());
    return 0;
  });
}
