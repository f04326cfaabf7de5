// bfs/distributed/distributed_bfs.cpp — the levels of a search across ranks: top-down and bottom-up steps.
#include "bfs/distributed/distributed_bfs.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>

#include "bfs/frontier.hpp"
#include "ulibc/error.hpp"

namespace ulibc::bfs::distributed {

using detail::claim;
using detail::for_each_bit;
using detail::set_shared;
using detail::test;
using detail::Word;
using detail::word_of;
using detail::words_for;

// A vertex found in a step, sent to its owner: the owner's index of it, and the parent the sender found.
struct DistributedBfs::Found {
  std::uint32_t vertex;
  Vertex parent;
};

DistributedBfs::DistributedBfs(const graph::Tuples& tuples, MPI_Comm comm, GridShape shape, int threads,
                               graph::BuildReport* report)
    : threads_(threads) {
  if (threads < 1) throw input_error(fmt::format("BFS across ranks: {} threads (at least 1)", threads));
  grid_ = std::make_unique<Grid>(comm, shape, tuples.vertices());
  graph_ = std::make_unique<BlockGraph>(tuples, *grid_, threads, report);
  first_ = grid_->first(grid_->rank());
  row_offset_ = first_ - grid_->row_first();
  parent_.resize(static_cast<std::size_t>(grid_->block_size(grid_->rank())));
  row_seen_.resize(static_cast<std::size_t>(words_for(grid_->row_size())));
  front_bits_.resize(static_cast<std::size_t>(words_for(static_cast<std::int64_t>(parent_.size()))));
  sent_.resize(static_cast<std::size_t>(threads));
  kept_.resize(static_cast<std::size_t>(threads));
}

DistributedBfs::~DistributedBfs() = default;

std::size_t DistributedBfs::bytes() const {
  const std::int64_t col_words = words_for(grid_->col_size(grid_->col_of(grid_->rank())));
  return grid_->bytes() + graph_->bytes() + parent_.size() * sizeof(Vertex) +
         (row_seen_.size() + col_words + front_bits_.size()) * sizeof(Word);
}

std::span<const Vertex> DistributedBfs::search(Vertex root, const Params& params) {
  if (root < 0 || root >= grid_->vertices())
    throw input_error(fmt::format("BFS root {} is not a vertex of the graph (0..{})", root, grid_->vertices() - 1));
  if (!(params.alpha > 0) || !(params.beta > 0))
    throw input_error(fmt::format("BFS: alpha ({}) and beta ({}) must be positive", params.alpha, params.beta));
  levels_.clear();
  start(root);
  Bytes carried;  // the root's degree, summed: counted with the first level
  std::int64_t root_scout[] = {grid_->owner(root) == grid_->rank() ? graph_->degree(root - first_) : 0};
  sum_in_place(root_scout, grid_->world(), carried);
  // Beamer's rule, as the one-process kernel applies it (bfs.cpp): bottom-up once the frontier's arcs exceed
  // 1/alpha of those top-down steps have not examined; back top-down once the frontier shrinks below n/beta.
  Totals now{.frontier = 1, .scout = root_scout[0]};
  std::int64_t unexamined = graph_->arcs();
  const double small = static_cast<double>(grid_->vertices()) / params.beta;
  bool bottom_up = params.direction == Direction::bottom_up;
  while (now.frontier > 0) {
    Level level{.frontier = now.frontier, .bytes = carried};
    carried = {};
    if (params.direction == Direction::optimizing && !bottom_up &&
        static_cast<double>(now.scout) > static_cast<double>(unexamined) / params.alpha)
      bottom_up = true;
    if (!bottom_up) unexamined -= now.scout;
    Totals next = bottom_up ? bottom_up_step(level.bytes) : top_down_step(level.bytes);
    level.direction = bottom_up ? Direction::bottom_up : Direction::top_down;
    level.discovered = next.frontier;
    level.finds = next.finds;
    if (bottom_up && params.direction == Direction::optimizing &&
        !(next.frontier >= now.frontier || static_cast<double>(next.frontier) > small)) {
      bottom_up = false;
      // Top-down steps then skip what the row has visited, and the rule needs the frontier's arcs (the search goes on
      // only with a frontier).
      if (next.frontier > 0) {
        gather_row_seen(level.bytes);
        next.scout = bitmap_scout(level.bytes);
      }
    }
    levels_.push_back(level);
    now = next;
  }
  return parent_;
}

// Parents unreached, nothing seen in the row but the words' bits beyond its end, the root with its owner.
void DistributedBfs::start(Vertex root) {
  const auto n = static_cast<std::int64_t>(parent_.size());
#pragma omp parallel for num_threads(threads_) schedule(static)
  for (std::int64_t i = 0; i < n; ++i) parent_[i] = kUnreached;
  std::fill(row_seen_.begin(), row_seen_.end(), 0);
  if (const std::int64_t tail = grid_->row_size() % detail::kWordBits; tail != 0) row_seen_.back() = ~Word{0} << tail;
  front_.clear();
  front_in_bits_ = false;
  if (grid_->owner(root) != grid_->rank()) return;
  parent_[root - first_] = root;
  front_.push_back(root);
  set_shared(row_seen_.data(), row_offset_ + (root - first_));
}

DistributedBfs::Totals DistributedBfs::top_down_step(Bytes& bytes) {
  if (front_in_bits_) front_from_bits();
  const std::vector<Vertex> frontier = allgather<Vertex>(front_, grid_->col_comm(), bytes);
  const auto count = static_cast<std::int64_t>(frontier.size());
  const Grid& g = *grid_;
  const Vertex row_first = g.row_first();
  const auto own_size = static_cast<std::uint32_t>(parent_.size());
  clear_outboxes(sent_, static_cast<std::size_t>(g.shape().cols));
#pragma omp parallel num_threads(threads_)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    Sent& out = sent_[t];
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t i = 0; i < count; ++i) {
      const Vertex u = frontier[i];
      for (const std::uint32_t v_row : graph_->targets(g.col_index(u))) {
        if (!claim(row_seen_.data(), static_cast<Vertex>(v_row))) continue;
        // A find in this rank's own block is kept at once: the claim made it this thread's alone, and what the
        // row's other ranks send for it comes later and finds its parent set (keep_found).
        if (const std::uint32_t own = v_row - static_cast<std::uint32_t>(row_offset_); own < own_size) {
          parent_[own] = u;
          kept_[t].push_back(first_ + static_cast<Vertex>(own));
          continue;
        }
        const Vertex v = row_first + static_cast<Vertex>(v_row);
        const int owner = g.owner(v);
        out[static_cast<std::size_t>(g.col_of(owner))].push_back({static_cast<std::uint32_t>(v - g.first(owner)), u});
      }
    }
  }
  return keep_found(sent_, bytes);
}

// What the grid row's ranks have visited, each its own block's, gathered into row_seen_.
void DistributedBfs::gather_row_seen(Bytes& bytes) {
  const Grid& g = *grid_;
  const int row = g.row_of(g.rank()), cols = g.shape().cols;
  std::vector<int> counts, displs;
  for (int c = 0; c < cols; ++c) {
    counts.push_back(static_cast<int>(words_for(g.block_size(g.rank_at(row, c)))));
    displs.push_back(static_cast<int>((g.first(g.rank_at(row, c)) - g.row_first()) / detail::kWordBits));
  }
  allgather_words(row_seen_, counts, displs, g.row_comm(), bytes);
}

// The frontier of this rank's grid column as one bitmap in column indices, gathered from its R owners.
std::vector<Word> DistributedBfs::frontier_words(Bytes& bytes) {
  const Grid& g = *grid_;
  const int col = g.col_of(g.rank()), rows = g.shape().rows;
  std::vector<Word> bits(static_cast<std::size_t>(words_for(g.col_size(col))), 0);
  std::vector<int> counts, displs;
  for (int k = 0; k < rows; ++k) {
    counts.push_back(static_cast<int>(words_for(g.block_size(g.rank_at(k, col)))));
    displs.push_back(static_cast<int>(g.col_base(col, k) / detail::kWordBits));
  }
  Word* mine = bits.data() + displs[static_cast<std::size_t>(g.row_of(g.rank()))];
  if (front_in_bits_) {
    std::copy_n(front_bits_.begin(), counts[static_cast<std::size_t>(g.row_of(g.rank()))], mine);
  } else {
    // One thread: a locked fetch_or per frontier vertex cost more than the rest of the step's bookkeeping.
    for (const Vertex v : front_) mine[word_of(v - first_)] |= detail::bit_of(v - first_);
  }
  allgather_words(bits, counts, displs, g.col_comm(), bytes);
  return bits;
}

// The row block's segments (its ranks' blocks) go round the grid row, twice: in sub-step s rank (r, c) searches
// segment (c + s) mod C for the vertices no rank has found a parent for yet, then passes the segment's bitmap to
// rank (r, c - 1). The first round looks only at each vertex's first source (the one of highest degree, usually
// the parent), the second at the rest: with one round, a rank went through the whole list of every vertex whose
// parent lay in another rank's column, and the step took four times the one-process kernel's work. A vertex is
// found once, by the first rank that sees a parent for it.
DistributedBfs::Totals DistributedBfs::bottom_up_step(Bytes& bytes) {
  const Grid& g = *grid_;
  const std::vector<Word> frontier = frontier_words(bytes);
  // The next frontier is kept as a bitmap: a step that finds most of the graph then writes no list of it, and the
  // next bottom-up step copies the bitmap instead of setting a bit per vertex.
  std::fill(front_bits_.begin(), front_bits_.end(), 0);
  front_in_bits_ = true;
  const int row = g.row_of(g.rank()), col = g.col_of(g.rank()), cols = g.shape().cols;
  const auto segment_words = [&](int c) { return words_for(g.block_size(g.rank_at(row, c))); };
  // This rank's own segment first: its part of row_seen_ is what it has visited.
  std::vector<Word> seen(row_seen_.begin() + row_offset_ / detail::kWordBits,
                         row_seen_.begin() + row_offset_ / detail::kWordBits + segment_words(col));
  clear_outboxes(sent_, static_cast<std::size_t>(cols));
  const int steps = cols == 1 ? 1 : 2 * cols;
  for (int step = 0; step < steps; ++step) {
    const int segment = (col + step) % cols;
    search_segment(frontier, segment, seen, cols == 1 ? Sources::all : step < cols ? Sources::first : Sources::rest);
    if (step + 1 == steps) break;
    const int next = (col + step + 1) % cols;
    std::vector<Word> passed(static_cast<std::size_t>(segment_words(next)));
    mpi::check(MPI_Sendrecv(seen.data(), static_cast<int>(seen.size()), MPI_UINT64_T, (col + cols - 1) % cols, 0,
                            passed.data(), static_cast<int>(passed.size()), MPI_UINT64_T, (col + 1) % cols, 0,
                            g.row_comm(), MPI_STATUS_IGNORE),
               "MPI_Sendrecv");
    bytes.sent += static_cast<std::int64_t>(seen.size() * sizeof(Word));
    bytes.received += static_cast<std::int64_t>(passed.size() * sizeof(Word));
    seen = std::move(passed);
  }
  return keep_found(sent_, bytes);
}

// One sub-step of a bottom-up step: the unseen vertices of the grid row's segment `segment` (the block of rank
// (r, segment)) that have a source in the column's frontier among `which` of theirs, each marked seen and sent to
// that rank.
void DistributedBfs::search_segment(const std::vector<Word>& frontier, int segment, std::vector<Word>& seen,
                                    Sources which) {
  const Grid& g = *grid_;
  const int owner = g.rank_at(g.row_of(g.rank()), segment);
  const Vertex base = g.first(owner) - g.row_first();
  const Word* sourced = graph_->sourced() + base / detail::kWordBits;  // whose list here is not empty
  const auto words = static_cast<std::int64_t>(seen.size());
  const auto in_frontier = [&](std::uint32_t u_col) { return test(frontier.data(), static_cast<Vertex>(u_col)); };
#pragma omp parallel num_threads(threads_)
  {
    const auto t = static_cast<std::size_t>(omp_get_thread_num());
    std::vector<Found>& out = sent_[t][static_cast<std::size_t>(segment)];
    // A find in this rank's own block is kept at once (its bit below): in a bottom-up step no other rank finds it.
    const auto keep = [&](Vertex i, std::uint32_t u_col) {
      const Vertex parent = g.col_vertex(u_col);
      if (owner != g.rank()) return out.push_back({static_cast<std::uint32_t>(i), parent});
      parent_[i] = parent;
    };
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t w = 0; w < words; ++w) {
      // First each vertex's first source, read in vertex order; then the lists of the rest, prefetched first so
      // that their cache misses overlap (as the one-process kernel does).
      Word found = 0, rest = 0;
      for_each_bit(sourced[w] & ~seen[w], w, [&](Vertex i) {
        const std::uint32_t top = graph_->first_source(base + i);
        if (which != Sources::rest && in_frontier(top)) {
          keep(i, top);
          found |= detail::bit_of(i);
        } else if (which != Sources::first) {
          rest |= detail::bit_of(i);
          __builtin_prefetch(graph_->sources(base + i).data() + 1);
        }
      });
      for_each_bit(rest, w, [&](Vertex i) {
        const std::span<const std::uint32_t> sources = graph_->sources(base + i).subspan(1);
        const auto hit = std::find_if(sources.begin(), sources.end(), in_frontier);
        if (hit == sources.end()) return;
        keep(i, *hit);
        found |= detail::bit_of(i);
      });
      seen[w] |= found;
      // A word of this rank's own segment is this thread's alone here: its finds are visited and next without
      // atomics.
      if (owner == g.rank()) {
        row_seen_[row_offset_ / detail::kWordBits + w] |= found;
        front_bits_[w] |= found;
      }
    }
  }
}

// The finds of every rank of the grid row, each sent to its owner, who keeps the first parent a vertex gets: in the
// frontier's bitmap in a bottom-up step, in its list in a top-down one.
DistributedBfs::Totals DistributedBfs::keep_found(const std::vector<Sent>& sent, Bytes& bytes) {
  std::int64_t finds = 0;
  for (const Sent& thread : sent)
    for (std::size_t c = 0; c < thread.size(); ++c)
      if (static_cast<int>(c) != grid_->col_of(grid_->rank())) finds += static_cast<std::int64_t>(thread[c].size());
  const std::vector<Found> found = alltoall(sent, grid_->row_comm(), bytes);
  const auto count = static_cast<std::int64_t>(found.size());
#pragma omp parallel num_threads(threads_)
  {
    std::vector<Vertex>& mine = kept_[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) {
      const Found f = found[i];
      Vertex unreached = kUnreached;
      if (!std::atomic_ref<Vertex>(parent_[f.vertex])
               .compare_exchange_strong(unreached, f.parent, std::memory_order_relaxed))
        continue;
      set_shared(row_seen_.data(), row_offset_ + static_cast<Vertex>(f.vertex));
      if (front_in_bits_)
        set_shared(front_bits_.data(), static_cast<Vertex>(f.vertex));
      else
        mine.push_back(first_ + static_cast<Vertex>(f.vertex));
    }
  }
  if (!front_in_bits_) {
    front_.clear();
    for (std::vector<Vertex>& part : kept_) {
      front_.insert(front_.end(), part.begin(), part.end());
      part.clear();
    }
  }
  Totals totals = frontier_totals(bytes);
  totals.finds = finds;
  return totals;
}

// The job's frontier: its vertices, summed over the ranks, and for a list their arcs. A bottom-up step's bitmap
// frontier leaves its arcs to bitmap_scout: the rule needs them only when the search turns back top-down, and
// summing the degrees of most of the graph after every bottom-up step was a twentieth of the search.
DistributedBfs::Totals DistributedBfs::frontier_totals(Bytes& bytes) {
  if (front_in_bits_) {
    std::int64_t size = 0;
    const auto words = static_cast<std::int64_t>(front_bits_.size());
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : size)
    for (std::int64_t w = 0; w < words; ++w) size += std::popcount(front_bits_[w]);
    std::int64_t totals[] = {size};
    sum_in_place(totals, grid_->world(), bytes);
    return {.frontier = totals[0]};
  }
  const auto size = static_cast<std::int64_t>(front_.size());
  std::int64_t scout = 0;
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : scout)
  for (std::int64_t i = 0; i < size; ++i) scout += graph_->degree(front_[i] - first_);
  std::int64_t totals[] = {size, scout};
  sum_in_place(totals, grid_->world(), bytes);
  return {.frontier = totals[0], .scout = totals[1]};
}

// The arcs of the bitmap frontier, summed over the ranks.
std::int64_t DistributedBfs::bitmap_scout(Bytes& bytes) {
  std::int64_t scout = 0;
  const auto words = static_cast<std::int64_t>(front_bits_.size());
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : scout)
  for (std::int64_t w = 0; w < words; ++w)
    for_each_bit(front_bits_[w], w, [&](Vertex i) { scout += graph_->degree(i); });
  std::int64_t totals[] = {scout};
  sum_in_place(totals, grid_->world(), bytes);
  return totals[0];
}

// The frontier's list from its bitmap, for a top-down step after a bottom-up one.
void DistributedBfs::front_from_bits() {
  front_.clear();
  for (std::int64_t w = 0; w < static_cast<std::int64_t>(front_bits_.size()); ++w)
    for_each_bit(front_bits_[w], w, [&](Vertex i) { front_.push_back(first_ + i); });
  front_in_bits_ = false;
}

std::vector<Vertex> DistributedBfs::gather_parents(int to) const {
  const Grid& g = *grid_;
  std::vector<int> counts, displs;
  for (int p = 0; p < g.ranks(); ++p) {
    counts.push_back(g.block_size(p));
    displs.push_back(g.first(p));
  }
  std::vector<Vertex> all(g.rank() == to ? static_cast<std::size_t>(g.vertices()) : 0);
  mpi::check(MPI_Gatherv(parent_.data(), static_cast<int>(parent_.size()), MPI_INT32_T, all.data(), counts.data(),
                         displs.data(), MPI_INT32_T, to, g.world()),
             "MPI_Gatherv");
  return all;
}

}  // namespace ulibc::bfs::distributed
