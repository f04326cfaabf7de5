// bfs/distributed/graph500.cpp — search keys drawn from blocks, and the searches timed and validated across ranks.
#include "bfs/distributed/graph500.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <map>
#include <random>

#include "bfs/distributed/verify.hpp"
#include "harness/timer.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

namespace ulibc::bfs::distributed {

namespace {

// The job's candidates (vertices with neighbours, ascending) as this rank's and where each rank's begin.
class Candidates {
 public:
  explicit Candidates(const DistributedBfs& bfs) : comm_(bfs.grid().world()), rank_(bfs.grid().rank()) {
    const Grid& g = bfs.grid();
    for (Vertex i = 0; i < g.block_size(g.rank()); ++i)
      if (bfs.graph().degree(i) > 0) mine_.push_back(g.first(g.rank()) + i);
    std::int64_t count = static_cast<std::int64_t>(mine_.size());
    std::vector<std::int64_t> counts(static_cast<std::size_t>(g.ranks()));
    mpi::check(MPI_Allgather(&count, 1, MPI_INT64_T, counts.data(), 1, MPI_INT64_T, comm_), "MPI_Allgather");
    start_.assign(1, 0);
    for (const std::int64_t c : counts) start_.push_back(start_.back() + c);
  }
  std::int64_t size() const { return start_.back(); }
  // Collective: candidates i and j, in one sum.
  std::pair<Vertex, Vertex> at(std::int64_t i, std::int64_t j) const {
    std::int64_t found[2] = {local(i), local(j)};
    mpi::check(MPI_Allreduce(MPI_IN_PLACE, found, 2, MPI_INT64_T, MPI_SUM, comm_), "MPI_Allreduce");
    return {static_cast<Vertex>(found[0]), static_cast<Vertex>(found[1])};
  }

 private:
  std::int64_t local(std::int64_t i) const {
    const bool here = start_[rank_] <= i && i < start_[rank_ + 1];
    return here ? mine_[static_cast<std::size_t>(i - start_[rank_])] : 0;
  }
  MPI_Comm comm_;
  int rank_;
  std::vector<Vertex> mine_;
  std::vector<std::int64_t> start_;
};

}  // namespace

std::vector<Vertex> choose_roots(const DistributedBfs& bfs, int count, std::uint64_t seed) {
  // The partial Fisher–Yates shuffle of bfs::choose_roots, its swaps kept aside: positions never swapped still hold
  // their candidate, which its rank supplies. Every rank draws the same numbers, so all take the same steps.
  const Candidates candidates(bfs);
  std::mt19937_64 random(seed);
  const auto n = static_cast<std::size_t>(candidates.size());
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(std::max(count, 0)), n);
  std::map<std::size_t, Vertex> swapped;
  std::vector<Vertex> roots;
  for (std::size_t i = 0; i < k; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, n - 1);
    const std::size_t j = pick(random);
    auto [at_i, at_j] = candidates.at(static_cast<std::int64_t>(i), static_cast<std::int64_t>(j));
    if (const auto s = swapped.find(i); s != swapped.end()) at_i = s->second;
    if (const auto s = swapped.find(j); s != swapped.end()) at_j = s->second;
    swapped[i] = at_j;
    swapped[j] = at_i;
    roots.push_back(at_j);
  }
  return roots;
}

void check_roots(const graph::Tuples& tuples, const std::vector<Vertex>& roots, MPI_Comm comm, int threads) {
  // Every rank finds the same, and the job says it once (mpi::together).
  const auto refuse = [&](const std::string& why) { mpi::together(comm, [&] { throw input_error(why); }); };
  for (const Vertex r : roots)
    if (r < 0 || r >= tuples.vertices())
      return refuse(fmt::format("--root {}: not a vertex of the graph (0..{})", r, tuples.vertices() - 1));
  std::vector<Vertex> sorted = roots;
  std::sort(sorted.begin(), sorted.end());
  std::vector<std::int64_t> seen(sorted.size(), 0);
  const mpi::Place me = mpi::place_in(comm);
  const auto share = even_share(IndexRange<std::int64_t>{0, tuples.size()}, static_cast<std::size_t>(me.rank),
                                static_cast<std::size_t>(me.size));
#pragma omp parallel num_threads(threads)
  {
    std::vector<std::int64_t> mine(sorted.size(), 0);
    const auto part = even_share(share, static_cast<std::size_t>(omp_get_thread_num()),
                                 static_cast<std::size_t>(omp_get_num_threads()));
    const auto note = [&](Vertex v) {
      const auto at = std::lower_bound(sorted.begin(), sorted.end(), v);
      if (at != sorted.end() && *at == v) ++mine[static_cast<std::size_t>(at - sorted.begin())];
    };
    tuples.for_each(part.begin, part.end, [&](std::int64_t, graph::Edge e) {
      if (e.u == e.v) return;
      note(e.u);
      note(e.v);
    });
#pragma omp critical(ulibc_bfs_check_roots)
    for (std::size_t k = 0; k < seen.size(); ++k) seen[k] += mine[k];
  }
  Bytes unused;
  sum_in_place(seen, comm, unused);
  for (const Vertex r : roots)
    if (seen[static_cast<std::size_t>(std::lower_bound(sorted.begin(), sorted.end(), r) - sorted.begin())] == 0)
      return refuse(
          fmt::format("--root {}: the vertex has no edges (Graph500 searches from vertices with at least one)", r));
}

std::vector<Search> run_searches(DistributedBfs& bfs, const graph::Tuples& input, const std::vector<Vertex>& roots,
                                 const Params& params) {
  std::vector<Search> searches;
  const MPI_Comm world = bfs.grid().world();
  for (const Vertex root : roots) {
    Search s{.record = {.root = root}};
    mpi::check(MPI_Barrier(world), "MPI_Barrier");
    harness::Timer search;
    const std::span<const Vertex> parent = bfs.search(root, params);
    s.record.seconds = mpi::max(search.seconds(), world);
    s.levels = bfs.levels();
    harness::Timer check;
    const Validation v = validate(input, bfs.grid(), root, parent, bfs.threads());
    s.record.validate_seconds = mpi::max(check.seconds(), world);
    s.record.edges = v.edges;
    s.record.reached = v.reached;
    s.record.depth = v.depth;
    s.record.valid = v.valid;
    s.record.failure = v.failure;
    searches.push_back(std::move(s));
  }
  return searches;
}

}  // namespace ulibc::bfs::distributed
