// sync/node_loop.cpp — per-node loop scheduling with stealing.
//
// The counters are relaxed: each index is handed out once by the atomicity
// of the counter alone, and what the body writes is published by however
// the caller joins its threads (a barrier, a join), as for reset().
#include "ulibc/node_loop.hpp"

#include <algorithm>
#include <cstdint>
#include <string>

#include "sync/nearest_nodes.hpp"
#include "ulibc/error.hpp"

namespace ulibc {

namespace {

std::size_t checked_chunk(std::size_t chunk) {
  if (chunk == 0) throw input_error("loop chunk 0: a chunk must hold at least one index");
  return chunk;
}

std::size_t checked_size(std::size_t begin, std::size_t end) {
  if (begin > end)
    throw input_error("loop range [" + std::to_string(begin) + ", " + std::to_string(end) + ") ends before it begins");
  return end - begin;
}

// Each thread overshoots a part's end by at most one chunk, so the counter
// stays below end + (threads + 1) * chunk; beyond SIZE_MAX it would wrap.
bool fetch_add_may_wrap(std::size_t end, std::size_t chunk, int threads) {
  return chunk > (SIZE_MAX - end) / (static_cast<std::size_t>(threads) + 1);
}

}  // namespace

NodeLoop::NodeLoop(const Topology& topo, const Mapping& map, std::size_t begin, std::size_t end, std::size_t chunk)
    : begin_(begin),
      chunk_(checked_chunk(chunk)),
      near_max_(fetch_add_may_wrap(end, chunk, map.size())),
      partition_(map, checked_size(begin, end)),
      parts_(std::make_unique<Part[]>(static_cast<std::size_t>(partition_.nodes()))),
      steal_order_(detail::nodes_nearest_first(topo, map)) {
  for (int k = 0; k < partition_.nodes(); ++k) {
    const Range r = partition_.node_range(k);
    parts_[k].range = {begin_ + r.begin, begin_ + r.end};
  }
  reset();
}

std::size_t NodeLoop::run(int thread, const std::function<void(Range)>& body) {
  const int node = partition_.node_of_thread(thread);  // Error(input) for a thread outside the mapping
  drain(parts_[node], body);
  std::size_t stolen = 0;
  for (int victim : steal_order_[node]) stolen += drain(parts_[victim], body);
  return stolen;
}

void NodeLoop::reset() {
  for (int k = 0; k < partition_.nodes(); ++k) {
    Part& p = parts_[k];
    p.next.store(p.range.begin, std::memory_order_relaxed);
  }
}

// Runs body on chunks of `part` until it is empty; returns the indices run.
std::size_t NodeLoop::drain(Part& part, const std::function<void(Range)>& body) const {
  std::size_t done = 0;
  for (Range r = take(part); !r.empty(); r = take(part)) {
    body(r);
    done += r.size();
  }
  return done;
}

Range NodeLoop::take(Part& part) const {
  const std::size_t end = part.range.end;
  // An empty part is left alone: no write to its line, no further overshoot.
  std::size_t start = part.next.load(std::memory_order_relaxed);
  if (start >= end) return {};
  if (near_max_) {
    while (start < end &&
           !part.next.compare_exchange_weak(start, start + std::min(chunk_, end - start), std::memory_order_relaxed)) {
    }
  } else {
    start = part.next.fetch_add(chunk_, std::memory_order_relaxed);
  }
  if (start >= end) return {};
  return {start, start + std::min(chunk_, end - start)};
}

}  // namespace ulibc
