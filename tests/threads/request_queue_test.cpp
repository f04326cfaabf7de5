// request_queue_test.cpp — the edge-based Simpath's hand-over queue (kernels/simpath/request_queue.hpp):
// one producer and one consumer thread, every record arriving whole and in
// order across many blocks, a closed queue ending, a refused block. Run on
// std::threads so that ThreadSanitizer sees the release/acquire pairs.
#include "simpath/request_queue.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <thread>
#include <vector>

namespace ulibc::simpath::detail {
namespace {

constexpr int kStateWords = 3;

// Record r: header (r, 3r), state (r, ~r, r * r).
void push_record(RequestQueue& q, std::uint64_t r) {
  const std::uint64_t state[kStateWords] = {r, ~r, r * r};
  ASSERT_TRUE(q.push(r, 3 * r, state, kStateWords));
}

bool record_is(const std::uint64_t* rec, std::uint64_t r) {
  return rec[0] == r && rec[1] == 3 * r && rec[2] == r && rec[3] == ~r && rec[4] == r * r;
}

TEST(RequestQueue, EveryRecordArrivesWholeAndInOrder) {
  MemoryBudget budget(UINT64_MAX);
  RequestQueue q(budget);
  constexpr std::uint64_t kRecords = 200000;  // about 120 blocks
  std::thread producer([&] {
    for (std::uint64_t r = 0; r < kRecords; ++r) push_record(q, r);
    q.close();
  });
  std::uint64_t next = 0;
  bool done = false;
  while (!done) {
    const std::uint64_t* rec = q.front(done);
    if (rec == nullptr) {
      std::this_thread::yield();
      continue;
    }
    ASSERT_TRUE(record_is(rec, next)) << "record " << next;
    q.pop(RequestQueue::kHeaderWords + kStateWords);
    ++next;
  }
  producer.join();
  EXPECT_EQ(next, kRecords);
  EXPECT_GT(budget.peak(), 0u);
}

TEST(RequestQueue, ABatchStaysReadableAcrossABlockChange) {
  MemoryBudget budget(UINT64_MAX);
  RequestQueue q(budget);
  constexpr std::uint64_t kRecords = 5000;  // several blocks, all pushed first
  for (std::uint64_t r = 0; r < kRecords; ++r) push_record(q, r);
  q.close();
  std::vector<const std::uint64_t*> held;
  std::uint64_t read = 0;
  bool done = false;
  while (!done) {
    const std::uint64_t* rec = q.front(done);
    if (rec == nullptr) continue;
    q.pop(RequestQueue::kHeaderWords + kStateWords);
    held.push_back(rec);
    if (held.size() == static_cast<std::size_t>(RequestQueue::kMinBlockRecords)) {
      for (std::size_t j = 0; j < held.size(); ++j) ASSERT_TRUE(record_is(held[j], read + j));
      read += held.size();
      held.clear();
    }
  }
  for (std::size_t j = 0; j < held.size(); ++j) ASSERT_TRUE(record_is(held[j], read + j));
  EXPECT_EQ(read + held.size(), kRecords);
}

TEST(RequestQueue, AClosedEmptyQueueIsDone) {
  MemoryBudget budget(UINT64_MAX);
  RequestQueue q(budget);
  bool done = false;
  EXPECT_EQ(q.front(done), nullptr);
  EXPECT_FALSE(done);  // not closed yet: records may still come
  std::thread closer([&] { q.close(); });
  closer.join();
  EXPECT_EQ(q.front(done), nullptr);
  EXPECT_TRUE(done);
}

TEST(RequestQueue, ABlockTheBudgetRefusesFailsThePush) {
  MemoryBudget budget(1024);  // less than one block
  RequestQueue q(budget);
  const std::uint64_t state[kStateWords] = {};
  EXPECT_FALSE(q.push(1, 2, state, kStateWords));
  EXPECT_TRUE(budget.exceeded());
}

}  // namespace
}  // namespace ulibc::simpath::detail
