// simpath/level_nodes.hpp — the nodes of one step of the search, and their children.
//
// In the parallel search a step's owner appends nodes while later steps'
// owners fill in their children: the array never moves what it holds. Chunk
// c holds kFirstChunk << c nodes, so 30 chunks give over 2^39 nodes and the
// largest chunk is at most the size of all the others.
//
// A child takes 32 bits, so a node takes 8 bytes, half a NodeRef pair: the
// search's diagram is the largest thing Simpath holds. A child is coded by
// how many steps below its parent it lies (1 to 15, in the top four bits)
// and its index there (below 2^28); the terminals are 0 and 1, and a child
// out of that range is kFarChild, its NodeRef kept aside (Diagram).
#pragma once
#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <span>

#include "harness/page_array.hpp"
#include "simpath/memory_budget.hpp"
#include "simpath/node_ref.hpp"

namespace ulibc::simpath::detail {

struct NodeChildren {
  std::uint32_t lo;  // the edge left out
  std::uint32_t hi;  // the edge taken
};

inline constexpr int kChildIndexBits = 28;
inline constexpr std::uint32_t kFarChild = 2;  // 0 steps below, index 2: no node has that code

// The code of `child` for a parent at `step`: kFarChild when it does not fit.
inline std::uint32_t child_code(int step, NodeRef child) {
  if (is_terminal(child)) return static_cast<std::uint32_t>(child);
  const int below = ref_step(child) - step;
  const std::uint64_t index = ref_index(child);
  if (below < 1 || below > 15 || index >> kChildIndexBits != 0) return kFarChild;
  return static_cast<std::uint32_t>(below) << kChildIndexBits | static_cast<std::uint32_t>(index);
}
// The child a code other than kFarChild names, for a parent at `step`.
inline NodeRef child_ref(int step, std::uint32_t code) {
  if (code <= kOne) return code;
  return make_ref(step + static_cast<int>(code >> kChildIndexBits), code & ((1u << kChildIndexBits) - 1));
}

class LevelNodes {
 public:
  LevelNodes() = default;
  LevelNodes(LevelNodes&&) = default;
  LevelNodes& operator=(LevelNodes&&) = default;

  std::uint64_t size() const { return size_; }
  NodeChildren& operator[](std::uint64_t i) { return at(i); }
  const NodeChildren& operator[](std::uint64_t i) const { return const_cast<LevelNodes*>(this)->at(i); }

  // Appends a node (children unset); false when the budget or the index
  // space is exhausted. Only the step's owner appends.
  bool push(MemoryBudget& budget) {
    if (size_ >= kMaxIndex) return false;
    const auto [c, offset] = locate(size_);
    if (!chunks_[c]) {
      const std::uint64_t bytes = (std::uint64_t{kFirstChunk} << c) * sizeof(NodeChildren);
      if (!budget.take(bytes)) return false;
      // Not initialised: pages are committed as nodes are written.
      chunks_[c] = harness::PageArray<NodeChildren>(std::size_t{kFirstChunk} << c);
    }
    ++size_;
    return true;
  }

  // Nodes i, i + 1, … as far as they lie side by side (at least node i).
  std::span<const NodeChildren> run_from(std::uint64_t i) const {
    const auto [c, offset] = locate(i);
    return {chunks_[c].get() + offset, std::min((std::uint64_t{kFirstChunk} << c) - offset, size_ - i)};
  }

  // Bytes the chunks take.
  std::uint64_t bytes() const {
    std::uint64_t n = 0;
    for (int c = 0; c < kChunks; ++c)
      if (chunks_[c]) n += (std::uint64_t{kFirstChunk} << c) * sizeof(NodeChildren);
    return n;
  }

  // Frees the nodes, returning their bytes to `budget`.
  void release(MemoryBudget& budget) {
    for (int c = 0; c < kChunks; ++c)
      if (chunks_[c]) budget.give((std::uint64_t{kFirstChunk} << c) * sizeof(NodeChildren)), chunks_[c] = {};
    size_ = 0;
  }

 private:
  static constexpr std::uint64_t kFirstChunk = 1024;
  static constexpr int kChunks = 30;

  struct Location {
    int chunk;
    std::uint64_t offset;
  };
  // Chunk c starts at kFirstChunk * (2^c - 1).
  static Location locate(std::uint64_t i) {
    const int c = std::bit_width(i / kFirstChunk + 1) - 1;
    return {c, i - kFirstChunk * ((std::uint64_t{1} << c) - 1)};
  }
  NodeChildren& at(std::uint64_t i) {
    const auto [c, offset] = locate(i);
    return chunks_[c][offset];
  }

  // Each on its own cache lines: the owner bumps size_ at every node while
  // other threads read the chunk pointers of this and neighbouring steps.
  alignas(64) std::array<harness::PageArray<NodeChildren>, kChunks> chunks_{};
  alignas(64) std::uint64_t size_ = 0;
};

}  // namespace ulibc::simpath::detail
