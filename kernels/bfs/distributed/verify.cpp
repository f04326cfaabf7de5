// bfs/distributed/verify.cpp — Graph500's validation with the parents and the tuples spread over the ranks.
#include "bfs/distributed/verify.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <atomic>
#include <climits>
#include <cstdlib>
#include <utility>

#include "bfs/distributed/block_graph.hpp"
#include "bfs/distributed/exchange.hpp"
#include "mpi/comm.hpp"

namespace ulibc::bfs::distributed {

namespace {

using graph::Edge;

constexpr std::int32_t kNoLevel = -1;          // unreached, or not known yet
constexpr std::int32_t kParentUnreached = -2;  // an answer: the parent asked about is not reached

// A tuple passed on to its second end's owner with what the first end's owner knows.
struct Passed {
  Vertex u, v;
  std::int32_t level_u;
};

// The first failure a rank meets, by the number of the check: the job reports the lowest check, as the one-process
// verifier does, from the lowest rank that failed it.
struct Finding {
  int check = INT_MAX;
  std::string why;
  void fail(int number, std::string text) {
#pragma omp critical(ulibc_bfs_distributed_finding)
    if (number < check) check = number, why = std::move(text);
  }
};

class Checker {
 public:
  Checker(const Grid& g, Vertex root, std::span<const Vertex> parent, int threads)
      : g_(g),
        root_(root),
        parent_(parent),
        threads_(threads),
        first_(g.first(g.rank())),
        level_(parent.size(), kNoLevel),
        confirmed_(parent.size(), 0) {}

  // Check 1, and levels a round at a time (check 2).
  void levels() {
    std::vector<std::uint32_t> waiting;
    for (std::size_t i = 0; i < parent_.size(); ++i) {
      const Vertex v = first_ + static_cast<Vertex>(i), p = parent_[i];
      if (v == root_) {
        if (p == root_)
          level_[i] = 0;
        else
          finding_.fail(1, fmt::format("check 1 (root): parent[{}] = {}, not the root itself", v, p));
      } else if (p != kUnreached && (p < 0 || p >= g_.vertices())) {
        finding_.fail(2, fmt::format("check 2 (parents): parent[{}] = {} is not a vertex", v, p));
      } else if (p != kUnreached) {
        waiting.push_back(static_cast<std::uint32_t>(i));
      }
    }
    for (;;) {
      std::int64_t counts[2] = {0, 0};  // still waiting, settled in this round
      waiting = level_round(waiting, counts[1]);
      counts[0] = static_cast<std::int64_t>(waiting.size());
      sum_in_place(counts, g_.world(), bytes_);
      if (counts[0] == 0) return;
      if (counts[1] == 0) {
        if (!waiting.empty()) {
          const Vertex v = first_ + static_cast<Vertex>(waiting.front());
          finding_.fail(
              2, fmt::format("check 2 (parents): following parents from {} never reaches the root {}", v, root_));
        }
        return;
      }
    }
  }

  // Checks 3, 4 and 5 in one pass over the tuples, then the tree edges no tuple confirmed (check 3).
  void sweep(const graph::Tuples& input) {
    const auto ranks = static_cast<std::size_t>(g_.ranks());
    std::vector<std::vector<std::vector<Edge>>> drawn(static_cast<std::size_t>(threads_),
                                                      std::vector<std::vector<Edge>>(ranks));
    std::vector<std::vector<std::vector<Passed>>> passed(static_cast<std::size_t>(threads_),
                                                         std::vector<std::vector<Passed>>(ranks));
    for (const IndexRange<std::int64_t> round : tuple_rounds(input.size(), g_)) {
#pragma omp parallel num_threads(threads_)
      {
        auto& out = drawn[static_cast<std::size_t>(omp_get_thread_num())];
        for (auto& d : out) d.clear();
        const auto mine = even_share(round, static_cast<std::size_t>(omp_get_thread_num()),
                                     static_cast<std::size_t>(omp_get_num_threads()));
        input.for_each(mine.begin, mine.end,
                       [&](std::int64_t, Edge e) { out[static_cast<std::size_t>(g_.owner(e.u))].push_back(e); });
      }
      pass_on(alltoall(drawn, g_.world(), bytes_), passed);
      compare(alltoall(passed, g_.world(), bytes_));
    }
    for (std::size_t i = 0; i < parent_.size(); ++i)
      if (parent_[i] != kUnreached && level_[i] > 0 && !confirmed_[i]) {
        finding_.fail(3, fmt::format("check 3 (tree edges): the tree edge {{{}, {}}} is not an edge of the input",
                                     first_ + static_cast<Vertex>(i), parent_[i]));
        break;
      }
  }

  Validation result() {
    std::int64_t sums[2] = {inside_, 0};
    int depth = 0;
    for (const std::int32_t l : level_) {
      sums[1] += l >= 0;
      depth = std::max(depth, l);
    }
    sum_in_place(sums, g_.world(), bytes_);
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, &depth, 1, MPI_INT, MPI_MAX, g_.world()), "MPI_Allreduce");
    // The lowest (check, rank) across the job says whose finding is reported.
    const std::int64_t ranks = g_.ranks();
    std::int64_t worst = finding_.check == INT_MAX ? INT64_MAX : finding_.check * ranks + g_.rank();
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_INT64_T, MPI_MIN, g_.world()), "MPI_Allreduce");
    if (worst != INT64_MAX) {
      const int who = static_cast<int>(worst % ranks);
      const auto why = mpi::broadcast(g_.rank() == who ? std::optional(finding_.why) : std::nullopt, who, g_.world());
      return {.valid = false, .failure = why.value_or("")};
    }
    return {.valid = true, .edges = sums[0], .reached = sums[1], .depth = depth};
  }

 private:
  // One round of asking each waiting vertex's parent's owner for the parent's level; returns who still waits.
  std::vector<std::uint32_t> level_round(const std::vector<std::uint32_t>& waiting, std::int64_t& settled) {
    const auto ranks = static_cast<std::size_t>(g_.ranks());
    std::vector<std::vector<std::uint32_t>> ask(ranks), who(ranks);
    for (const std::uint32_t i : waiting) {
      const int o = g_.owner(parent_[i]);
      ask[static_cast<std::size_t>(o)].push_back(static_cast<std::uint32_t>(parent_[i] - g_.first(o)));
      who[static_cast<std::size_t>(o)].push_back(i);
    }
    std::vector<int> from;
    const std::vector<std::uint32_t> asked = alltoall(std::move(ask), g_.world(), bytes_, &from);
    std::vector<std::vector<std::int32_t>> answer(ranks);
    for (std::size_t s = 0; s < ranks; ++s)
      for (int j = from[s]; j < from[s + 1]; ++j) {
        const std::uint32_t q = asked[static_cast<std::size_t>(j)];
        answer[s].push_back(parent_[q] == kUnreached ? kParentUnreached : level_[q]);
      }
    const std::vector<std::int32_t> levels = alltoall(std::move(answer), g_.world(), bytes_, &from);
    std::vector<std::uint32_t> still;
    for (std::size_t o = 0; o < ranks; ++o)
      for (std::size_t k = 0; k < who[o].size(); ++k) {
        const std::uint32_t i = who[o][k];
        const std::int32_t l = levels[static_cast<std::size_t>(from[o]) + k];
        if (l == kParentUnreached)
          finding_.fail(2, fmt::format("check 2 (parents): parent[{}] = {}, which is not reached",
                                       first_ + static_cast<Vertex>(i), parent_[i]));
        else if (l >= 0)
          level_[i] = l + 1, ++settled;
        else
          still.push_back(i);
      }
    return still;
  }

  // At u's owner: u's tree edge, and u's level passed on to v's owner.
  void pass_on(const std::vector<Edge>& edges, std::vector<std::vector<std::vector<Passed>>>& passed) {
    const auto count = static_cast<std::int64_t>(edges.size());
#pragma omp parallel num_threads(threads_)
    {
      auto& out = passed[static_cast<std::size_t>(omp_get_thread_num())];
      for (auto& d : out) d.clear();
#pragma omp for schedule(static)
      for (std::int64_t k = 0; k < count; ++k) {
        const Edge e = edges[k];
        const std::int64_t i = e.u - first_;
        if (parent_[i] == e.v) std::atomic_ref(confirmed_[i]).store(1, std::memory_order_relaxed);
        out[static_cast<std::size_t>(g_.owner(e.v))].push_back({e.u, e.v, level_[i]});
      }
    }
  }

  // At v's owner: v's tree edge, and the two ends' levels.
  void compare(const std::vector<Passed>& tuples) {
    const auto count = static_cast<std::int64_t>(tuples.size());
    std::int64_t inside = 0;
#pragma omp parallel for num_threads(threads_) schedule(static) reduction(+ : inside)
    for (std::int64_t k = 0; k < count; ++k) {
      const Passed t = tuples[k];
      const std::int64_t j = t.v - first_;
      if (parent_[j] == t.u) std::atomic_ref(confirmed_[j]).store(1, std::memory_order_relaxed);
      const std::int32_t lu = t.level_u, lv = level_[j];
      const bool in_u = lu >= 0, in_v = lv >= 0;
      if (in_u && in_v && std::abs(lu - lv) > 1)
        finding_.fail(4, fmt::format("check 4 (levels): the edge {{{}, {}}} joins levels {} and {}", t.u, t.v, lu, lv));
      if (in_u != in_v)
        finding_.fail(5, fmt::format("check 5 (component): the edge {{{}, {}}} joins reached vertex {} to unreached "
                                     "vertex {}",
                                     t.u, t.v, in_u ? t.u : t.v, in_u ? t.v : t.u));
      inside += in_u;
    }
    inside_ += inside;
  }

  const Grid& g_;
  Vertex root_;
  std::span<const Vertex> parent_;
  int threads_;
  Vertex first_;
  std::vector<std::int32_t> level_;
  std::vector<std::uint8_t> confirmed_;
  std::int64_t inside_ = 0;
  Finding finding_;
  Bytes bytes_;
};

}  // namespace

Validation validate(const graph::Tuples& input, const Grid& grid, Vertex root, std::span<const Vertex> parent,
                    int threads) {
  if (root < 0 || root >= grid.vertices())  // alike on every rank
    return {.valid = false,
            .failure = fmt::format("root {} is not a vertex of the graph (0..{})", root, grid.vertices() - 1)};
  mpi::together(grid.world(), [&] {
    if (static_cast<std::int64_t>(parent.size()) != grid.block_size(grid.rank()))
      throw input_error(fmt::format("rank {}: {} parents for a block of {} vertices", grid.rank(), parent.size(),
                                    grid.block_size(grid.rank())));
    if (const graph::EdgeList* list = input.list()) graph::check_edge_list(*list, threads);
  });
  Checker checker(grid, root, parent, threads);
  checker.levels();
  checker.sweep(input);
  return checker.result();
}

}  // namespace ulibc::bfs::distributed
