// global_memory/block_cache.hpp — one rank's software cache of a global array's blocks, after Itoyori's (Shiina and
// Taura, "Itoyori: Reconciling Global Address Space and Global Fork-Join Task Parallelism", SC'23): fixed-size blocks
// fetched whole from their homes, pinned while a checkout uses them, replaced least recently used among the
// unpinned, and written back byte-exactly: only the bytes a checkout wrote go home, so two ranks that wrote
// neighbouring bytes of one block both survive the write-back.
//
// The cache moves no data itself: a Backing fetches and stores for it (MPI one-sided calls in GlobalMemory, plain
// copies in the tests). Used by one thread (the rank's MPI thread); not thread-safe.
#pragma once
#include <cstddef>
#include <cstdint>
#include <list>
#include <span>
#include <unordered_map>
#include <vector>

namespace ulibc::global {

struct CacheStats {
  std::uint64_t hits = 0, misses = 0;  // block uses found in the cache, and those that fetched
  std::uint64_t bytes_fetched = 0, bytes_written_back = 0;
  std::uint64_t evictions = 0;
};

class BlockCache {
 public:
  struct Backing {
    virtual ~Backing() = default;
    // Block b's bytes (the last block of the array may be short) from their homes into `into`, complete on return.
    virtual void fetch(std::uint64_t block, std::span<std::byte> into) = 0;
    // Bytes [at, at + bytes.size()) of block b to their homes; `bytes` must stay untouched until complete().
    virtual void store(std::uint64_t block, std::uint64_t at, std::span<const std::byte> bytes) = 0;
    virtual void complete() = 0;  // every store issued so far has reached its home
  };

  // A cache of `capacity` blocks of `block_bytes` over an array of `total_bytes`. Error(input) for a block or a
  // capacity of 0.
  BlockCache(std::uint64_t total_bytes, std::size_t block_bytes, std::size_t capacity, Backing& backing);

  std::size_t block_bytes() const { return block_bytes_; }
  std::size_t capacity() const { return slots_.size(); }
  std::uint64_t blocks() const { return (total_ + block_bytes_ - 1) / block_bytes_; }
  std::size_t length_of(std::uint64_t block) const;  // bytes of block b (the last may be short)

  // Block b, pinned until unpin(b). `read`: its bytes are fetched when absent; a write-only use fetches nothing
  // (the bytes it writes become dirty; the others are fetched if a later use reads them). Error(input) when every
  // slot is pinned.
  std::byte* pin(std::uint64_t block, bool read);
  // Ends one pin of block b; [at, at + bytes) of it were written when `wrote`.
  void unpin(std::uint64_t block, std::size_t at, std::size_t bytes, bool wrote);

  void write_back();  // every dirty byte stored and completed (a release)
  void invalidate();  // every unpinned block dropped, written back first (an acquire)
  const CacheStats& stats() const { return stats_; }

 private:
  struct Slot {
    std::uint64_t block = 0;
    bool valid = false;
    int pins = 0;
    std::vector<std::byte> data;
    std::vector<std::uint64_t> dirty;      // a bit per byte
    std::list<std::size_t>::iterator age;  // in lru_ while unpinned and used
  };
  std::size_t place(std::uint64_t block);
  std::size_t take_slot();
  void fill(Slot& s);
  void store_dirty(Slot& s);
  void drop(std::size_t slot);

  std::uint64_t total_;
  std::size_t block_bytes_;
  Backing& backing_;
  std::vector<Slot> slots_;
  std::unordered_map<std::uint64_t, std::size_t> where_;  // block -> slot
  std::list<std::size_t> lru_;                            // unpinned used slots, least recent first
  std::vector<std::size_t> free_;
  CacheStats stats_;
};

}  // namespace ulibc::global
