// mapping/partition.cpp — splitting an index range over a mapping's nodes and threads.
#include "ulibc/partition.hpp"

#include <algorithm>
#include <string>

#include "ulibc/error.hpp"

namespace ulibc {

namespace {

// floor(n * num / den) without overflow for any size_t n.
std::size_t scaled(std::size_t n, std::size_t num, std::size_t den) {
  return static_cast<std::size_t>(static_cast<unsigned __int128>(n) * num / den);
}

}  // namespace

NodePartition::NodePartition(const Mapping& map, std::size_t n, std::size_t align) : n_(n) {
  if (align == 0) throw input_error("partition alignment must be at least 1");
  const auto& per_node = map.threads_per_node();
  const std::size_t threads = static_cast<std::size_t>(map.size());
  // Node k starts where the threads before it would end, rounded down to
  // `align`; rounding moves whole aligned blocks between neighbours only.
  std::size_t before = 0;
  for (std::size_t k = 0; k < per_node.size(); ++k) {
    const std::size_t begin = node_ranges_.empty() ? 0 : node_ranges_.back().end;
    before += static_cast<std::size_t>(per_node[k]);
    std::size_t end = k + 1 == per_node.size() ? n : scaled(n, before, threads) / align * align;
    node_ranges_.push_back({begin, std::max(begin, end)});
  }
  thread_node_.resize(threads);
  thread_ranges_.resize(threads);
  for (const Placement& p : map.threads()) {
    const auto t = static_cast<std::size_t>(p.thread);
    thread_node_[t] = p.node_index;
    thread_ranges_[t] =
        even_share(node_ranges_[static_cast<std::size_t>(p.node_index)], static_cast<std::size_t>(p.ordcore),
                   static_cast<std::size_t>(per_node[static_cast<std::size_t>(p.node_index)]));
  }
}

Range NodePartition::node_range(int node_index) const {
  if (node_index < 0 || node_index >= nodes())
    throw input_error("node index " + std::to_string(node_index) + " is outside 0.." + std::to_string(nodes() - 1));
  return node_ranges_[static_cast<std::size_t>(node_index)];
}

Range NodePartition::thread_range(int thread) const {
  const int threads = static_cast<int>(thread_ranges_.size());
  if (thread < 0 || thread >= threads)
    throw input_error("thread " + std::to_string(thread) + " is outside 0.." + std::to_string(threads - 1));
  return thread_ranges_[static_cast<std::size_t>(thread)];
}

int NodePartition::node_of_thread(int thread) const {
  thread_range(thread);  // validates
  return thread_node_[static_cast<std::size_t>(thread)];
}

}  // namespace ulibc
