// simpath/node_ref.hpp — naming a node of a step, or a terminal, in one word.
#pragma once
#include <cstdint>

namespace ulibc::simpath {

// 0: the 0-terminal (no set), 1: the 1-terminal (the empty set), else node
// `index` of step `step`, as (step + 1) << 40 | index. The search's diagram
// and the reduced ZDD both name their nodes so: a child may lie any number
// of steps below its parent.
using NodeRef = std::uint64_t;
inline constexpr NodeRef kZero = 0;
inline constexpr NodeRef kOne = 1;
inline constexpr int kIndexBits = 40;
inline constexpr std::uint64_t kMaxIndex = (std::uint64_t{1} << kIndexBits) - 1;
inline NodeRef make_ref(int step, std::uint64_t index) {
  return (static_cast<std::uint64_t>(step) + 1) << kIndexBits | index;
}
inline int ref_step(NodeRef r) { return static_cast<int>(r >> kIndexBits) - 1; }
inline std::uint64_t ref_index(NodeRef r) { return r & kMaxIndex; }
inline bool is_terminal(NodeRef r) { return r <= kOne; }

}  // namespace ulibc::simpath
