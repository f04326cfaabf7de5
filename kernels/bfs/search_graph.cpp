// bfs/search_graph.cpp — the parts of a search: vertex ranges, teams, and
// each part's copy of its neighbour lists.
#include "bfs/search_graph.hpp"

#include <algorithm>
#include <bit>

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
  const NodePartition split(map, static_cast<std::size_t>(n), vertices_per_bitmap_page);
  first_.push_back(0);
  for (int k = 0; k < split.nodes(); ++k) first_.push_back(static_cast<Vertex>(split.node_range(k).end));
  const bool bound = map.policy().kind() != PolicyKind::none;  // under none threads run anywhere: first touch
  for (int k = 0; k < split.nodes(); ++k) node_.push_back(bound ? map.node_ids()[static_cast<std::size_t>(k)] : -1);
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

Interval Layout::word_slice(int t) const {
  return even_share(words_of(part_of(t)), static_cast<std::size_t>(rank(t)),
                    static_cast<std::size_t>(threads_of(part_of(t))));
}

std::vector<std::size_t> Layout::vertex_counts() const {
  std::vector<std::size_t> counts;
  for (int p = 0; p < parts(); ++p) counts.push_back(static_cast<std::size_t>(last(p) - first(p)));
  return counts;
}

std::vector<std::size_t> Layout::word_counts() const {
  std::vector<std::size_t> counts;
  for (int p = 0; p < parts(); ++p) counts.push_back(static_cast<std::size_t>(words_of(p).size()));
  return counts;
}

SearchGraph::SearchGraph(const CsrGraph& g, const Layout& layout, const Topology* topo) : arcs_(g.arcs()) {
  const auto& o = g.offsets();
  for (int p = 0; p < layout.parts(); ++p) {
    const std::vector<int> node{layout.node(p)};
    const auto arcs = static_cast<std::size_t>(o[static_cast<std::size_t>(layout.last(p))] -
                                               o[static_cast<std::size_t>(layout.first(p))]);
    const auto vertices = static_cast<std::size_t>(layout.last(p) - layout.first(p));
    offsets_.emplace_back(topo, std::vector<std::size_t>{vertices + 1}, node);
    neighbours_.emplace_back(topo, std::vector<std::size_t>{arcs}, node);
    top_.emplace_back(topo, std::vector<std::size_t>{vertices}, node);
    parts_.push_back({.first = layout.first(p),
                      .last = layout.last(p),
                      .offsets = offsets_.back().data(),
                      .neighbours = neighbours_.back().data(),
                      .top = top_.back().data()});
  }
  run_parallel(layout, [&](int t) { copy_slice(g, layout, t); });
}

namespace {

// Ascending keys order vertices by descending degree, then ascending id.
std::uint64_t by_degree_key(EdgeIndex degree, Vertex v) {
  constexpr std::uint64_t kMost = 0xffff'ffffu;  // a simple graph's degrees are below 2^31
  const auto capped = std::min(static_cast<std::uint64_t>(degree), kMost);
  return (kMost - capped) << 32 | static_cast<std::uint32_t>(v);
}

}  // namespace

// Thread t copies its share of its part's lists, split by arcs so that a
// few vertices of huge degree do not leave one thread all the sorting.
void SearchGraph::copy_slice(const CsrGraph& g, const Layout& layout, int t) {
  const int p = layout.part_of(t);
  const int k = layout.threads_of(p), r = layout.rank(t);
  const Vertex first = layout.first(p), last = layout.last(p);
  const EdgeIndex* o = g.offsets().data();
  const auto bound = [&](int rank) {
    if (rank == k) return last;
    const EdgeIndex arc = o[first] + (o[last] - o[first]) * rank / k;
    return static_cast<Vertex>(std::lower_bound(o + first, o + last, arc) - o);
  };
  auto* offsets = offsets_[static_cast<std::size_t>(p)].data();
  auto* neighbours = neighbours_[static_cast<std::size_t>(p)].data();
  auto* top = top_[static_cast<std::size_t>(p)].data();
  std::vector<std::uint64_t> keys;
  const Vertex end = bound(r + 1);
  for (Vertex v = bound(r); v < end; ++v) {
    offsets[v - first] = o[v] - o[first];
    // Sorting keys that hold the degree needs no look-up per comparison.
    keys.clear();
    for (const Vertex u : g.neighbours(v)) keys.push_back(by_degree_key(g.degree(u), u));
    std::sort(keys.begin(), keys.end());
    Vertex* copy = neighbours + (o[v] - o[first]);
    for (std::size_t i = 0; i < keys.size(); ++i) copy[i] = static_cast<Vertex>(keys[i] & 0xffff'ffffu);
    top[v - first] = keys.empty() ? 0 : copy[0];
  }
  if (r == k - 1) offsets[last - first] = o[last] - o[first];
}

std::size_t SearchGraph::bytes() const {
  std::size_t total = 0;
  for (const auto& a : offsets_) total += a.bytes();
  for (const auto& a : neighbours_) total += a.bytes();
  for (const auto& a : top_) total += a.bytes();
  return total;
}

}  // namespace ulibc::bfs::detail
