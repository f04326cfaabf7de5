// global_memory/block_cache.cpp — the blocks, their pins, their least-recently-used order and their dirty bytes.
#include "global_memory/block_cache.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "ulibc/error.hpp"

namespace ulibc::global {

namespace {

constexpr std::size_t kBits = 64;

void mark(std::vector<std::uint64_t>& bits, std::size_t at, std::size_t count) {
  for (std::size_t i = at; i < at + count; ++i) bits[i / kBits] |= std::uint64_t{1} << (i % kBits);
}
bool marked(const std::vector<std::uint64_t>& bits, std::size_t i) { return (bits[i / kBits] >> (i % kBits)) & 1; }
bool any(const std::vector<std::uint64_t>& bits) {
  return std::any_of(bits.begin(), bits.end(), [](std::uint64_t w) { return w != 0; });
}

}  // namespace

BlockCache::BlockCache(std::uint64_t total_bytes, std::size_t block_bytes, std::size_t capacity, Backing& backing)
    : total_(total_bytes), block_bytes_(block_bytes), backing_(backing) {
  if (block_bytes == 0 || capacity == 0)
    throw input_error(fmt::format("software cache: {} blocks of {} bytes; it needs at least one block of one byte",
                                  capacity, block_bytes));
  slots_.resize(capacity);
  for (std::size_t i = capacity; i-- > 0;) free_.push_back(i);
}

std::size_t BlockCache::length_of(std::uint64_t block) const {
  return static_cast<std::size_t>(std::min<std::uint64_t>(block_bytes_, total_ - block * block_bytes_));
}

std::byte* BlockCache::pin(std::uint64_t block, bool read) {
  const auto it = where_.find(block);
  const bool cached = it != where_.end();
  const std::size_t i = cached ? it->second : place(block);
  Slot& s = slots_[i];
  if (cached) {
    ++stats_.hits;
    if (s.pins == 0) lru_.erase(s.age);  // unpinned cached blocks are the ones in the order
  } else {
    ++stats_.misses;
  }
  ++s.pins;
  if (read && !s.valid) fill(s);
  return s.data.data();
}

// A slot for block b, nothing in it valid or dirty yet.
std::size_t BlockCache::place(std::uint64_t block) {
  const std::size_t i = take_slot();
  Slot& s = slots_[i];
  s.block = block;
  s.valid = false;
  s.data.resize(block_bytes_);
  s.dirty.assign((block_bytes_ + kBits - 1) / kBits, 0);
  where_[block] = i;
  return i;
}

void BlockCache::unpin(std::uint64_t block, std::size_t at, std::size_t bytes, bool wrote) {
  Slot& s = slots_[where_.at(block)];
  if (wrote) mark(s.dirty, at, bytes);
  if (--s.pins == 0) s.age = lru_.insert(lru_.end(), where_.at(block));
}

// The block's bytes from home, but those a write-only use already wrote: those are newer.
void BlockCache::fill(Slot& s) {
  const std::size_t length = length_of(s.block);
  if (!any(s.dirty)) {
    backing_.fetch(s.block, {s.data.data(), length});
  } else {
    std::vector<std::byte> home(length);
    backing_.fetch(s.block, home);
    for (std::size_t i = 0; i < length; ++i)
      if (!marked(s.dirty, i)) s.data[i] = home[i];
  }
  s.valid = true;
  stats_.bytes_fetched += length;
}

// A free slot, else the least recently used unpinned one, written back and emptied.
std::size_t BlockCache::take_slot() {
  if (free_.empty()) {
    if (lru_.empty())
      throw input_error(
          fmt::format("software cache: all {} blocks are pinned by checkouts; a checkout needs more", slots_.size()));
    const std::size_t victim = lru_.front();
    store_dirty(slots_[victim]);
    backing_.complete();  // the slot's bytes are about to be overwritten
    drop(victim);
    ++stats_.evictions;
  }
  const std::size_t i = free_.back();
  free_.pop_back();
  return i;
}

// Each run of dirty bytes as one store.
void BlockCache::store_dirty(Slot& s) {
  const std::size_t length = length_of(s.block);
  for (std::size_t i = 0; i < length;) {
    if (!marked(s.dirty, i)) {
      ++i;
      continue;
    }
    std::size_t end = i;
    while (end < length && marked(s.dirty, end)) ++end;
    backing_.store(s.block, i, {s.data.data() + i, end - i});
    stats_.bytes_written_back += end - i;
    i = end;
  }
  std::fill(s.dirty.begin(), s.dirty.end(), 0);
}

void BlockCache::drop(std::size_t slot) {
  Slot& s = slots_[slot];
  lru_.erase(s.age);
  where_.erase(s.block);
  s.valid = false;
  free_.push_back(slot);
}

void BlockCache::write_back() {
  for (const auto& [block, slot] : where_) store_dirty(slots_[slot]);
  backing_.complete();
}

void BlockCache::invalidate() {
  write_back();
  while (!lru_.empty()) drop(lru_.front());
}

}  // namespace ulibc::global
