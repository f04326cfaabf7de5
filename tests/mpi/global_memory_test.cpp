// tests/mpi/global_memory_test.cpp — global arrays over however many ranks mpirun starts: what one rank writes,
// every rank reads after a barrier, through this machine's shared memory and through the software cache (MPI_Get
// and MPI_Put), for block and cyclic distributions; bad checkouts refused.
#include "global_memory/global_memory.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string>

#include "global_memory/global_array.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace {

using namespace ulibc::global;

int ranks() { return ulibc::mpi::place_in(MPI_COMM_WORLD).size; }
int rank() { return ulibc::mpi::place_in(MPI_COMM_WORLD).rank; }

std::uint64_t value_of(std::uint64_t i, int round) { return i * 2654435761u + static_cast<std::uint64_t>(round); }

std::uint64_t get(GlobalMemory& g, std::uint64_t i) {
  const auto c = g.checkout(i * 8, 8, Access::read);
  std::uint64_t v = 0;
  std::memcpy(&v, c.data(), 8);
  return v;
}

// Both ways a rank reaches another's memory: directly on this machine, and through the cache as on a cluster.
struct Case {
  const char* name;
  bool cyclic;
  GlobalOptions options;
};
const Case kCases[] = {
    {"block, shared memory", false, {.block_bytes = 64, .cache_blocks = 4, .share_machine = true}},
    {"block, cached", false, {.block_bytes = 64, .cache_blocks = 4, .share_machine = false}},
    {"cyclic, cached", true, {.block_bytes = 48, .cache_blocks = 3, .share_machine = false}},
    {"cyclic, shared memory", true, {.block_bytes = 48, .cache_blocks = 3, .share_machine = true}},
};

Distribution distribution(const Case& c, std::uint64_t n) {
  return c.cyclic ? Distribution::cyclic(n, 8, ranks(), 5) : Distribution::block(n, 8, ranks());
}

// Each rank writes the elements i with i % ranks == rank, in ranges that cross blocks and homes; after a barrier
// every rank reads every element back, and again after a second round rewrote them all. A cache of three or four
// blocks evicts all along.
TEST(GlobalMemory, WhatAnyRankWritesEveryRankReadsAfterABarrier) {
  constexpr std::uint64_t kElements = 301;
  for (const Case& c : kCases) {
    SCOPED_TRACE(c.name);
    GlobalMemory g(MPI_COMM_WORLD, distribution(c, kElements), c.options);
    for (int round = 0; round < 2; ++round) {
      for (std::uint64_t i = static_cast<std::uint64_t>(rank()); i < kElements;
           i += static_cast<std::uint64_t>(ranks())) {
        auto w = g.checkout(i * 8, 8, round == 0 ? Access::write : Access::read_write);
        const std::uint64_t v = value_of(i, round);
        std::memcpy(w.data(), &v, 8);
      }
      g.barrier();
      for (std::uint64_t i = 0; i < kElements; ++i) ASSERT_EQ(get(g, i), value_of(i, round)) << "element " << i;
      g.barrier();
    }
    if (!c.options.share_machine && ranks() > 1) {
      EXPECT_GT(g.stats().cache.misses, 0u);
      EXPECT_GT(g.stats().cache.evictions, 0u);
      EXPECT_GT(g.stats().cache.bytes_written_back, 0u);
    }
  }
}

// Ranks write neighbouring bytes of one block, one after the other, each through a cached copy that holds nothing
// of the others' bytes (a write-only checkout fetches nothing): each write-back must send its own byte alone.
TEST(GlobalMemory, NeighbouringBytesOfOneBlockWrittenByEveryRankAllSurvive) {
  const GlobalOptions cached{.block_bytes = 64, .cache_blocks = 2, .share_machine = false};
  GlobalMemory g(MPI_COMM_WORLD, Distribution::block(64, 1, ranks()), cached);
  for (int writer = 0; writer < ranks(); ++writer) {
    if (rank() == writer) {
      auto w = g.checkout(static_cast<std::uint64_t>(rank()), 1, Access::write);
      w.data()[0] = static_cast<std::byte>(100 + rank());
    }
    g.barrier();
  }
  const auto all = g.checkout(0, 64, Access::read);
  for (int r = 0; r < ranks(); ++r) EXPECT_EQ(all.data()[r], static_cast<std::byte>(100 + r)) << "rank " << r;
}

// A long range read and written in one checkout (staged across blocks), then read back by the next rank.
TEST(GlobalMemory, RangesOverManyBlocksAreCopiedInAndOut) {
  const GlobalOptions cached{.block_bytes = 32, .cache_blocks = 16, .share_machine = false};
  GlobalMemory g(MPI_COMM_WORLD, Distribution::cyclic(400, 1, ranks(), 7), cached);
  if (rank() == 0) {
    auto w = g.checkout(10, 300, Access::write);
    for (int i = 0; i < 300; ++i) w.data()[i] = static_cast<std::byte>(i % 256);
  }
  g.barrier();
  if (rank() == ranks() - 1) {
    auto r = g.checkout(10, 300, Access::read_write);
    for (int i = 0; i < 300; ++i) ASSERT_EQ(r.data()[i], static_cast<std::byte>(i % 256)) << "byte " << i;
    r.data()[0] = std::byte{0xEE};
  }
  g.barrier();
  EXPECT_EQ(g.checkout(10, 1, Access::read).data()[0], std::byte{0xEE});
}

// Each rank fills its own share with its rank; every byte read back names the home the distribution gives it.
TEST(GlobalMemory, EachRanksOwnShareIsWhereTheDistributionSays) {
  const GlobalOptions cached{.block_bytes = 16, .cache_blocks = 64, .share_machine = false};
  for (const Distribution& d : {Distribution::block(203, 1, ranks()), Distribution::cyclic(203, 1, ranks(), 6)}) {
    GlobalMemory g(MPI_COMM_WORLD, d, cached);
    ASSERT_EQ(g.own().size(), d.elements_on(rank()));
    std::memset(g.own().data(), rank(), g.own().size());
    g.barrier();
    const auto all = g.checkout(0, 203, Access::read);
    for (std::uint64_t i = 0; i < 203; ++i)
      ASSERT_EQ(all.data()[i], static_cast<std::byte>(d.locate(i).home)) << "byte " << i;
  }
}

TEST(GlobalMemory, CheckoutsOutsideTheArrayOrBeyondTheCacheAreRefused) {
  const GlobalOptions cached{.block_bytes = 16, .cache_blocks = 4, .share_machine = false};
  GlobalMemory g(MPI_COMM_WORLD, Distribution::block(100, 1, ranks()), cached);
  try {
    g.checkout(90, 11, Access::read);
    ADD_FAILURE() << "a checkout past the end was taken";
  } catch (const ulibc::Error& e) {
    EXPECT_NE(std::string(e.what()).find("outside the global array's 100 bytes"), std::string::npos) << e.what();
  }
  EXPECT_THROW(g.checkout(~std::uint64_t{0}, 2, Access::read), ulibc::Error);
  if (ranks() > 1) {  // on one rank every byte is this rank's own, read directly
    try {
      g.checkout(0, 80, Access::read);
      ADD_FAILURE() << "a checkout of five blocks was taken by a cache of four";
    } catch (const ulibc::Error& e) {
      EXPECT_NE(std::string(e.what()).find("the cache holds 4"), std::string::npos) << e.what();
    }
  }
  g.barrier();
}

// The typed array: each rank writes its strided elements one at a time, then every rank sums [100, 900) in pieces
// of 32 elements (each over several cache blocks) and gets what the formula gives.
void expect_sums_alike(GlobalArray<double>& a) {
  for (std::uint64_t i = static_cast<std::uint64_t>(rank()); i < a.size(); i += static_cast<std::uint64_t>(ranks()))
    a.write(i, 1)[0] = 0.5 * static_cast<double>(i);
  a.memory().barrier();
  double sum = 0;
  for (std::uint64_t first = 100; first < 900; first += 32) {
    const auto piece = a.read(first, 32);
    for (const double x : piece.span()) sum += x;
  }
  EXPECT_EQ(sum, 0.5 * (100 + 899) * 800 / 2);
  EXPECT_THROW(a.read(990, 11), ulibc::Error);
  a.memory().barrier();
}

TEST(GlobalArray, ElementsWrittenAnywhereSumAlikeEverywhere) {
  const GlobalOptions cached{.block_bytes = 64, .cache_blocks = 8, .share_machine = false};
  auto blocks = GlobalArray<double>::block(MPI_COMM_WORLD, 1000, cached);
  expect_sums_alike(blocks);
  auto chunks = GlobalArray<double>::cyclic(MPI_COMM_WORLD, 1000, 7, cached);
  expect_sums_alike(chunks);
  EXPECT_EQ(chunks.own().size(), chunks.memory().distribution().elements_on(rank()));
}

// A share beyond the machine's memory, or a distribution for another rank count: every rank refuses, none waits.
TEST(GlobalMemory, EveryRankRefusesAnArrayThatCannotBeMade) {
  EXPECT_THROW(GlobalMemory(MPI_COMM_WORLD, Distribution::block(std::uint64_t{1} << 58, 8, ranks())), ulibc::Error);
  EXPECT_THROW(GlobalMemory(MPI_COMM_WORLD, Distribution::block(10, 8, ranks() + 1)), ulibc::Error);
  EXPECT_THROW(GlobalMemory(MPI_COMM_WORLD, Distribution::block(10, 8, ranks()), {.cache_blocks = 0}), ulibc::Error);
  MPI_Barrier(MPI_COMM_WORLD);
}

}  // namespace

int main(int argc, char** argv) {
  ::testing::InitGoogleTest(&argc, argv);
  const ulibc::mpi::Session mpi;
  return RUN_ALL_TESTS();
}
