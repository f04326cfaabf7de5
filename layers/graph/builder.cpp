// graph/builder.cpp — edge tuples to CSR: count, scan, scatter, sort, dedupe, compact.
//
// Memory: besides the input, one temporary cursor/offset array (vertices+1
// entries) and one temporary neighbour array (two arcs per tuple that is not
// a self-loop) live next to the final arrays, which are allocated only once
// the duplicates are gone; each thread also has a sorting scratch list as
// long as the longest neighbour list it sorts. The temporaries are not zeroed
// by the allocator (make_unique_for_overwrite) but first touched by the team;
// the final arrays are CsrGraph's std::vectors, zeroed by the calling thread.
//
// The scatter puts each list's arcs in an order that depends on the team, but
// the sort erases it: the graph does not depend on the number of threads.
#include "graph/builder.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <bit>
#include <cstddef>
#include <memory>
#include <numeric>
#include <span>
#include <vector>

#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

namespace ulibc::graph {
namespace {

int team_size(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

// The share of 0..n that thread `tid` of `team` takes: the same split in every pass that needs matching blocks.
IndexRange<std::int64_t> block_of(std::int64_t n, int tid, int team) {
  return even_share(IndexRange<std::int64_t>{0, n}, static_cast<std::size_t>(tid), static_cast<std::size_t>(team));
}

// Replaces a[i] by a[0] + ... + a[i-1] and returns the sum of all: each thread
// sums its block, one pass over the block sums gives each block's start, and
// each thread then scans its block from there.
EdgeIndex exclusive_scan(std::span<EdgeIndex> a, int threads) {
  const auto n = static_cast<std::int64_t>(a.size());
  std::vector<EdgeIndex> block_start(static_cast<std::size_t>(threads) + 1, 0);
  EdgeIndex total = 0;
#pragma omp parallel num_threads(threads)
  {
    const int team = omp_get_num_threads(), tid = omp_get_thread_num();
    const IndexRange<std::int64_t> blk = block_of(n, tid, team);
    EdgeIndex sum = 0;
    for (std::int64_t i = blk.begin; i < blk.end; ++i) sum += a[i];
    block_start[tid + 1] = sum;
#pragma omp barrier
#pragma omp single
    {
      for (int t = 0; t < team; ++t) block_start[t + 1] += block_start[t];
      total = block_start[team];
    }  // (the single's implied barrier publishes block_start)
    EdgeIndex running = block_start[tid];
    for (std::int64_t i = blk.begin; i < blk.end; ++i) {
      const EdgeIndex d = a[i];
      a[i] = running;
      running += d;
    }
  }
  return total;
}

// The first tuple (lowest index) with an id outside 0..n-1, or -1: the lowest
// so that the error names the same tuple whatever the team.
std::int64_t first_bad_tuple(const std::vector<Edge>& edges, std::int64_t n, int threads) {
  const auto m = static_cast<std::int64_t>(edges.size());
  std::int64_t first = m;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(min : first)
  for (std::int64_t i = 0; i < m; ++i) {
    const Edge e = edges[i];
    if (e.u < 0 || e.u >= n || e.v < 0 || e.v >= n) first = std::min(first, i);
  }
  return first == m ? -1 : first;
}

}  // namespace

// Sorts ids below 2^bits ascending. Lists of 64 ids or more take an LSD
// radix sort, one stable counting pass per byte of the ids through `scratch`:
// on Kronecker graphs, where most arcs sit in lists of hundreds to thousands,
// that made this phase three times faster than std::sort (SCALE 22). Shorter
// lists take std::sort, as clearing and scanning a pass's 256 counters would
// cost more than the list.
void sort_ids(std::span<Vertex> list, int bits, std::vector<Vertex>& scratch) {
  constexpr std::size_t kRadixMin = 64;
  if (list.size() < kRadixMin) {
    std::sort(list.begin(), list.end());
    return;
  }
  scratch.resize(std::max(scratch.size(), list.size()));
  std::span<Vertex> from = list, to{scratch.data(), list.size()};
  for (int shift = 0; shift < bits; shift += 8) {
    const auto digit = [shift](Vertex id) { return static_cast<std::uint32_t>(id) >> shift & 0xffu; };
    std::array<std::size_t, 257> start{};  // start[d+1] counts digit d, then start[d] is where d goes
    for (Vertex id : from) ++start[digit(id) + 1];
    std::partial_sum(start.begin(), start.end(), start.begin());
    for (Vertex id : from) to[start[digit(id)]++] = id;
    std::swap(from, to);
  }
  if (from.data() != list.data()) std::copy(from.begin(), from.end(), list.begin());
}

void check_edge_list(const EdgeList& input, int threads) {
  threads = team_size(threads);
  const std::int64_t n = input.vertices;
  if (n < 0 || n > kMaxVertices)
    throw input_error(fmt::format("edge list: {} vertices, outside the 0..{} that 32-bit ids allow", n, kMaxVertices));
  const std::int64_t i = first_bad_tuple(input.edges, n, threads);
  if (i < 0) return;
  const Edge e = input.edges[i];
  const Vertex bad = (e.u < 0 || e.u >= n) ? e.u : e.v;
  if (bad < 0) throw input_error(fmt::format("edge {}: vertex {} is negative", i, bad));
  throw input_error(n == 0 ? fmt::format("edge {}: vertex {} is beyond the 0 vertices (the graph has none)", i, bad)
                           : fmt::format("edge {}: vertex {} is beyond the {} vertices (ids 0..{})", i, bad, n, n - 1));
}

namespace {

// The arcs of every tuple but the self-loops, grouped by source vertex, each
// group in no particular order. On return end[v] is one past v's last arc and
// v's arcs start at end[v-1] (0 for v = 0); end has vertices+1 entries.
struct Scattered {
  std::unique_ptr<EdgeIndex[]> end;
  std::unique_ptr<Vertex[]> arcs;
  EdgeIndex self_loops = 0;
  EdgeIndex begin(std::int64_t v) const { return v == 0 ? 0 : end[v - 1]; }
};

// Returns counter c and advances it. A team shares the counters and takes
// them with atomic increments; a lone thread need not, and is then about
// twice as fast (an x86 locked add waits for the cache misses before it).
template <bool Shared>
EdgeIndex take(EdgeIndex& c) {
  if constexpr (Shared)
    return std::atomic_ref(c).fetch_add(1, std::memory_order_relaxed);
  else
    return c++;
}

template <bool Shared>
Scattered scatter_arcs(const EdgeList& input, int threads) {
  const std::int64_t n = input.vertices;
  const auto m = static_cast<std::int64_t>(input.edges.size());
  const Edge* edges = input.edges.data();
  Scattered s;
  s.end = std::make_unique_for_overwrite<EdgeIndex[]>(static_cast<std::size_t>(n) + 1);
  EdgeIndex* cursor = s.end.get();

#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t v = 0; v <= n; ++v) cursor[v] = 0;

  // Degrees (out-arcs per vertex). Relaxed increments: only the totals
  // matter, and the parallel region's end orders them before the scan.
  EdgeIndex loops = 0;
#pragma omp parallel for num_threads(threads) schedule(static) reduction(+ : loops)
  for (std::int64_t i = 0; i < m; ++i) {
    const Edge e = edges[i];
    if (e.u == e.v) {
      ++loops;
      continue;
    }
    take<Shared>(cursor[e.u]);
    take<Shared>(cursor[e.v]);
  }
  s.self_loops = loops;

  // cursor[v] becomes the start of v's group; the extra last entry (0) the total.
  const EdgeIndex arcs_total = exclusive_scan({cursor, static_cast<std::size_t>(n) + 1}, threads);
  s.arcs = std::make_unique_for_overwrite<Vertex[]>(static_cast<std::size_t>(arcs_total));
  Vertex* arcs = s.arcs.get();

  // Each arc claims the next slot of its source's group. A cursor that has
  // taken all its arcs rests at the start of the next group: end[v] as promised.
#pragma omp parallel for num_threads(threads) schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    const Edge e = edges[i];
    if (e.u == e.v) continue;
    arcs[take<Shared>(cursor[e.u])] = e.v;
    arcs[take<Shared>(cursor[e.v])] = e.u;
  }
  return s;
}

// Sorts each group and moves its distinct arcs to the group's front; degree[v]
// gets their number. Returns the number of distinct arcs. Dynamic chunks:
// Kronecker degrees are heavily skewed, so equal vertex counts are unequal work.
EdgeIndex sort_and_dedupe(Scattered& s, std::int64_t n, std::span<EdgeIndex> degree, int threads) {
  EdgeIndex distinct = 0;
  const int bits =
      n > 1 ? static_cast<int>(std::bit_width(static_cast<std::uint64_t>(n - 1))) : 0;  // of the largest id
#pragma omp parallel num_threads(threads) reduction(+ : distinct)
  {
    std::vector<Vertex> scratch;  // the radix sort's, grown to the longest list this thread sorts
#pragma omp for schedule(dynamic, 256)
    for (std::int64_t v = 0; v < n; ++v) {
      const std::span<Vertex> list(s.arcs.get() + s.begin(v), s.arcs.get() + s.end[v]);
      sort_ids(list, bits, scratch);
      degree[v] = std::unique(list.begin(), list.end()) - list.begin();
      distinct += degree[v];
    }
  }
  return distinct;
}

}  // namespace

CsrGraph build_undirected(const EdgeList& input, int threads, BuildReport* report) {
  const int team = team_size(threads);
  check_edge_list(input, team);
  const std::int64_t n = input.vertices;

  Scattered s = team > 1 ? scatter_arcs<true>(input, team) : scatter_arcs<false>(input, team);
  // offsets[v] holds v's distinct degree until the scan turns the array into offsets.
  std::vector<EdgeIndex> offsets(static_cast<std::size_t>(n) + 1, 0);
  const EdgeIndex distinct = sort_and_dedupe(s, n, offsets, team);
  exclusive_scan(offsets, team);

  std::vector<Vertex> neighbours(static_cast<std::size_t>(distinct));
#pragma omp parallel for num_threads(team) schedule(dynamic, 256)
  for (std::int64_t v = 0; v < n; ++v) {
    const Vertex* from = s.arcs.get() + s.begin(v);
    std::copy(from, from + (offsets[v + 1] - offsets[v]), neighbours.begin() + offsets[v]);
  }

  if (report) {
    // Each edge that survived left two distinct arcs; every other tuple that
    // was not a self-loop repeated an edge already counted.
    const auto tuples = static_cast<EdgeIndex>(input.edges.size());
    report->self_loops = s.self_loops;
    report->duplicates = tuples - s.self_loops - distinct / 2;
  }
  s = {};  // the temporaries go before the graph's checks walk the final arrays
  return CsrGraph(std::move(offsets), std::move(neighbours));
}

}  // namespace ulibc::graph
