// tests/mpi/rank_tasks_test.cpp — tasks that move between ranks: packed on one rank, sent as bytes, run on the next;
// what may not move fails to compile; a corrupted task is refused; the ranks agree on the kinds.
#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "rank_tasks/movable_task.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::rank_tasks;

int ranks() { return ulibc::mpi::place_in(MPI_COMM_WORLD).size; }
int rank() { return ulibc::mpi::place_in(MPI_COMM_WORLD).rank; }

// What a moved task did on the rank that ran it.
double g_result = 0;
std::uint64_t g_offset = 0;

struct Range {
  std::uint64_t first, last;
};

// Values, small structs of values and global offsets may move; what owns memory, or is too large, may not.
static_assert(Movable<decltype([a = 1, b = 2.0] { g_result = a + b; })>);
static_assert(Movable<decltype([r = Range{1, 2}] { g_offset = r.last - r.first; })>);
static_assert(!Movable<decltype([s = std::string("x")] { g_result = static_cast<double>(s.size()); })>);
static_assert(!Movable<decltype([v = std::vector<int>{1}] { g_result = v[0]; })>);
static_assert(!Movable<std::function<void()>>);
static_assert(!Movable<decltype([big = std::array<double, 16>{}] { g_result = big[0]; })>);
static_assert(!Movable<decltype([x = 1](int y) { g_result = x + y; })>);  // a task takes no argument

// Rank r packs tasks whose captures depend on r and sends them to r + 1; each rank runs what it receives and checks
// the result against what the sender's captures give.
TEST(MovableTask, TasksPackedOnOneRankRunOnTheNext) {
  const int to = (rank() + 1) % ranks(), from = (rank() + ranks() - 1) % ranks();
  const double a = 1.5 * rank();
  const std::uint64_t first = 100u * static_cast<unsigned>(rank());
  const MovedTask sent[2] = {pack([a, b = 2] { g_result = a * b; }),
                             pack([r = Range{first, first + 40}] { g_offset = r.last + r.first; })};
  MovedTask got[2];
  ulibc::mpi::check(MPI_Sendrecv(sent, static_cast<int>(sizeof sent), MPI_BYTE, to, 0, got,
                                 static_cast<int>(sizeof got), MPI_BYTE, from, 0, MPI_COMM_WORLD, MPI_STATUS_IGNORE),
                    "MPI_Sendrecv");
  run(got[0]);
  EXPECT_EQ(g_result, 1.5 * from * 2);
  run(got[1]);
  EXPECT_EQ(g_offset, 2 * 100u * static_cast<unsigned>(from) + 40);
  EXPECT_NE(got[0].kind, got[1].kind);
}

TEST(MovableTask, EveryRankNamesTheKindsAlike) {
  EXPECT_GE(kinds(), 2u);
  EXPECT_NO_THROW(check_same_kinds(MPI_COMM_WORLD));
  std::uint64_t mine = fingerprint(), low = 0;
  MPI_Allreduce(&mine, &low, 1, MPI_UINT64_T, MPI_MIN, MPI_COMM_WORLD);
  EXPECT_EQ(low, mine);
}

TEST(MovableTask, ACorruptedTaskIsRefusedNotRun) {
  MovedTask t = pack([c = 7] { g_result = c; });
  MovedTask foreign = t;
  foreign.kind = static_cast<std::uint32_t>(kinds()) + 3;
  try {
    run(foreign);
    ADD_FAILURE() << "a task of an unknown kind ran";
  } catch (const ulibc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("is not one of this program's"), std::string::npos) << e.what();
  }
  MovedTask cut = t;
  cut.bytes = 1;
  EXPECT_THROW(run(cut), ulibc::Error);
  g_result = 0;
  run(t);
  EXPECT_EQ(g_result, 7);
}

// Last in the file: it leaves rank 0 with a kind the others lack. Every rank refuses, none waits for the others.
TEST(MovableTask, RanksThatKnowDifferentKindsAllRefuse) {
  if (ranks() == 1) return;  // one rank always agrees with itself
  if (rank() == 0) ulibc::rank_tasks::detail::register_kind(nullptr, "a kind only rank 0 has", 1);
  try {
    check_same_kinds(MPI_COMM_WORLD);
    ADD_FAILURE() << "ranks with different kinds were let through";
  } catch (const ulibc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("they run different programs"), std::string::npos) << e.what();
  }
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const ulibc::mpi::Session mpi;
  return RUN_ALL_TESTS();
}
