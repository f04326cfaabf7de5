// bfs/search_graph.cpp — the parts of a search: vertex ranges, teams, and
// each part's array of its neighbour lists, copied from a CSR graph or built
// from the tuples.
#include "bfs/search_graph.hpp"

#include <algorithm>
#include <atomic>
#include <bit>
#include <cstring>
#include <utility>

#include "ulibc/partition.hpp"

namespace ulibc::bfs::detail {

Layout::Layout(Vertex n, int threads)
    : n_(n), first_{0, n}, node_{-1}, part_of_(static_cast<std::size_t>(threads), 0), threads_of_{threads} {
  rank_.resize(part_of_.size());
  std::iota(rank_.begin(), rank_.end(), 0);
  index_owners(31);  // every Vertex >> 31 is 0: one table entry, part 0
}

Layout::Layout(Vertex n, const Mapping& map) : n_(n) {
  // A bitmap page holds page_size() * 8 vertices; that many int32 parents are 32 whole pages.
  const std::size_t vertices_per_bitmap_page = page_size() * 8;
  const NodePartition split(map, n, vertices_per_bitmap_page);
  first_.push_back(0);
  for (int k = 0; k < split.nodes(); ++k) first_.push_back(static_cast<Vertex>(split.node_range(k).end));
  const bool bound = map.policy().kind() != PolicyKind::none;  // under none threads run anywhere: first touch
  for (int k = 0; k < split.nodes(); ++k) node_.push_back(bound ? map.node_ids()[k] : -1);
  for (const Placement& p : map.threads()) {
    part_of_.push_back(p.node_index);
    rank_.push_back(p.ordcore);
  }
  threads_of_ = map.threads_per_node();
  index_owners(std::countr_zero(vertices_per_bitmap_page));
}

void Layout::index_owners(int shift) {
  shift_ = shift;
  owner_.assign(static_cast<std::size_t>(n_ >> shift) + 1, 0);
  for (int p = 0; p < parts(); ++p)
    if (last(p) > first(p))
      std::fill(owner_.begin() + (first(p) >> shift), owner_.begin() + ((last(p) - 1) >> shift) + 1, p);
}

std::vector<std::size_t> Layout::vertex_counts() const {
  std::vector<std::size_t> counts;
  for (int p = 0; p < parts(); ++p) counts.push_back(last(p) - first(p));
  return counts;
}

std::vector<std::size_t> Layout::word_counts() const {
  std::vector<std::size_t> counts;
  for (int p = 0; p < parts(); ++p) counts.push_back(words_of(p).size());
  return counts;
}

void SearchGraph::allocate(const Layout& layout, const Topology* topo) {
  for (int p = 0; p < layout.parts(); ++p) {
    const std::vector<int> node{layout.node(p)};
    const std::size_t vertices = layout.last(p) - layout.first(p);
    PartStore& part = store_.emplace_back(PartStore{.offsets = {topo, std::vector<std::size_t>{vertices + 1}, node},
                                                    .neighbours = {},
                                                    .top = {topo, std::vector<std::size_t>{vertices}, node}});
    parts_.push_back({.first = layout.first(p),
                      .last = layout.last(p),
                      .offsets = part.offsets.data(),
                      .neighbours = nullptr,
                      .top = part.top.data()});
  }
}

void SearchGraph::allocate_arcs(const Layout& layout, const Topology* topo, int p, std::size_t arcs) {
  store(p).neighbours = PartArray<Vertex>(topo, std::vector<std::size_t>{arcs}, std::vector<int>{layout.node(p)});
  view(p).neighbours = store(p).neighbours.data();
}

SearchGraph::SearchGraph(const CsrGraph& g, const Layout& layout, const Topology* topo) : arcs_(g.arcs()) {
  const EdgeIndex* o = g.offsets().data();
  allocate(layout, topo);
  for (int p = 0; p < layout.parts(); ++p) allocate_arcs(layout, topo, p, o[layout.last(p)] - o[layout.first(p)]);
  run_parallel(layout, [&](int t) { copy_slice(g, layout, t); });
  run_parallel(layout, [&](int t) { order_slice(layout, t); });
}

namespace {

// Ascending keys order vertices by descending degree, then ascending id.
std::uint64_t by_degree_key(EdgeIndex degree, Vertex v) {
  constexpr std::uint64_t kMost = 0xffff'ffffu;  // a simple graph's degrees are below 2^31
  const auto capped = std::min(static_cast<std::uint64_t>(degree), kMost);
  return (kMost - capped) << 32 | static_cast<std::uint32_t>(v);
}

// The first list (counted from the part's first vertex) of rank's share of
// a part's `vertices` lists: shares of about equal arcs, so that a few
// vertices of huge degree do not leave one thread all the sorting. List i
// ends at end[i] and starts at end[i - 1] (at `base` for i = 0).
std::int64_t share_start(const EdgeIndex* end, EdgeIndex base, std::int64_t vertices, int rank, int ranks) {
  if (rank == 0) return 0;
  if (rank == ranks) return vertices;
  const EdgeIndex total = vertices > 0 ? end[vertices - 1] - base : 0;
  const EdgeIndex arc = base + total * rank / ranks;
  // The first list starting at or after `arc`: one past the first end at or after it.
  const std::int64_t i = std::lower_bound(end, end + vertices, arc) - end;
  return std::min(i + 1, vertices);
}

}  // namespace

// Thread t copies its share of its part's lists, in id order.
void SearchGraph::copy_slice(const CsrGraph& g, const Layout& layout, int t) {
  const int p = layout.part_of(t);
  const int k = layout.threads_of(p), r = layout.rank(t);
  const Vertex first = layout.first(p), last = layout.last(p);
  const EdgeIndex* o = g.offsets().data();
  const std::int64_t begin = share_start(o + first + 1, o[first], last - first, r, k);
  const std::int64_t end = share_start(o + first + 1, o[first], last - first, r + 1, k);
  auto* offsets = store(p).offsets.data();
  auto* neighbours = store(p).neighbours.data();
  for (std::int64_t i = begin; i < end; ++i) {
    const Vertex v = static_cast<Vertex>(first + i);
    offsets[i] = o[v] - o[first];
    const std::span<const Vertex> list = g.neighbours(v);
    std::copy(list.begin(), list.end(), neighbours + offsets[i]);
  }
  if (r == k - 1) offsets[last - first] = o[last] - o[first];
}

// Thread t orders its share of its part's lists by descending neighbour
// degree (ties by id) and records each list's first, its top neighbour.
void SearchGraph::order_slice(const Layout& layout, int t) {
  const int p = layout.part_of(t);
  const int k = layout.threads_of(p), r = layout.rank(t);
  const GraphPart& part = view(p);
  const std::int64_t vertices = part.last - part.first;
  const std::int64_t begin = share_start(part.offsets + 1, 0, vertices, r, k);
  const std::int64_t end = share_start(part.offsets + 1, 0, vertices, r + 1, k);
  auto* neighbours = store(p).neighbours.data();
  auto* top = store(p).top.data();
  std::vector<std::uint64_t> keys;
  for (std::int64_t i = begin; i < end; ++i) {
    Vertex* list = neighbours + part.offsets[i];
    const std::size_t degree = part.offsets[i + 1] - part.offsets[i];
    // Sorting keys that hold the degree needs no look-up per comparison.
    keys.clear();
    for (std::size_t j = 0; j < degree; ++j)
      keys.push_back(by_degree_key(view(layout.owner(list[j])).degree(list[j]), list[j]));
    std::sort(keys.begin(), keys.end());
    for (std::size_t j = 0; j < degree; ++j) list[j] = static_cast<Vertex>(keys[j] & 0xffff'ffffu);
    top[i] = degree == 0 ? 0 : list[0];
  }
}

// The tuples' arcs placed straight into the parts (GAP's builder, per part): count each vertex's arcs, place them,
// sort and dedupe each list, close up the room the duplicates took, order each list by its neighbours' degrees.
SearchGraph::SearchGraph(const graph::Tuples& tuples, const Layout& layout, const Topology* topo,
                         graph::BuildReport* report) {
  if (const graph::EdgeList* list = tuples.list()) graph::check_edge_list(*list, layout.threads());
  allocate(layout, topo);
  const EdgeIndex loops = count_arcs(tuples, layout);
  place_arcs(tuples, layout, topo);
  close_up(layout, dedupe_lists(layout));
  run_parallel(layout, [&](int t) { order_slice(layout, t); });
  if (report) {
    // Each edge that survived left two distinct arcs; every other tuple that
    // was not a self-loop repeated an edge already counted.
    report->self_loops = loops;
    report->duplicates = tuples.size() - loops - arcs_ / 2;
  }
}

// Thread t's share of the tuples.
Interval SearchGraph::tuple_share(const graph::Tuples& tuples, const Layout& layout, int t) {
  return even_share(Interval{0, tuples.size()}, t, layout.threads());
}

// Vertex v's counter, then its cursor, in its part's offsets array; take() hands out its next slot.
EdgeIndex& SearchGraph::counter(const Layout& layout, Vertex v) {
  const int p = layout.owner(v);
  return store(p).offsets[v - layout.first(p)];
}

EdgeIndex SearchGraph::take(const Layout& layout, Vertex v) {
  EdgeIndex& c = counter(layout, v);
  return layout.threads() > 1 ? std::atomic_ref(c).fetch_add(1, std::memory_order_relaxed) : c++;
}

// Each part's counters zeroed by its own threads (first touch), then the arcs of every tuple but the self-loops
// counted. Returns the self-loops.
EdgeIndex SearchGraph::count_arcs(const graph::Tuples& tuples, const Layout& layout) {
  run_parallel(layout, [&](int t) {
    const int p = layout.part_of(t);
    const Interval share = layout.slice(Interval{0, layout.last(p) - layout.first(p) + 1}, t);
    std::fill(store(p).offsets.data() + share.begin, store(p).offsets.data() + share.end, EdgeIndex{0});
  });
  std::atomic<EdgeIndex> loops{0};
  run_parallel(layout, [&](int t) {
    const Interval share = tuple_share(tuples, layout, t);
    EdgeIndex mine = 0;
    tuples.for_each(share.begin, share.end, [&](std::int64_t, graph::Edge e) {
      if (e.u == e.v) {
        ++mine;
        return;
      }
      take(layout, e.u);
      take(layout, e.v);
    });
    loops.fetch_add(mine, std::memory_order_relaxed);
  });
  return loops.load();
}

// Counts to starts (each part's extra last entry, 0, becomes its total); the arrays sized by them; then every arc
// claims the next slot of its source's list. A cursor that has taken all its arcs rests at the start of the next
// list: afterwards entry i is where list i ends.
void SearchGraph::place_arcs(const graph::Tuples& tuples, const Layout& layout, const Topology* topo) {
  for (int p = 0; p < layout.parts(); ++p) {
    EdgeIndex* o = store(p).offsets.data();
    EdgeIndex running = 0;
    for (std::int64_t i = 0; i <= layout.last(p) - layout.first(p); ++i) running += std::exchange(o[i], running);
    allocate_arcs(layout, topo, p, running);
  }
  run_parallel(layout, [&](int t) {
    const Interval share = tuple_share(tuples, layout, t);
    tuples.for_each(share.begin, share.end, [&](std::int64_t, graph::Edge e) {
      if (e.u == e.v) return;
      store(layout.owner(e.u)).neighbours[take(layout, e.u)] = e.v;
      store(layout.owner(e.v)).neighbours[take(layout, e.v)] = e.u;
    });
  });
}

// What one thread kept of its share of a part's lists: where they start and how many distinct arcs they hold.
struct SearchGraph::ListShare {
  std::int64_t first = 0;  // the share's first list (from the part's first vertex)
  EdgeIndex from = 0, length = 0;
};

// Each thread sorts its share of its part's lists by id and closes up the distinct arcs at the front of its share;
// the list's length goes to top for the while.
std::vector<SearchGraph::ListShare> SearchGraph::dedupe_lists(const Layout& layout) {
  std::vector<ListShare> shares(layout.threads());
  const int bits =
      layout.vertices() > 1 ? static_cast<int>(std::bit_width(static_cast<std::uint64_t>(layout.vertices() - 1))) : 0;
  run_parallel(layout, [&](int t) {
    const int p = layout.part_of(t);
    const int k = layout.threads_of(p), r = layout.rank(t);
    const std::int64_t vertices = layout.last(p) - layout.first(p);
    const EdgeIndex* end = store(p).offsets.data();
    Vertex* arcs = store(p).neighbours.data();
    Vertex* top = store(p).top.data();
    const std::int64_t begin = share_start(end, 0, vertices, r, k), stop = share_start(end, 0, vertices, r + 1, k);
    ListShare& mine = shares[t];
    mine.first = begin;
    mine.from = begin == 0 ? 0 : end[begin - 1];
    EdgeIndex out = mine.from;
    std::vector<Vertex> scratch;
    for (std::int64_t i = begin; i < stop; ++i) {
      const EdgeIndex from = i == 0 ? 0 : end[i - 1];
      const std::span<Vertex> list(arcs + from, end[i] - from);
      graph::sort_ids(list, bits, scratch);
      const EdgeIndex before = out;
      Vertex last = -1;  // ids are never negative
      for (const Vertex v : list)
        if (v != last) arcs[out++] = last = v;     // out never passes the list's own position
      top[i] = static_cast<Vertex>(out - before);  // below 2^31: a simple graph on 32-bit ids
    }
    mine.length = out - mine.from;
  });
  return shares;
}

// Per part, the lists' final offsets from their lengths, then the shares, in rank order, moved down to their final
// places: each lands below the next one's start.
void SearchGraph::close_up(const Layout& layout, const std::vector<ListShare>& shares) {
  std::vector<int> by_rank(layout.threads());
  for (int p = 0; p < layout.parts(); ++p) {
    const std::int64_t vertices = layout.last(p) - layout.first(p);
    EdgeIndex* o = store(p).offsets.data();
    const Vertex* degree = store(p).top.data();
    EdgeIndex running = 0;
    for (std::int64_t i = 0; i < vertices; ++i) {
      o[i] = running;
      running += degree[i];
    }
    o[vertices] = running;
    arcs_ += running;
    Vertex* arcs = store(p).neighbours.data();
    for (int t = 0; t < layout.threads(); ++t)
      if (layout.part_of(t) == p) by_rank[layout.rank(t)] = t;
    for (int r = 0; r < layout.threads_of(p); ++r) {
      const ListShare& s = shares[by_rank[r]];
      if (s.length > 0 && o[s.first] != s.from)
        std::memmove(arcs + o[s.first], arcs + s.from, s.length * sizeof(Vertex));
    }
    // The room the duplicates took goes back.
    store(p).neighbours.shrink(running);
    view(p).neighbours = store(p).neighbours.data();
  }
}

std::size_t SearchGraph::bytes() const {
  std::size_t total = 0;
  for (const PartStore& part : store_) total += part.offsets.bytes() + part.neighbours.bytes() + part.top.bytes();
  return total;
}

}  // namespace ulibc::bfs::detail
