// simpath/memory_budget.hpp — the bytes the search holds, against a limit.
//
// A ZDD can outgrow any machine; the search counts what it allocates and
// stops cleanly at the limit (Error naming the size reached) instead of
// meeting the OOM killer. Shared by the threads of the parallel search.
#pragma once
#include <atomic>
#include <cstdint>

namespace ulibc::simpath::detail {

class MemoryBudget {
 public:
  explicit MemoryBudget(std::uint64_t limit) : limit_(limit) {}

  // Records an allocation of `bytes`; false (and the budget marked
  // exceeded) when it takes the total beyond the limit. The caller stops.
  bool take(std::uint64_t bytes) {
    const std::uint64_t now = in_use_.fetch_add(bytes, std::memory_order_relaxed) + bytes;
    std::uint64_t peak = peak_.load(std::memory_order_relaxed);
    while (now > peak && !peak_.compare_exchange_weak(peak, now, std::memory_order_relaxed)) {
    }
    if (now <= limit_) return true;
    exceeded_.store(true, std::memory_order_relaxed);
    return false;
  }
  void give(std::uint64_t bytes) { in_use_.fetch_sub(bytes, std::memory_order_relaxed); }

  bool exceeded() const { return exceeded_.load(std::memory_order_relaxed); }
  std::uint64_t limit() const { return limit_; }
  std::uint64_t in_use() const { return in_use_.load(std::memory_order_relaxed); }
  std::uint64_t peak() const { return peak_.load(std::memory_order_relaxed); }

 private:
  std::uint64_t limit_;
  std::atomic<std::uint64_t> in_use_{0};
  std::atomic<std::uint64_t> peak_{0};
  std::atomic<bool> exceeded_{false};
};

}  // namespace ulibc::simpath::detail
