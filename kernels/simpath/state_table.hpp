// simpath/state_table.hpp — one step's distinct states, numbered as first seen.
//
// Open addressing over the states' hashes; the states themselves sit in one
// arena, `words` 64-bit words each. Used by one thread only (the step's
// owner), so it has no locks: this is the thread-local table of the EBA.
#pragma once
#include <bit>
#include <cstdint>
#include <cstring>
#include <memory>
#include <vector>

#include "simpath/memory_budget.hpp"
#include "simpath/state_words.hpp"

namespace ulibc::simpath::detail {

class StateTable {
 public:
  static constexpr std::uint32_t kFull = 0xFFFFFFFF;  // find_or_insert: the budget ran out

  StateTable(int words, MemoryBudget& budget) : words_(words), budget_(&budget) {}
  StateTable(const StateTable&) = delete;
  StateTable& operator=(const StateTable&) = delete;
  ~StateTable() { release(); }

  std::uint32_t size() const { return size_; }

  // Room for about `n` states without growing; a hint, false when the budget refuses.
  bool reserve(std::uint32_t n) {
    std::size_t slots = 64;
    while (slots < 2 * static_cast<std::size_t>(n)) slots *= 2;
    if (slots <= slots_.size()) return true;
    if (size_ != 0) return grow_to(slots);
    slots_.assign(slots, 0);
    shift_ = 64 - std::countr_zero(slots);
    if (!reallocate_arena(static_cast<std::size_t>(n) * words_)) return false;
    return account();
  }
  const std::uint64_t* state(std::uint32_t index) const { return arena_.get() + std::size_t{index} * words_; }

  struct Found {
    std::uint32_t index;
    bool inserted;
  };
  std::uint64_t hash(const std::uint64_t* state) const { return hash_words(state, words_); }
  // A lookup in a table larger than the caches waits twice for memory: for
  // the slot, then for the state it names. The search works in batches and
  // calls prefetch_slot for each state of a batch, then prefetch_state, then
  // find_or_insert, so that both waits overlap with other work.
  void prefetch_slot(std::uint64_t h) const {
    if (!slots_.empty()) __builtin_prefetch(slots_.data() + home(h));
  }
  void prefetch_state(std::uint64_t h) const {
    if (slots_.empty()) return;
    const std::uint64_t slot = slots_[home(h)];
    if (slot != 0 && slot >> 32 == h >> 32) __builtin_prefetch(state(static_cast<std::uint32_t>(slot) - 1));
  }

  // The index of `state` (whose hash() is h), inserting it if new; index
  // kFull when the budget (or the 32-bit index space) is exhausted.
  Found find_or_insert(const std::uint64_t* state, std::uint64_t h) {
    if (2 * (std::uint64_t{size_} + 1) > slots_.size() && !grow()) return {kFull, false};
    const std::uint64_t tag = h >> 32 << 32;
    const std::size_t mask = slots_.size() - 1;
    for (std::size_t i = home(h);; i = (i + 1) & mask) {
      const std::uint64_t slot = slots_[i];
      if (slot == 0) {
        if (!reserve_arena()) return {kFull, false};
        copy_words(state, arena_.get() + std::size_t{size_} * words_, words_);
        slots_[i] = tag | (std::uint64_t{size_} + 1);
        return {size_++, true};
      }
      if ((slot & ~0xFFFFFFFFull) == tag) {
        const auto index = static_cast<std::uint32_t>((slot & 0xFFFFFFFF) - 1);
        if (equal_words(this->state(index), state, words_)) return {index, false};
      }
    }
  }

  // Frees everything, returning the bytes to the budget.
  void release() {
    budget_->give(accounted_);
    accounted_ = 0;
    arena_.reset();
    arena_capacity_ = 0;
    std::vector<std::uint64_t>().swap(slots_);
    size_ = 0;
  }

 private:
  bool account() {
    const std::uint64_t now = (arena_capacity_ + slots_.capacity()) * 8;
    if (now > accounted_) {
      const bool ok = budget_->take(now - accounted_);
      accounted_ = now;
      return ok;
    }
    budget_->give(accounted_ - now);
    accounted_ = now;
    return true;
  }
  // Room for one more state. The arena is not a vector: growing one zeroes
  // what it adds, and every word is written anyway.
  bool reserve_arena() {
    const std::size_t need = (std::size_t{size_} + 1) * words_;
    if (need <= arena_capacity_) return true;
    if (size_ >= 0xFFFFFFF0u) return false;
    return reallocate_arena(std::max<std::size_t>(need, 2 * arena_capacity_));
  }
  bool reallocate_arena(std::size_t words) {
    if (words <= arena_capacity_) return true;
    std::unique_ptr<std::uint64_t[]> bigger(new std::uint64_t[words]);
    if (size_ > 0) std::memcpy(bigger.get(), arena_.get(), std::size_t{size_} * words_ * 8);
    arena_ = std::move(bigger);
    arena_capacity_ = words;
    return account();
  }
  bool grow() { return grow_to(std::max<std::size_t>(64, 2 * slots_.size())); }
  bool grow_to(std::size_t slots) {
    std::vector<std::uint64_t> old(slots, 0);
    old.swap(slots_);
    if (!account()) return false;
    shift_ = 64 - std::countr_zero(slots_.size());
    const std::size_t mask = slots_.size() - 1;
    for (std::uint64_t slot : old) {
      if (slot == 0) continue;
      std::size_t i = home(slot);  // the slot keeps the hash's high half: no state is read
      while (slots_[i] != 0) i = (i + 1) & mask;
      slots_[i] = slot;
    }
    return true;
  }
  // A slot's home is a function of the hash's high half alone, which the slot
  // keeps, so growing the table never reads the states.
  std::size_t home(std::uint64_t h) const {
    return static_cast<std::size_t>(((h >> 32) * 0x9E3779B97F4A7C15ull) >> shift_);
  }

  int words_;
  MemoryBudget* budget_;
  std::uint64_t accounted_ = 0;
  std::unique_ptr<std::uint64_t[]> arena_;  // size_ states
  std::size_t arena_capacity_ = 0;          // words
  std::vector<std::uint64_t> slots_;        // 0 empty, else the hash's high half | index + 1
  int shift_ = 64;                          // 64 - log2(slots)
  std::uint32_t size_ = 0;
};

}  // namespace ulibc::simpath::detail
