// bfs/distributed/block_graph.cpp — kernel 1 across ranks: tuples drawn per rank, arcs sent to their blocks.
#include "bfs/distributed/block_graph.hpp"

#include <omp.h>

#include <algorithm>
#include <atomic>
#include <numeric>

#include "ulibc/range.hpp"

namespace ulibc::bfs::distributed {

// An arc as its block holds it: the target's row index and the source's column index.
struct BlockGraph::Arc {
  std::uint32_t target_row;
  std::uint32_t source_col;
};

namespace {

// Lists keyed 0..keys-1 from pairs (key, value), in two passes over them, each list then sorted ascending.
// each(f) calls f(key, value) for every pair from inside its own OpenMP loop, several threads at once.
template <class Each>
Lists bucket(std::int64_t keys, int threads, Each each) {
  Lists l;
  l.offsets.assign(static_cast<std::size_t>(keys) + 1, 0);
  EdgeIndex* count = l.offsets.data() + 1;
  each([&](std::int64_t key, std::uint32_t) {
    std::atomic_ref<EdgeIndex>(count[key]).fetch_add(1, std::memory_order_relaxed);
  });
  std::inclusive_scan(l.offsets.begin(), l.offsets.end(), l.offsets.begin());
  l.ids.resize(static_cast<std::size_t>(l.offsets.back()));
  std::vector<EdgeIndex> cursor(l.offsets.begin(), l.offsets.end() - 1);
  each([&](std::int64_t key, std::uint32_t value) {
    l.ids[std::atomic_ref<EdgeIndex>(cursor[key]).fetch_add(1, std::memory_order_relaxed)] = value;
  });
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (std::int64_t k = 0; k < keys; ++k) std::sort(l.ids.begin() + l.offsets[k], l.ids.begin() + l.offsets[k + 1]);
  return l;
}

// The lists without repeated ids, closed up; returns how many ids went.
EdgeIndex drop_repeats(Lists& l, int threads) {
  const auto keys = static_cast<std::int64_t>(l.offsets.size()) - 1;
  std::vector<EdgeIndex> kept(static_cast<std::size_t>(keys) + 1, 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (std::int64_t k = 0; k < keys; ++k) {
    const auto begin = l.ids.begin() + l.offsets[k];
    kept[k + 1] = std::unique(begin, l.ids.begin() + l.offsets[k + 1]) - begin;
  }
  std::inclusive_scan(kept.begin(), kept.end(), kept.begin());
  std::vector<std::uint32_t> ids(static_cast<std::size_t>(kept.back()));
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (std::int64_t k = 0; k < keys; ++k)
    std::copy_n(l.ids.begin() + l.offsets[k], kept[k + 1] - kept[k], ids.begin() + kept[k]);
  const EdgeIndex dropped = static_cast<EdgeIndex>(l.ids.size()) - kept.back();
  l.ids = std::move(ids);
  l.offsets = std::move(kept);
  return dropped;
}

}  // namespace

std::vector<IndexRange<std::int64_t>> tuple_rounds(std::int64_t tuples, const Grid& grid) {
  const std::int64_t ranks = grid.ranks();
  const auto share = even_share(IndexRange<std::int64_t>{0, tuples}, static_cast<std::size_t>(grid.rank()),
                                static_cast<std::size_t>(ranks));
  const std::int64_t rounds = ((tuples + ranks - 1) / ranks + kRoundTuples - 1) / kRoundTuples;
  std::vector<IndexRange<std::int64_t>> out;
  for (std::int64_t r = 0; r < rounds; ++r) {
    const std::int64_t begin = std::min(share.end, share.begin + r * kRoundTuples);
    out.push_back({begin, std::min(share.end, begin + kRoundTuples)});
  }
  return out;
}

BlockGraph::BlockGraph(const graph::Tuples& tuples, const Grid& grid, int threads, graph::BuildReport* report) {
  if (const graph::EdgeList* list = tuples.list()) graph::check_edge_list(*list, threads);
  graph::BuildReport mine;
  index_by_target(receive_arcs(tuples, grid, threads, mine), grid, threads, mine);
  index_by_source(grid, threads);
  sum_degrees(grid);
  order_sources(column_degrees(grid), threads);
  std::int64_t totals[] = {local_arcs(), mine.self_loops, mine.duplicates};
  sum_in_place(totals, grid.world(), traffic_);
  arcs_ = totals[0];
  // Each duplicate tuple left two arcs behind, on the blocks of its two directions.
  if (report) *report = {.self_loops = totals[1], .duplicates = totals[2] / 2};
}

std::vector<BlockGraph::Arc> BlockGraph::receive_arcs(const graph::Tuples& tuples, const Grid& grid, int threads,
                                                      graph::BuildReport& report) {
  const std::int64_t ranks = grid.ranks();
  const std::vector<IndexRange<std::int64_t>> rounds = tuple_rounds(tuples.size(), grid);
  std::vector<Arc> arcs;
  arcs.reserve(static_cast<std::size_t>(2 * (rounds.empty() ? 0 : rounds.back().end - rounds.front().begin)));
  const auto arc = [&](Vertex from, Vertex to) -> std::pair<int, Arc> {
    const int to_owner = grid.owner(to), to_row = grid.row_of(to_owner);
    const int block = grid.rank_at(to_row, grid.col_of(grid.owner(from)));
    const Vertex row_first = grid.first(grid.rank_at(to_row, 0));
    return {block, Arc{static_cast<std::uint32_t>(to - row_first), static_cast<std::uint32_t>(grid.col_index(from))}};
  };
  std::vector<std::vector<std::vector<Arc>>> drawn(static_cast<std::size_t>(threads),
                                                   std::vector<std::vector<Arc>>(static_cast<std::size_t>(ranks)));
  for (const IndexRange<std::int64_t> round : rounds) {
    const std::int64_t begin = round.begin, end = round.end;
    EdgeIndex loops = 0;
#pragma omp parallel num_threads(threads) reduction(+ : loops)
    {
      auto& out = drawn[static_cast<std::size_t>(omp_get_thread_num())];
      for (auto& d : out) d.clear();
      const auto mine = even_share(IndexRange<std::int64_t>{begin, end}, static_cast<std::size_t>(omp_get_thread_num()),
                                   static_cast<std::size_t>(omp_get_num_threads()));
      tuples.for_each(mine.begin, mine.end, [&](std::int64_t, graph::Edge e) {
        if (e.u == e.v) {
          ++loops;
          return;
        }
        for (const auto& [block, a] : {arc(e.u, e.v), arc(e.v, e.u)}) out[static_cast<std::size_t>(block)].push_back(a);
      });
    }
    report.self_loops += loops;
    const std::vector<Arc> in = alltoall(drawn, grid.world(), traffic_);
    arcs.insert(arcs.end(), in.begin(), in.end());
  }
  return arcs;
}

void BlockGraph::index_by_target(std::vector<Arc> arcs, const Grid& grid, int threads, graph::BuildReport& report) {
  const auto count = static_cast<std::int64_t>(arcs.size());
  by_target_ = bucket(grid.row_size(), threads, [&](auto f) {
#pragma omp parallel for num_threads(threads) schedule(static)
    for (std::int64_t i = 0; i < count; ++i) f(arcs[i].target_row, arcs[i].source_col);
  });
  arcs = {};
  report.duplicates += drop_repeats(by_target_, threads);
}

void BlockGraph::index_by_source(const Grid& grid, int threads) {
  const std::int64_t rows = grid.row_size();
  by_source_ = bucket(grid.col_size(grid.col_of(grid.rank())), threads, [&](auto f) {
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
    for (std::int64_t i = 0; i < rows; ++i)
      for (const std::uint32_t j : by_target_.of(i)) f(j, static_cast<std::uint32_t>(i));
  });
}

// Each row vertex's sources by descending degree in the whole graph, ties by id, as the one-process kernel orders
// its lists: a bottom-up step stops at the first source in the frontier, and the frontier is where the hubs are.
// Ordered by their arcs in this block instead (about half a source's degree on a 2 x 1 grid, and noisy for the
// many sources of small degree), the first source was the parent less often and a step went through more lists.
void BlockGraph::order_sources(std::span<const Vertex> source_degree, int threads) {
  const auto rows = static_cast<std::int64_t>(by_target_.offsets.size()) - 1;
  first_source_.resize(static_cast<std::size_t>(rows));
  sourced_.assign(static_cast<std::size_t>((rows + 63) / 64), 0);
#pragma omp parallel for num_threads(threads) schedule(dynamic, 1024)
  for (std::int64_t i = 0; i < rows; ++i) {
    const auto begin = by_target_.ids.begin() + by_target_.offsets[i],
               end = by_target_.ids.begin() + by_target_.offsets[i + 1];
    std::sort(begin, end, [&](std::uint32_t a, std::uint32_t b) {
      const Vertex da = source_degree[a], db = source_degree[b];
      return da != db ? da > db : a < b;
    });
    first_source_[i] = begin == end ? 0 : *begin;
  }
  for (std::int64_t i = 0; i < rows; ++i)
    if (by_target_.offsets[i + 1] > by_target_.offsets[i]) sourced_[i / 64] |= std::uint64_t{1} << (i % 64);
}

// A vertex's arcs lie in the C blocks of its grid row, one part per column: the owner gets their sum.
void BlockGraph::sum_degrees(const Grid& grid) {
  const Vertex rows = grid.row_size();
  std::vector<Vertex> partial(static_cast<std::size_t>(rows));
  for (Vertex i = 0; i < rows; ++i) partial[i] = static_cast<Vertex>(by_target_.offsets[i + 1] - by_target_.offsets[i]);
  const int row = grid.row_of(grid.rank()), cols = grid.shape().cols;
  std::vector<int> counts;
  for (int c = 0; c < cols; ++c) counts.push_back(grid.block_size(grid.rank_at(row, c)));
  degree_.resize(static_cast<std::size_t>(grid.block_size(grid.rank())));
  mpi::check(MPI_Reduce_scatter(partial.data(), degree_.data(), counts.data(), MPI_INT32_T, MPI_SUM, grid.row_comm()),
             "MPI_Reduce_scatter");
  const auto own = static_cast<std::int64_t>(degree_.size());
  traffic_.sent += 4 * (rows - own);
  traffic_.received += 4 * own * (cols - 1);
}

// The degrees of this grid column's vertices, the sources of this block's arcs, by column index: each of the
// column's R ranks gives its own block's.
std::vector<Vertex> BlockGraph::column_degrees(const Grid& grid) {
  const int col = grid.col_of(grid.rank()), rows = grid.shape().rows;
  std::vector<Vertex> all(static_cast<std::size_t>(grid.col_size(col)), 0);
  std::vector<int> counts, displs;
  for (int k = 0; k < rows; ++k) {
    counts.push_back(static_cast<int>(grid.block_size(grid.rank_at(k, col))));
    displs.push_back(static_cast<int>(grid.col_base(col, k)));
  }
  const auto own = static_cast<std::int64_t>(degree_.size());
  mpi::check(MPI_Allgatherv(degree_.data(), static_cast<int>(own), MPI_INT32_T, all.data(), counts.data(),
                            displs.data(), MPI_INT32_T, grid.col_comm()),
             "MPI_Allgatherv");
  traffic_.sent += 4 * own * (rows - 1);
  for (int k = 0; k < rows; ++k)
    if (grid.rank_at(k, col) != grid.rank()) traffic_.received += 4 * static_cast<std::int64_t>(counts[k]);
  return all;
}

namespace {

// Counts the pages wholly inside `array`: a page it shares with other heap data (a small array's) was placed by
// whichever of them touched it first, which may predate this rank's binding.
template <typename T>
void add_placement(PagePlacement& total, const std::vector<T>& array) {
  const auto page = static_cast<std::uintptr_t>(page_size());
  const auto begin = (reinterpret_cast<std::uintptr_t>(array.data()) + page - 1) / page * page;
  const auto end = reinterpret_cast<std::uintptr_t>(array.data() + array.size()) / page * page;
  if (end <= begin) return;
  const PagePlacement p = page_placement(reinterpret_cast<const void*>(begin), end - begin);
  total.pages += p.pages;
  total.absent += p.absent;
  for (const auto& [node, pages] : p.per_node) total.per_node[node] += pages;
}

}  // namespace

PagePlacement BlockGraph::placement() const {
  PagePlacement total;
  for (const Lists* lists : {&by_target_, &by_source_}) {
    add_placement(total, lists->offsets);
    add_placement(total, lists->ids);
  }
  add_placement(total, first_source_);
  add_placement(total, sourced_);
  add_placement(total, degree_);
  return total;
}

}  // namespace ulibc::bfs::distributed
