// tasks/deque.hpp — a worker's task deque: the owner pushes and pops at the bottom, thieves take from the top.
//
// Chase and Lev, "Dynamic Circular Work-Stealing Deque" (SPAA 2005). The indices are read and written seq_cst, as
// the paper assumes, rather than with the weaker orders and fences of Lê et al. (PPoPP 2013): ThreadSanitizer
// does not model fences, and the pool's sleeping protocol needs a push to be a seq_cst store anyway (pool.cpp). The
// ring grows by doubling; an outgrown ring is kept until the deque dies, since a thief may still be reading it.
#pragma once
#include <atomic>
#include <cstdint>
#include <limits>
#include <memory>
#include <vector>

#include "ulibc/tasks.hpp"

namespace ulibc::tasks::detail {

class TaskDeque {
 public:
  TaskDeque() : ring_(new Ring(kFirstCapacity)) { rings_.emplace_back(ring_.load(std::memory_order_relaxed)); }

  // Owner only.
  void push(Task* t) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    Ring* r = ring_.load(std::memory_order_relaxed);
    if (b - seen_top_ > r->mask) {  // full as last seen: look again, since thieves may have taken some since
      seen_top_ = top_.load(std::memory_order_acquire);
      if (b - seen_top_ > r->mask) r = grow(r, seen_top_, b);
    }
    r->at(b).store(t, std::memory_order_relaxed);
    r->begin_at(b).store(t->begin, std::memory_order_relaxed);
    bottom_.store(b + 1, std::memory_order_seq_cst);  // publishes the task's fields to the thief that sees b + 1
  }

  // Owner only: the newest task, if its index is at least `floor`; nullptr otherwise or when empty.
  Task* pop(std::int64_t floor = 0) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed) - 1;
    if (b < floor) return nullptr;
    Ring* r = ring_.load(std::memory_order_relaxed);
    bottom_.store(b, std::memory_order_seq_cst);
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    if (t > b) {  // empty
      bottom_.store(b + 1, std::memory_order_relaxed);
      return nullptr;
    }
    Task* task = r->at(b).load(std::memory_order_relaxed);
    if (t == b) {  // the last one: race the thieves for it
      if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) task = nullptr;
      bottom_.store(b + 1, std::memory_order_relaxed);
    }
    return task;
  }

  // Any thread: the oldest task, if its range begins in [from, to); nullptr when empty, when it begins elsewhere, or
  // when another thread took it first. The begin is the ring's copy: the task itself may be gone by then.
  Task* steal(double from = -kInfinity, double to = kInfinity) {
    std::int64_t t = top_.load(std::memory_order_seq_cst);
    const std::int64_t b = bottom_.load(std::memory_order_seq_cst);
    if (t >= b) return nullptr;
    Ring* r = ring_.load(std::memory_order_acquire);
    Task* task = r->at(t).load(std::memory_order_relaxed);
    const double begin = r->begin_at(t).load(std::memory_order_relaxed);
    if (!(begin >= from && begin < to)) return nullptr;
    if (!top_.compare_exchange_strong(t, t + 1, std::memory_order_seq_cst, std::memory_order_relaxed)) return nullptr;
    return task;
  }

  std::int64_t bottom() const { return bottom_.load(std::memory_order_relaxed); }  // owner: the next push's index
  // Owner: whether it holds at least k tasks, give or take a steal in flight. Reads the top, which every steal
  // writes, only when the last top seen says so.
  bool holds_at_least(std::int64_t k) {
    const std::int64_t b = bottom_.load(std::memory_order_relaxed);
    if (b - seen_top_ < k) return false;
    seen_top_ = top_.load(std::memory_order_relaxed);
    return b - seen_top_ >= k;
  }
  bool looks_empty() const {  // any thread; a hint, racing with pushes and steals
    return top_.load(std::memory_order_seq_cst) >= bottom_.load(std::memory_order_seq_cst);
  }

 private:
  static constexpr std::int64_t kFirstCapacity = 256;
  static constexpr double kInfinity = std::numeric_limits<double>::infinity();
  struct Ring {  // each slot's task and the begin of its range (Task::begin)
    explicit Ring(std::int64_t capacity)
        : mask(capacity - 1), slots(new std::atomic<Task*>[capacity]), begins(new std::atomic<double>[capacity]) {}
    std::atomic<Task*>& at(std::int64_t i) { return slots[i & mask]; }
    std::atomic<double>& begin_at(std::int64_t i) { return begins[i & mask]; }
    std::int64_t mask;
    std::unique_ptr<std::atomic<Task*>[]> slots;
    std::unique_ptr<std::atomic<double>[]> begins;
  };

  Ring* grow(Ring* old, std::int64_t top, std::int64_t bottom) {
    auto bigger = std::make_unique<Ring>(2 * (old->mask + 1));
    for (std::int64_t i = top; i < bottom; ++i) {
      bigger->at(i).store(old->at(i).load(std::memory_order_relaxed), std::memory_order_relaxed);
      bigger->begin_at(i).store(old->begin_at(i).load(std::memory_order_relaxed), std::memory_order_relaxed);
    }
    Ring* r = bigger.get();
    rings_.push_back(std::move(bigger));
    ring_.store(r, std::memory_order_release);
    return r;
  }

  alignas(64) std::atomic<std::int64_t> top_{0};
  alignas(64) std::atomic<std::int64_t> bottom_{0};
  std::int64_t seen_top_ = 0;  // owner only: top_ when last read (at most top_: tops only grow)
  std::atomic<Ring*> ring_;
  std::vector<std::unique_ptr<Ring>> rings_;  // owner only: every ring made, the newest last
};

}  // namespace ulibc::tasks::detail
