// bfs/distributed/distributed_bfs.cpp — the levels of a search across ranks: top-down and bottom-up steps.
#include "bfs/distributed/distributed_bfs.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <atomic>

#include "bfs/frontier.hpp"
#include "ulibc/error.hpp"

namespace ulibc::bfs::distributed {

using detail::claim;
using detail::for_each_bit;
using detail::set_shared;
using detail::test;
using detail::Word;
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
  sent_.resize(static_cast<std::size_t>(threads));
}

DistributedBfs::~DistributedBfs() = default;

std::size_t DistributedBfs::bytes() const {
  const std::int64_t col_words = words_for(grid_->col_size(grid_->col_of(grid_->rank())));
  return graph_->bytes() + parent_.size() * sizeof(Vertex) + (row_seen_.size() + col_words) * sizeof(Word);
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
    const Totals next = bottom_up ? bottom_up_step(level.bytes) : top_down_step(level.bytes);
    level.direction = bottom_up ? Direction::bottom_up : Direction::top_down;
    level.discovered = next.frontier;
    level.finds = next.finds;
    if (bottom_up && params.direction == Direction::optimizing &&
        !(next.frontier >= now.frontier || static_cast<double>(next.frontier) > small))
      bottom_up = false;
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
  if (grid_->owner(root) != grid_->rank()) return;
  parent_[root - first_] = root;
  front_.push_back(root);
  set_shared(row_seen_.data(), row_offset_ + (root - first_));
}

DistributedBfs::Totals DistributedBfs::top_down_step(Bytes& bytes) {
  const std::vector<Vertex> frontier = allgather<Vertex>(front_, grid_->col_comm(), bytes);
  const auto count = static_cast<std::int64_t>(frontier.size());
  const Grid& g = *grid_;
  const Vertex row_first = g.row_first();
#pragma omp parallel num_threads(threads_)
  {
    Sent& out = sent_[static_cast<std::size_t>(omp_get_thread_num())];
    out.assign(static_cast<std::size_t>(g.shape().cols), {});
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t i = 0; i < count; ++i) {
      const Vertex u = frontier[i];
      for (const std::uint32_t v_row : graph_->targets(g.col_index(u))) {
        if (!claim(row_seen_.data(), static_cast<Vertex>(v_row))) continue;
        const Vertex v = row_first + static_cast<Vertex>(v_row);
        const int owner = g.owner(v);
        out[static_cast<std::size_t>(g.col_of(owner))].push_back({static_cast<std::uint32_t>(v - g.first(owner)), u});
      }
    }
  }
  return keep_found(sent_, bytes);
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
  for (const Vertex v : front_) set_shared(mine, v - first_);
  allgather_words(bits, counts, displs, g.col_comm(), bytes);
  return bits;
}

DistributedBfs::Totals DistributedBfs::bottom_up_step(Bytes& bytes) {
  const Grid& g = *grid_;
  const std::vector<Word> frontier = frontier_words(bytes);
  const int row = g.row_of(g.rank()), col = g.col_of(g.rank()), cols = g.shape().cols;
  std::vector<int> counts, displs;
  for (int c = 0; c < cols; ++c) {
    counts.push_back(static_cast<int>(words_for(g.block_size(g.rank_at(row, c)))));
    displs.push_back(static_cast<int>((g.first(g.rank_at(row, c)) - g.row_first()) / detail::kWordBits));
  }
  allgather_words(row_seen_, counts, displs, g.row_comm(), bytes);
  const auto words = static_cast<std::int64_t>(row_seen_.size());
  const Vertex row_first = g.row_first();
#pragma omp parallel num_threads(threads_)
  {
    Sent& out = sent_[static_cast<std::size_t>(omp_get_thread_num())];
    out.assign(static_cast<std::size_t>(cols), {});
#pragma omp for schedule(dynamic, 16)
    for (std::int64_t w = 0; w < words; ++w)
      for_each_bit(~row_seen_[w], w, [&](Vertex v_row) {
        for (const std::uint32_t u_col : graph_->sources(v_row)) {
          if (!test(frontier.data(), static_cast<Vertex>(u_col))) continue;
          const Vertex v = row_first + v_row;
          const int owner = g.owner(v);
          out[static_cast<std::size_t>(g.col_of(owner))].push_back(
              {static_cast<std::uint32_t>(v - g.first(owner)), g.col_vertex(col, u_col)});
          return;
        }
      });
  }
  return keep_found(sent_, bytes);
}

// The finds of every rank of the grid row, each sent to its owner, who keeps the first parent a vertex gets.
DistributedBfs::Totals DistributedBfs::keep_found(const std::vector<Sent>& sent, Bytes& bytes) {
  const Sent out = join(sent, static_cast<std::size_t>(grid_->shape().cols));
  std::int64_t finds = 0;
  for (std::size_t c = 0; c < out.size(); ++c)
    if (static_cast<int>(c) != grid_->col_of(grid_->rank())) finds += static_cast<std::int64_t>(out[c].size());
  const std::vector<Found> found = alltoall(out, grid_->row_comm(), bytes);
  const auto count = static_cast<std::int64_t>(found.size());
  std::int64_t scout = 0;
  std::vector<std::vector<Vertex>> next(static_cast<std::size_t>(threads_));
#pragma omp parallel num_threads(threads_) reduction(+ : scout)
  {
    std::vector<Vertex>& mine = next[static_cast<std::size_t>(omp_get_thread_num())];
#pragma omp for schedule(static)
    for (std::int64_t i = 0; i < count; ++i) {
      const Found f = found[i];
      Vertex unreached = kUnreached;
      if (!std::atomic_ref<Vertex>(parent_[f.vertex])
               .compare_exchange_strong(unreached, f.parent, std::memory_order_relaxed))
        continue;
      mine.push_back(first_ + static_cast<Vertex>(f.vertex));
      set_shared(row_seen_.data(), row_offset_ + static_cast<Vertex>(f.vertex));
      scout += graph_->degree(f.vertex);
    }
  }
  front_.clear();
  for (const std::vector<Vertex>& part : next) front_.insert(front_.end(), part.begin(), part.end());
  std::int64_t totals[] = {static_cast<std::int64_t>(front_.size()), scout};
  sum_in_place(totals, grid_->world(), bytes);
  return {.frontier = totals[0], .scout = totals[1], .finds = finds};
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
