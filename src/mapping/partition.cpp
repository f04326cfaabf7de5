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

void check_begins(std::span<const std::size_t> begins, std::size_t nodes, std::size_t n) {
  const auto say = [](std::size_t v) { return std::to_string(v); };
  if (begins.size() != nodes)
    throw input_error("partition: " + say(begins.size()) + " node begins for " + say(nodes) + " nodes");
  if (nodes > 0 && begins.front() != 0)
    throw input_error("partition: node 0 begins at " + say(begins.front()) + ", not 0");
  for (std::size_t k = 1; k < nodes; ++k)
    if (begins[k] < begins[k - 1] || begins[k] > n)
      throw input_error("partition: node " + say(k) + " begins at " + say(begins[k]) + ", outside " +
                        say(begins[k - 1]) + ".." + say(n));
}

// Node k begins where the threads of the nodes before it would end.
std::vector<std::size_t> proportional_begins(const Mapping& map, std::size_t n) {
  const auto& per_node = map.threads_per_node();
  std::vector<std::size_t> begins;
  std::size_t before = 0;
  for (const int threads : per_node) {
    begins.push_back(scaled(n, before, static_cast<std::size_t>(map.size())));
    before += static_cast<std::size_t>(threads);
  }
  return begins;
}

}  // namespace

NodePartition::NodePartition(const Mapping& map, std::size_t n, std::size_t align)
    : NodePartition(map, n, proportional_begins(map, n), align) {}

NodePartition::NodePartition(const Mapping& map, std::size_t n, std::span<const std::size_t> node_begins,
                             std::size_t align)
    : n_(n) {
  if (align == 0) throw input_error("partition alignment must be at least 1");
  const auto& per_node = map.threads_per_node();
  check_begins(node_begins, per_node.size(), n);
  // Rounding down moves whole aligned blocks between neighbours only.
  for (std::size_t k = 0; k < per_node.size(); ++k) {
    const std::size_t begin = node_ranges_.empty() ? 0 : node_ranges_.back().end;
    const std::size_t end = k + 1 == per_node.size() ? n : node_begins[k + 1] / align * align;
    node_ranges_.push_back({begin, std::max(begin, end)});
  }
  const std::size_t threads = static_cast<std::size_t>(map.size());
  thread_node_.resize(threads);
  thread_ranges_.resize(threads);
  for (const Placement& p : map.threads()) {
    const auto t = static_cast<std::size_t>(p.thread);
    thread_node_[t] = p.node_index;
    thread_ranges_[t] = even_share(node_ranges_[p.node_index], static_cast<std::size_t>(p.ordcore),
                                   static_cast<std::size_t>(per_node[p.node_index]));
  }
}

Range NodePartition::node_range(int node_index) const {
  if (node_index < 0 || node_index >= nodes())
    throw input_error("node index " + std::to_string(node_index) + " is outside 0.." + std::to_string(nodes() - 1));
  return node_ranges_[node_index];
}

Range NodePartition::thread_range(int thread) const {
  const int threads = static_cast<int>(thread_ranges_.size());
  if (thread < 0 || thread >= threads)
    throw input_error("thread " + std::to_string(thread) + " is outside 0.." + std::to_string(threads - 1));
  return thread_ranges_[thread];
}

int NodePartition::node_of_thread(int thread) const {
  thread_range(thread);  // validates
  return thread_node_[thread];
}

}  // namespace ulibc
