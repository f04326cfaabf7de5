// bfs/frontier.hpp — the pieces a BFS level is made of: bitmaps of 64-vertex
// words, the counters that hand out a part's work in chunks, and the blocks
// in which a thread gathers the vertices it discovers before appending them
// to their part's queue.
//
// Internal to the BFS kernels (bfs.cpp); not part of the bfs.hpp contract.
#pragma once
#include <algorithm>
#include <atomic>
#include <bit>
#include <cstdint>
#include <span>
#include <vector>

#include "graph/edge_list.hpp"

namespace ulibc::bfs::detail {

using graph::Vertex;
using Word = std::uint64_t;

constexpr int kWordBits = 64;

constexpr std::int64_t words_for(std::int64_t vertices) { return (vertices + kWordBits - 1) / kWordBits; }
// Vertices are never negative: unsigned arithmetic spares the sign fix-ups of / and %.
constexpr std::int64_t word_of(Vertex v) { return static_cast<std::uint32_t>(v) / kWordBits; }
constexpr Word bit_of(Vertex v) { return Word{1} << (static_cast<std::uint32_t>(v) % kWordBits); }

inline bool test(const Word* bits, Vertex v) { return (bits[word_of(v)] & bit_of(v)) != 0; }

// Sets v's bit when no other thread has; true for the one call that set it.
// The plain load first: most neighbours met top-down are already visited,
// and a load leaves the line shared where fetch_or would take it exclusive.
inline bool claim(Word* bits, Vertex v) {
  std::atomic_ref<Word> word(bits[word_of(v)]);
  const Word bit = bit_of(v);
  if (word.load(std::memory_order_relaxed) & bit) return false;
  return (word.fetch_or(bit, std::memory_order_relaxed) & bit) == 0;
}

// Sets v's bit; for several threads filling the same words.
inline void set_shared(Word* bits, Vertex v) {
  std::atomic_ref<Word>(bits[word_of(v)]).fetch_or(bit_of(v), std::memory_order_relaxed);
}

// f(v) for each vertex v whose bit is set in word w.
template <class F>
void for_each_bit(Word bits, std::int64_t w, F&& f) {
  const auto base = static_cast<Vertex>(w * kWordBits);
  for (; bits != 0; bits &= bits - 1) f(static_cast<Vertex>(base + std::countr_zero(bits)));
}

// Counters that change meaning with each phase of a search (a stretch of
// work between two barriers): phase s uses slot s % 3. During phase s the
// slot of phase s + 1 is cleared; it was last used in phase s - 2, whose
// values every thread read at the start of phase s - 1, before the barrier
// that began phase s. So no counter is ever reset while in use, with one
// barrier per phase.
constexpr int kSlots = 3;
constexpr int slot(int phase) { return phase % kSlots; }

using Counter = std::atomic<std::int64_t>;
inline void clear_slot(Counter (&counters)[kSlots], int phase) {
  counters[slot(phase)].store(0, std::memory_order_relaxed);
}

// body(begin, end) over chunks of [begin, end) taken from `taken`, shared
// with the other threads working on the same range in the same phase.
template <class F>
void for_each_chunk(Counter& taken, std::int64_t begin, std::int64_t end, std::int64_t chunk, F&& body) {
  for (;;) {
    const std::int64_t i = begin + taken.fetch_add(chunk, std::memory_order_relaxed);
    if (i >= end) return;
    body(i, std::min(i + chunk, end));
  }
}

// body(position) over [begin, end) in chunks dealt like cards: with m
// chunks, chunk c holds positions c, c + m, c + 2m, ... Top-down frontiers
// come in degree order (each list is sorted by degree, and a list's
// neighbours are discovered in its order), so contiguous chunks would give
// the first thread the hubs, and nearly all the edges, of a small frontier.
template <class F>
void for_each_dealt(Counter& taken, std::int64_t begin, std::int64_t end, std::int64_t chunk, F&& body) {
  const std::int64_t chunks = (end - begin + chunk - 1) / chunk;
  for (;;) {
    const std::int64_t c = taken.fetch_add(1, std::memory_order_relaxed);
    if (c >= chunks) return;
    for (std::int64_t i = begin + c; i < end; i += chunks) body(i);
  }
}

// A thread's blocks of discovered vertices, one per part, each appended to
// its part's queue in one piece when full: appending vertex by vertex would
// make every discovery an atomic on one shared line.
class QueueBlocks {
 public:
  static constexpr std::size_t kBlock = 1024;  // vertices

  QueueBlocks() = default;
  explicit QueueBlocks(int parts) : fill_(static_cast<std::size_t>(parts), 0), data_(kBlock * fill_.size()) {}

  // Adds v to part p's block; append(p, block) when that block is full.
  template <class Append>
  void push(int p, Vertex v, Append&& append) {
    const auto i = static_cast<std::size_t>(p);
    data_[i * kBlock + fill_[i]++] = v;
    if (fill_[i] == kBlock) flush(p, append);
  }

  template <class Append>
  void flush(int p, Append&& append) {
    const auto i = static_cast<std::size_t>(p);
    if (fill_[i] == 0) return;
    append(p, std::span<const Vertex>(data_.data() + i * kBlock, fill_[i]));
    fill_[i] = 0;
  }

  template <class Append>
  void flush_all(Append&& append) {
    for (int p = 0; p < static_cast<int>(fill_.size()); ++p) flush(p, append);
  }

  std::size_t bytes() const { return data_.size() * sizeof(Vertex); }

 private:
  std::vector<std::size_t> fill_;
  std::vector<Vertex> data_;
};

}  // namespace ulibc::bfs::detail
