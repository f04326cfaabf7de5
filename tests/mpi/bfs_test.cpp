// tests/mpi/bfs_test.cpp — Graph500 BFS across ranks against the one-process kernel, on however many ranks mpirun
// starts.
//
// ctest runs this program under `mpirun -n 1|2|3|4` (tests/mpi/CMakeLists.txt); every rank runs every test in the
// same order, since the kernel's calls are collective. Each rank also builds the whole small graph on its own, the
// oracle: the one-process kernel's levels, and the corruptions every rank must agree on.
#include "bfs/bfs.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "bfs/distributed/distributed_bfs.hpp"
#include "bfs/distributed/graph500.hpp"
#include "bfs/distributed/verify.hpp"
#include "bfs/graph500.hpp"
#include "graph/builder.hpp"
#include "graph/generator.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::bfs;
using namespace ulibc::bfs::distributed;
using ulibc::graph::CsrGraph;
using ulibc::graph::EdgeList;
using ulibc::graph::KroneckerParams;
using ulibc::graph::Tuples;

int ranks() { return ulibc::mpi::place_in(MPI_COMM_WORLD).size; }
int rank() { return ulibc::mpi::place_in(MPI_COMM_WORLD).rank; }

// Every grid the job's rank count can form.
std::vector<GridShape> grids() {
  std::vector<GridShape> out;
  for (int r = 1; r <= ranks(); ++r)
    if (ranks() % r == 0) out.push_back({r, ranks() / r});
  return out;
}

const KroneckerParams kSmall{.scale = 10, .edgefactor = 8, .seed = 7};

// Each vertex's BFS level in a whole parent array (-1 unreached).
std::vector<int> levels_of(const std::vector<Vertex>& parent) {
  std::vector<int> level(parent.size(), -1);
  for (std::size_t v = 0; v < parent.size(); ++v) {
    if (parent[v] == kUnreached) continue;
    int depth = 0;
    for (Vertex x = static_cast<Vertex>(v); parent[x] != x && depth <= static_cast<int>(parent.size()); x = parent[x])
      ++depth;
    level[v] = depth;
  }
  return level;
}

// The job's refusal (mpi/comm.hpp): a fault that several ranks meet is the lowest one's, the others leave quietly.
TEST(Together, AFaultManyRanksMeetIsSaidByTheLowest) {
  const int last = ranks() - 1;
  try {
    ulibc::mpi::together(MPI_COMM_WORLD, [] {
      if (rank() > 0 || ranks() == 1) throw ulibc::input_error("rank " + std::to_string(rank()));
    });
    ADD_FAILURE() << "no rank threw";
  } catch (const ulibc::mpi::FailedElsewhere& e) {
    EXPECT_NE(rank(), std::min(1, last));
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::input);
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(rank(), std::min(1, last));
    EXPECT_EQ(std::string(e.what()), "rank " + std::to_string(rank()));
  }
  EXPECT_NO_THROW(ulibc::mpi::together(MPI_COMM_WORLD, [] {}));
}

TEST(Grid, SquarestGridsAndParsing) {
  EXPECT_EQ(squarest_grid(1).name(), "1x1");
  EXPECT_EQ(squarest_grid(2).name(), "2x1");
  EXPECT_EQ(squarest_grid(3).name(), "3x1");
  EXPECT_EQ(squarest_grid(4).name(), "2x2");
  EXPECT_EQ(squarest_grid(8).name(), "4x2");
  EXPECT_EQ(squarest_grid(12).name(), "4x3");
  EXPECT_EQ(parse_grid("2x3", 6).name(), "2x3");
  EXPECT_THROW(parse_grid("2x2", 3), ulibc::Error);
  EXPECT_THROW(parse_grid("2x", 2), ulibc::Error);
  EXPECT_THROW(parse_grid("0x2", 0), ulibc::Error);
  EXPECT_THROW(parse_grid("-1x-2", 2), ulibc::Error);
}

TEST(Grid, BlocksCoverTheVerticesAndOwnersAgree) {
  for (const std::int64_t n : {std::int64_t{64} * ranks(), std::int64_t{1000}, std::int64_t{4096}}) {
    const Grid g(MPI_COMM_WORLD, squarest_grid(ranks()), n);
    EXPECT_EQ(g.first(0), 0);
    EXPECT_EQ(g.last(g.ranks() - 1), n);
    for (int p = 0; p < g.ranks(); ++p) {
      EXPECT_GT(g.block_size(p), 0);
      EXPECT_EQ(g.first(p) % 64, 0);
      for (Vertex v = g.first(p); v < g.last(p); ++v) ASSERT_EQ(g.owner(v), p) << "vertex " << v << " of " << n;
    }
  }
}

// Every column index of the rank's own column goes back to its vertex, for every grid, blocks of unequal sizes
// included.
TEST(Grid, ColumnIndicesTurnBackIntoTheirVertices) {
  for (const GridShape shape : grids())
    for (const std::int64_t n : {std::int64_t{64} * ranks(), std::int64_t{1000}, std::int64_t{4096}}) {
      const Grid g(MPI_COMM_WORLD, shape, n);
      const int col = g.col_of(g.rank());
      for (int k = 0; k < shape.rows; ++k) {
        const int p = g.rank_at(k, col);
        for (Vertex u = g.first(p); u < g.last(p); ++u) {
          const std::int64_t i = g.col_index(u);
          ASSERT_EQ(g.col_vertex(i), u) << shape.name() << ", " << n << " vertices";
        }
      }
    }
}
TEST(Grid, RefusesAJobTooLargeForTheGraphOrAGridOfAnotherSize) {
  if (ranks() > 1) {
    EXPECT_THROW(Grid(MPI_COMM_WORLD, squarest_grid(ranks()), 64 * ranks() - 64), ulibc::Error);
  }
  EXPECT_THROW(Grid(MPI_COMM_WORLD, {ranks(), 2}, 4096), ulibc::Error);
}

// Every arc of the one-process graph lies on exactly one rank, in the block its ends say.
TEST(BlockGraph, EveryArcOnExactlyOneRankOfEveryGrid) {
  const EdgeList list = ulibc::graph::kronecker(kSmall, 1);
  ulibc::graph::BuildReport whole_report;
  const CsrGraph whole = ulibc::graph::build_undirected(list, 1, &whole_report);
  for (const GridShape shape : grids()) {
    SCOPED_TRACE(shape.name());
    const Grid g(MPI_COMM_WORLD, shape, list.vertices);
    ulibc::graph::BuildReport report;
    const BlockGraph block(Tuples(kSmall), g, 2, &report);
    EXPECT_EQ(block.arcs(), whole.arcs());
    EXPECT_EQ(report.self_loops, whole_report.self_loops);
    EXPECT_EQ(report.duplicates, whole_report.duplicates);
    std::vector<std::int64_t> mine;  // u * n + v for each arc held here
    const int col = g.col_of(g.rank());
    for (Vertex i = 0; i < g.row_size(); ++i)
      for (const std::uint32_t j : block.sources(i)) {
        const Vertex v = g.row_first() + i, u = g.col_vertex(j);
        EXPECT_EQ(g.col_of(g.owner(u)), col);
        mine.push_back(std::int64_t{u} * list.vertices + v);
      }
    int count = static_cast<int>(mine.size());
    std::vector<int> counts(static_cast<std::size_t>(ranks())), displs(counts.size(), 0);
    MPI_Allgather(&count, 1, MPI_INT, counts.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (std::size_t r = 1; r < counts.size(); ++r) displs[r] = displs[r - 1] + counts[r - 1];
    std::vector<std::int64_t> all(static_cast<std::size_t>(displs.back() + counts.back()));
    MPI_Allgatherv(mine.data(), count, MPI_INT64_T, all.data(), counts.data(), displs.data(), MPI_INT64_T,
                   MPI_COMM_WORLD);
    std::sort(all.begin(), all.end());
    std::vector<std::int64_t> expected;
    for (Vertex u = 0; u < whole.vertices(); ++u)
      for (const Vertex v : whole.neighbours(u)) expected.push_back(std::int64_t{u} * list.vertices + v);
    std::sort(expected.begin(), expected.end());
    EXPECT_EQ(all, expected);
    for (Vertex i = 0; i < g.block_size(g.rank()); ++i) ASSERT_EQ(block.degree(i), whole.degree(g.first(g.rank()) + i));
  }
}

// Every search of every grid, thread count and direction: valid by the distributed validator, with the one-process
// kernel's levels.
TEST(DistributedBfs, LevelsEqualTheOneProcessKernelsOnEveryGrid) {
  const EdgeList list = ulibc::graph::kronecker(kSmall, 1);
  const CsrGraph whole = ulibc::graph::build_undirected(list, 1);
  Bfs oracle(whole, 1);
  const std::vector<Vertex> roots = choose_roots(whole, 3, 3);
  for (const GridShape shape : grids())
    for (const int threads : {1, 2}) {
      // Two threads a rank on the squarest grid alone: the teams' loops are the same on every grid.
      if (threads == 2 && shape.name() != squarest_grid(ranks()).name()) continue;
      DistributedBfs bfs(Tuples(kSmall), MPI_COMM_WORLD, shape, threads);
      for (const Direction d : {Direction::optimizing, Direction::top_down, Direction::bottom_up})
        for (const Vertex root : roots) {
          SCOPED_TRACE(testing::Message() << shape.name() << ", " << threads << " threads, direction "
                                          << static_cast<int>(d) << ", root " << root);
          const std::span<const Vertex> mine = bfs.search(root, {.direction = d});
          const Validation v = validate(Tuples(kSmall), bfs.grid(), root, mine, threads);
          EXPECT_TRUE(v.valid) << v.failure;
          const std::vector<Vertex> all = bfs.gather_parents(0);
          if (rank() != 0) continue;
          const std::span<const Vertex> expected = oracle.search(root);
          EXPECT_EQ(levels_of(all), levels_of({expected.begin(), expected.end()}));
          EXPECT_EQ(v.reached, std::count_if(all.begin(), all.end(), [](Vertex p) { return p != kUnreached; }));
        }
    }
}

TEST(DistributedBfs, OptimizingSearchGoesBottomUpAndCountsItsTraffic) {
  DistributedBfs bfs(Tuples(kSmall), MPI_COMM_WORLD, squarest_grid(ranks()), 1);
  const CsrGraph whole = ulibc::graph::build_undirected(ulibc::graph::kronecker(kSmall, 1), 1);
  bfs.search(choose_roots(whole, 1, 3).front());
  const auto& levels = bfs.levels();
  EXPECT_TRUE(
      std::any_of(levels.begin(), levels.end(), [](const Level& l) { return l.direction == Direction::bottom_up; }));
  EXPECT_EQ(levels.front().direction, Direction::top_down);
  std::int64_t sent = 0, received = 0;
  for (const Level& l : levels) sent += l.bytes.sent, received += l.bytes.received;
  if (ranks() == 1) {
    EXPECT_EQ(sent, 0);
    EXPECT_EQ(received, 0);
  } else {
    EXPECT_GT(sent, 0);
    EXPECT_GT(received, 0);
  }
  // Every byte one rank sends, another receives.
  std::int64_t totals[2] = {sent, received};
  MPI_Allreduce(MPI_IN_PLACE, totals, 2, MPI_INT64_T, MPI_SUM, MPI_COMM_WORLD);
  EXPECT_EQ(totals[0], totals[1]);
}

// What --root is checked against before any graph is built: a vertex, with an edge that is not a self-loop.
TEST(Graph500, KeysWithoutEdgesAreRefusedByTheWholeJob) {
  EdgeList list;
  list.vertices = 64 * ranks();
  list.edges = {{0, 1}, {2, 2}};
  const Tuples tuples(list);
  EXPECT_NO_THROW(check_roots(tuples, {0, 1}, MPI_COMM_WORLD, 1));
  for (const Vertex bad : {Vertex{2}, Vertex{3}, Vertex{-1}, static_cast<Vertex>(list.vertices)}) {
    try {
      check_roots(tuples, {0, bad}, MPI_COMM_WORLD, 1);
      ADD_FAILURE() << "root " << bad << " accepted";
    } catch (const ulibc::mpi::FailedElsewhere&) {
      EXPECT_NE(rank(), 0);
    } catch (const ulibc::Error& e) {
      EXPECT_EQ(rank(), 0);
      EXPECT_NE(std::string(e.what()).find("--root " + std::to_string(bad)), std::string::npos) << e.what();
    }
  }
}

TEST(DistributedBfs, RefusesARootOutsideTheGraphOnEveryRank) {
  DistributedBfs bfs(Tuples(kSmall), MPI_COMM_WORLD, squarest_grid(ranks()), 1);
  EXPECT_THROW(bfs.search(1 << kSmall.scale), ulibc::Error);
  EXPECT_THROW(bfs.search(0, {.alpha = 0}), ulibc::Error);
}

// A valid search, corrupted on the rank that owns the vertex changed: the validator says so on every rank.
class Corrupted : public testing::Test {
 protected:
  void SetUp() override {
    whole_ = ulibc::graph::build_undirected(ulibc::graph::kronecker(kSmall, 1), 1);
    root_ = choose_roots(whole_, 1, 3).front();
    Bfs one_process(whole_, 1);
    const std::span<const Vertex> p = one_process.search(root_);
    parent_.assign(p.begin(), p.end());
    level_ = levels_of(parent_);
  }
  // The validator's verdict on parent_ changed at v to p.
  Validation with(Vertex v, Vertex p) {
    std::vector<Vertex> changed = parent_;
    changed[v] = p;
    const Grid g(MPI_COMM_WORLD, squarest_grid(ranks()), whole_.vertices());
    const std::span<const Vertex> mine(changed.data() + g.first(g.rank()), g.block_size(g.rank()));
    return validate(Tuples(kSmall), g, root_, mine, 2);
  }
  bool adjacent(Vertex a, Vertex b) const {
    const auto n = whole_.neighbours(a);
    return std::find(n.begin(), n.end(), b) != n.end();
  }
  bool is_parent(Vertex v) const {
    return std::any_of(parent_.begin(), parent_.end(), [&](Vertex p) { return p == v; });
  }
  // The last vertex (the last rank's, when the job has several) that satisfies `want`.
  template <class Want>
  Vertex last_such(Want want) const {
    for (Vertex v = whole_.vertices() - 1; v >= 0; --v)
      if (v != root_ && parent_[v] != kUnreached && want(v)) return v;
    return kUnreached;
  }

  CsrGraph whole_;
  Vertex root_ = 0;
  std::vector<Vertex> parent_;
  std::vector<int> level_;
};

TEST_F(Corrupted, UnchangedIsValid) {
  const Validation v = with(root_, root_);
  EXPECT_TRUE(v.valid) << v.failure;
}

TEST_F(Corrupted, AParentThatIsNotANeighbour) {
  // A parent on the first rank, one level up, that is not a neighbour: only the tree edge is wrong.
  const Vertex v = last_such([&](Vertex x) { return level_[x] >= 2; });
  Vertex p = 0;
  while (level_[p] != level_[v] - 1 || adjacent(v, p)) ++p;
  const Validation r = with(v, p);
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.failure.find("check 3"), std::string::npos) << r.failure;
}

TEST_F(Corrupted, AWrongLevel) {
  // A neighbour on v's own level as parent: v drops a level, and its edge to its old parent spans two.
  const Vertex v = last_such([&](Vertex x) {
    if (is_parent(x)) return false;
    for (const Vertex u : whole_.neighbours(x))
      if (level_[u] == level_[x]) return true;
    return false;
  });
  ASSERT_NE(v, kUnreached);
  Vertex p = 0;
  for (const Vertex u : whole_.neighbours(v))
    if (level_[u] == level_[v]) p = u;
  const Validation r = with(v, p);
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.failure.find("check 4"), std::string::npos) << r.failure;
}

TEST_F(Corrupted, AMissedVertex) {
  // A leaf of the tree left unreached: an edge joins it to the reached part.
  const Vertex v = last_such([&](Vertex x) { return !is_parent(x); });
  const Validation r = with(v, kUnreached);
  EXPECT_FALSE(r.valid);
  EXPECT_NE(r.failure.find("check 5"), std::string::npos) << r.failure;
}

TEST_F(Corrupted, ALoopAndAnUnreachedParent) {
  const Vertex v = last_such([&](Vertex x) { return level_[x] >= 2; });
  const Validation loop = with(parent_[v], v);  // v's parent now points back at v
  EXPECT_FALSE(loop.valid);
  EXPECT_NE(loop.failure.find("check 2"), std::string::npos) << loop.failure;
  const Vertex unreached = static_cast<Vertex>(std::find(parent_.begin(), parent_.end(), kUnreached) - parent_.begin());
  if (unreached < whole_.vertices()) {
    const Validation r = with(v, unreached);
    EXPECT_FALSE(r.valid);
    EXPECT_NE(r.failure.find("check 2"), std::string::npos) << r.failure;
  }
  const Validation root = with(root_, v);
  EXPECT_FALSE(root.valid);
  EXPECT_NE(root.failure.find("check 1"), std::string::npos) << root.failure;
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const ulibc::mpi::Session mpi;
  return RUN_ALL_TESTS();
}
