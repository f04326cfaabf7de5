// bfs/search_graph.hpp — how the BFS kernels lay a graph and its search
// state out over a team: the vertex range cut into parts, which threads work
// on which part, arrays split at the part boundaries with each part on its
// node, and each part's own array of its vertices' neighbour lists.
//
// The plain kernel is the one-part case of the NUMA kernel: one part for
// the whole team, memory placed by first touch. Both then run the same code.
// Internal to the BFS kernels (bfs.cpp); not part of the bfs.hpp contract.
#pragma once
#include <omp.h>

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <span>
#include <vector>

#include "bfs/frontier.hpp"
#include "graph/builder.hpp"
#include "graph/csr_graph.hpp"
#include "graph/tuples.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/memory.hpp"
#include "ulibc/range.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::bfs::detail {

using graph::CsrGraph;
using graph::EdgeIndex;

// [begin, end) of vertices, words or positions: the library's half-open range, in the kernel's signed indices.
using Interval = IndexRange<std::int64_t>;

// Which vertices each part holds, where its memory goes, and which threads
// work on it.
class Layout {
 public:
  // The plain kernel: one part, threads 0..threads-1 with ranks 0..threads-1,
  // memory placed by first touch.
  Layout(Vertex n, int threads);
  // The NUMA kernel: part k is the mapping's node index k, its range from
  // NodePartition in proportion to the node's threads; thread t works on
  // part map[t].node_index with rank map[t].ordcore. Part boundaries are
  // multiples of the vertices of one bitmap page (32768 with 4 KiB pages),
  // so that every per-vertex array, bitmaps included, splits at whole pages.
  Layout(Vertex n, const Mapping& map);

  Vertex vertices() const { return n_; }
  int parts() const { return static_cast<int>(first_.size()) - 1; }
  Vertex first(int p) const { return first_[p]; }
  Vertex last(int p) const { return first_[p + 1]; }
  // The bitmap words of part p (the last one may end in bits beyond n).
  Interval words_of(int p) const { return {word_of(first(p)), words_for(last(p))}; }
  // The OS node part p's memory is bound to; -1: placed by first touch.
  int node(int p) const { return node_[p]; }
  // The part holding v: a table lookup, since boundaries are multiples of 2^shift.
  int owner(Vertex v) const { return owner_[v >> shift_]; }

  int threads() const { return static_cast<int>(part_of_.size()); }
  int part_of(int t) const { return part_of_[t]; }
  int rank(int t) const { return rank_[t]; }
  int threads_of(int p) const { return threads_of_[p]; }
  // Thread t's equal share of `whole`, a range of its part, among the part's threads.
  Interval slice(Interval whole, int t) const { return even_share(whole, rank(t), threads_of(part_of(t))); }
  // Thread t's equal share of its part's words, for work split statically
  // (initialisation, first touch).
  Interval word_slice(int t) const { return slice(words_of(part_of(t)), t); }
  // Elements per part of a per-vertex array and of a bitmap, and the parts'
  // nodes: a PartArray's arguments.
  std::vector<std::size_t> vertex_counts() const;
  std::vector<std::size_t> word_counts() const;
  const std::vector<int>& nodes() const { return node_; }

 private:
  void index_owners(int shift);

  Vertex n_ = 0;
  std::vector<Vertex> first_;  // parts() + 1 boundaries
  std::vector<int> node_;
  int shift_ = 31;
  std::vector<int> owner_;
  std::vector<int> part_of_, rank_, threads_of_;
};

// An array of T in consecutive parts, part p of counts[p] elements: given
// a topology, one mapping whose part p is bound to nodes[p] (allocate_parts;
// -1 leaves it to first touch); without, one mapping that the first touch
// places. Page-aligned either way: no cache line straddles two threads'
// chunks of a bitmap. An array of a huge page or more whose parts split at
// huge pages asks for transparent huge pages: a search reads the graph and
// the per-vertex state at random, and with base pages many of those reads
// also missed the TLB (the plain kernel's searches took 4-5% less time on
// huge pages at SCALE 20 on 2 threads).
template <class T>
class PartArray {
 public:
  PartArray() = default;
  PartArray(const Topology* topo, const std::vector<std::size_t>& counts, const std::vector<int>& nodes)
      : size_(std::accumulate(counts.begin(), counts.end(), std::size_t{0})) {
    if (size_ == 0) return;  // nothing to place (and the allocators refuse 0 bytes)
    const MemOptions opts{.pages = page_kind(counts)};
    if (!topo) {
      numa_ = allocate_first_touch(size_ * sizeof(T), opts);
    } else {
      std::vector<MemPart> parts;
      for (std::size_t p = 0; p < counts.size(); ++p)
        parts.push_back({.bytes = counts[p] * sizeof(T), .node = nodes[p]});
      numa_ = allocate_parts(*topo, parts, opts);
    }
    data_ = static_cast<T*>(numa_.data());
  }

  // Keeps the first `count` elements (count <= size()) and gives the whole
  // pages beyond back. bytes() counts what is still held.
  void shrink(std::size_t count) {
    if (count >= size_ || count == 0) return;
    numa_.shrink(count * sizeof(T));
    size_ = count;
  }

  T* data() const { return data_; }
  T& operator[](std::int64_t i) const { return data_[i]; }
  std::size_t size() const { return size_; }
  std::size_t bytes() const { return size_ * sizeof(T); }

 private:
  static PageKind page_kind(const std::vector<std::size_t>& counts) {
    const std::size_t huge = page_granule(PageKind::transparent_huge);
    std::size_t total = 0;
    for (std::size_t p = 0; p < counts.size(); ++p) {
      if (p + 1 < counts.size() && counts[p] * sizeof(T) % huge != 0) return PageKind::normal;
      total += counts[p] * sizeof(T);
    }
    return total >= huge ? PageKind::transparent_huge : PageKind::normal;
  }

  std::size_t size_ = 0;
  T* data_ = nullptr;
  NumaBuffer numa_;
};

// One part's vertices [first, last) and their neighbour lists.
struct GraphPart {
  Vertex first = 0;
  Vertex last = 0;
  const EdgeIndex* offsets = nullptr;  // last - first + 1 entries, indexed v - first
  const Vertex* neighbours = nullptr;
  // Each vertex's first neighbour (of the highest degree), also in an array
  // of its own, indexed v - first: a bottom-up step checks it first, reading
  // this array in vertex order instead of touching every vertex's list (a
  // cache miss each), and it is usually the parent. Unused for degree 0.
  const Vertex* top = nullptr;

  EdgeIndex degree(Vertex v) const { return offsets[v - first + 1] - offsets[v - first]; }
  std::span<const Vertex> neighbours_of(Vertex v) const {
    const EdgeIndex* o = offsets + (v - first);
    return {neighbours + o[0], static_cast<std::size_t>(o[1] - o[0])};
  }
};

// The graph as the search reads it: a list of parts, each with its own
// array of its vertices' lists on its node (placed by first touch without a
// topology), every list ordered by descending neighbour degree, ties by id:
// a bottom-up step stops at the first neighbour in the frontier, and the
// frontier is where the high-degree vertices are (Yasui & Fujisawa). On
// Kronecker graphs at 2 threads that made the plain kernel 5-20% faster
// than searching an id-ordered CSR.
//
// Made either from a CsrGraph (a copy of its lists, reordered) or straight
// from the tuples, which are then read twice and never held: a pass counts
// each vertex's arcs, a second scatters them into the parts' arrays, each
// list is sorted by id and deduplicated in place (self-loops dropped, as
// graph/builder.hpp does), the lists are closed up and then reordered by
// degree. The arrays are never copied, so the arcs exist once. The whole
// pages of the room the duplicates took (a few percent on Kronecker graphs)
// go back to the system.
class SearchGraph {
 public:
  SearchGraph(const CsrGraph& g, const Layout& layout, const Topology* topo);
  // Error(input) as graph::check_edge_list for an edge list with an id out of
  // range; layout.vertices() must be tuples.vertices(). `report` (optional)
  // gets the self-loops and duplicates dropped.
  SearchGraph(const graph::Tuples& tuples, const Layout& layout, const Topology* topo,
              graph::BuildReport* report = nullptr);

  const GraphPart& part(int p) const { return parts_[p]; }
  EdgeIndex arcs() const { return arcs_; }
  std::size_t bytes() const;  // of the parts' arrays, as allocated

 private:
  void allocate(const Layout& layout, const Topology* topo);
  void allocate_arcs(const Layout& layout, const Topology* topo, int p, std::size_t arcs);
  void copy_slice(const CsrGraph& g, const Layout& layout, int thread);
  void order_slice(const Layout& layout, int thread);
  // The phases of the constructor from tuples, in order.
  struct ListShare;
  EdgeIndex count_arcs(const graph::Tuples& tuples, const Layout& layout);
  void place_arcs(const graph::Tuples& tuples, const Layout& layout, const Topology* topo);
  std::vector<ListShare> dedupe_lists(const Layout& layout);
  void close_up(const Layout& layout, const std::vector<ListShare>& shares);
  static Interval tuple_share(const graph::Tuples& tuples, const Layout& layout, int thread);
  EdgeIndex& counter(const Layout& layout, Vertex v);
  EdgeIndex take(const Layout& layout, Vertex v);

  // A part's arrays, on its node; parts_ holds the views of them that the searches read.
  struct PartStore {
    PartArray<EdgeIndex> offsets;
    PartArray<Vertex> neighbours, top;
  };
  // Part p (numbered as Layout numbers parts): its arrays and its view.
  PartStore& store(int p) { return store_[p]; }
  GraphPart& view(int p) { return parts_[p]; }

  EdgeIndex arcs_ = 0;
  std::vector<GraphPart> parts_;
  std::vector<PartStore> store_;
};

// Runs body(thread) on an OpenMP team of layout.threads(). Error(input)
// when the runtime gives fewer threads (OMP_THREAD_LIMIT, OMP_DYNAMIC, a
// nested region): a part whose threads are missing would go undone.
template <class Body>
void run_parallel(const Layout& layout, Body&& body) {
  const int threads = layout.threads();
  int team = threads;
#pragma omp parallel num_threads(threads)
  {
    // Every member sees the same team size, so all skip together: no barrier inside waits for a missing one.
    if (omp_get_num_threads() == threads) {
      body(omp_get_thread_num());
    } else if (omp_get_thread_num() == 0) {
      team = omp_get_num_threads();
    }
  }
  ulibc::check_openmp_team_size(threads, team);
}

}  // namespace ulibc::bfs::detail
