// simpath/request_queue.hpp — the hand-over between neighbouring steps' threads.
//
// The edge-based parallel search (Takeuchi et al.) gives step i to thread
// i mod k: the owner of step i sends each child state, with the node waiting
// for it, to the owner of the child's step. One producer and one consumer per queue,
// so a block list with release/acquire counters is enough: no locks, no
// compare-and-swap. Unbounded, so a producer never waits for its consumer.
// Records are a two-word header and a state, whose length the consumer
// knows. The producer publishes its count every kPublishEvery records (and
// when it changes block or closes): a count written at every record had the
// two threads' cores passing its cache line back and forth, which cost more
// than the search itself.
#pragma once
#include <atomic>
#include <cstdint>
#include <cstring>

#include "simpath/memory_budget.hpp"
#include "simpath/state_words.hpp"

namespace ulibc::simpath::detail {

class RequestQueue {
 public:
  static constexpr int kHeaderWords = 2;
  static constexpr int kMaxRecordWords = kHeaderWords + 256 / 8;

  explicit RequestQueue(MemoryBudget& budget) : budget_(&budget) {}
  RequestQueue(const RequestQueue&) = delete;
  RequestQueue& operator=(const RequestQueue&) = delete;
  ~RequestQueue() {
    if (retired_ != nullptr) free_block(retired_);
    for (Block* b = head_ != nullptr ? head_ : first_.load(std::memory_order_acquire); b != nullptr;) {
      Block* next = b->next.load(std::memory_order_relaxed);
      free_block(b);
      b = next;
    }
  }

  // Producer. False when the budget refused a new block.
  bool push(std::uint64_t h0, std::uint64_t h1, const std::uint64_t* state, int state_words) {
    const auto words = static_cast<std::uint32_t>(kHeaderWords + state_words);
    if (tail_ == nullptr || tail_count_ + words > kBlockWords) {
      Block* b = new_block();
      if (b == nullptr) return false;
      if (tail_ == nullptr) {
        first_.store(b, std::memory_order_release);
      } else {
        publish();  // the block is whole before the consumer may move on
        tail_->next.store(b, std::memory_order_release);
      }
      tail_ = b;
      tail_count_ = 0;
    }
    std::uint64_t* r = tail_->words + tail_count_;
    r[0] = h0;
    r[1] = h1;
    copy_words(state, r + kHeaderWords, state_words);
    tail_count_ += words;
    if (++unpublished_ == kPublishEvery) publish();
    return true;
  }
  void close() {
    if (tail_ != nullptr) publish();
    closed_.store(true, std::memory_order_release);
  }

  // Consumer: the next record, or nullptr when none is there yet; `done` is
  // set when the producer has closed the queue and every record was read.
  // After reading its header, the consumer passes the record's length to
  // pop(). A record stays readable while fewer than kMinBlockRecords further
  // records are taken (its block is freed one block change later), so a
  // consumer may hold a batch of that many.
  const std::uint64_t* front(bool& done) {
    done = false;
    for (;;) {
      if (head_ == nullptr) {
        head_ = first_.load(std::memory_order_acquire);
        if (head_ == nullptr) {
          // The producer pushes before it closes: closed and still no block means none.
          if (!closed_.load(std::memory_order_acquire)) return nullptr;
          head_ = first_.load(std::memory_order_acquire);
          if (head_ == nullptr) {
            done = true;
            return nullptr;
          }
        }
      }
      if (head_pos_ < seen_) return record();
      seen_ = head_->count.load(std::memory_order_acquire);
      if (head_pos_ < seen_) return record();
      Block* next = head_->next.load(std::memory_order_acquire);
      if (next != nullptr) {
        // The producer finished this block before linking the next; re-read its count.
        if (head_pos_ < head_->count.load(std::memory_order_acquire)) continue;
        if (retired_ != nullptr) free_block(retired_);
        retired_ = head_;
        head_ = next;
        head_pos_ = 0;
        seen_ = 0;
        continue;
      }
      if (!closed_.load(std::memory_order_acquire)) return nullptr;
      if (head_pos_ < head_->count.load(std::memory_order_acquire)) continue;
      done = true;
      return nullptr;
    }
  }
  void pop(int record_words) { head_pos_ += static_cast<std::uint32_t>(record_words); }

 private:
  static constexpr std::uint32_t kBlockWords = 8192;  // 64 KiB
  static constexpr int kPublishEvery = 32;
  static constexpr std::uint32_t kAheadWords = 128;  // 1 KiB

 public:
  static constexpr int kMinBlockRecords = kBlockWords / kMaxRecordWords;

 private:
  struct Block {
    std::atomic<std::uint32_t> count{0};
    std::atomic<Block*> next{nullptr};
    std::uint64_t words[kBlockWords];
  };
  // The next record, with the lines a little further on asked for already:
  // they were written by the producer's core and come from its cache.
  const std::uint64_t* record() const {
    if (head_pos_ % 8 == 0 && head_pos_ + kAheadWords < kBlockWords)
      __builtin_prefetch(head_->words + head_pos_ + kAheadWords);
    return head_->words + head_pos_;
  }
  void publish() {
    tail_->count.store(tail_count_, std::memory_order_release);
    unpublished_ = 0;
  }
  Block* new_block() {
    if (!budget_->take(sizeof(Block))) return nullptr;
    return new Block;
  }
  void free_block(Block* b) {
    budget_->give(sizeof(Block));
    delete b;
  }

  MemoryBudget* budget_;
  std::atomic<Block*> first_{nullptr};  // the producer's first block, handed to the consumer
  // Producer side.
  Block* tail_ = nullptr;
  std::uint32_t tail_count_ = 0;
  int unpublished_ = 0;  // records pushed since the count was last published
  // Consumer side.
  alignas(64) Block* head_ = nullptr;
  std::uint32_t head_pos_ = 0;
  std::uint32_t seen_ = 0;    // the head block's count as last read
  Block* retired_ = nullptr;  // the block before head_, freed at the next change
  alignas(64) std::atomic<bool> closed_{false};
};

}  // namespace ulibc::simpath::detail
