// sssp/delta_stepping.cpp — Δ-stepping with thread-local buckets.
#include "sssp/delta_stepping.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <bit>

#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sssp {
namespace {

// A thread settles its own refill of the current bucket alone while it has
// fewer entries than this: below it, the two barriers of a team phase cost
// more than the work they would share.
constexpr std::size_t kLocalLimit = 1024;

// Relaxations of one frontier handed out at a time: small enough to balance
// the road graphs' thin wavefronts, large enough that the shared counter
// is not contended.
constexpr int kChunk = 64;

int floor_log2(Distance d) { return std::bit_width(d) - 1; }

}  // namespace

Distance DeltaStepping::usable_delta(Weight max_weight, Distance delta) {
  if (delta == 0) throw input_error("Δ-stepping: Δ must be at least 1");
  // Pending distances lie below (current bucket + 1) * Δ + max_weight.
  const Distance span = (Distance{max_weight} >> floor_log2(delta)) + 2;
  if (span > kMaxBuckets)
    throw input_error(
        fmt::format("Δ-stepping: Δ = {} is too small for arc weights up to {}: a thread would keep {} "
                    "buckets (at most {}); take Δ >= {}",
                    delta, max_weight, span, kMaxBuckets, (Distance{max_weight} >> 15) + 1));
  return std::bit_floor(delta);
}

DeltaStepping::DeltaStepping(const GraphView& g, Weight max_weight, Distance delta, int threads)
    : threads_(threads), shift_(floor_log2(usable_delta(max_weight, delta))) {
  if (threads < 1) throw input_error(fmt::format("Δ-stepping: {} threads; at least 1 is needed", threads));
  ring_ = std::bit_ceil(static_cast<std::size_t>((Distance{max_weight} >> shift_) + 2));
  frontier_.resize(static_cast<std::size_t>(g.vertices) + 1);
  workers_.resize(static_cast<std::size_t>(threads));
  for (Worker& w : workers_) w.buckets.resize(ring_);
}

Distance DeltaStepping::default_delta(const GraphView& g) {
  const EdgeIndex m = g.arc_count();
  if (m == 0) return 1;
  Distance total = 0;
  for (EdgeIndex i = 0; i < m; ++i) total += g.arcs[i].weight;
  const Distance mean = std::max<Distance>(1, total / static_cast<Distance>(m));
  return std::bit_floor(4 * mean);
}

// dist := min(dist, nd); whether it went down. Alone, a thread needs no
// atomic: a compare-and-swap serialises the cache misses around it, a fifth
// of a team's time.
bool DeltaStepping::improve(Distance& dist, Distance nd) const {
  if (threads_ == 1) {
    if (nd >= dist) return false;
    dist = nd;
    return true;
  }
  std::atomic_ref d(dist);
  Distance old = d.load(std::memory_order_relaxed);
  while (nd < old)
    if (d.compare_exchange_weak(old, nd, std::memory_order_relaxed)) return true;
  return false;
}

void DeltaStepping::relax(const GraphView& g, Vertex u, std::size_t bucket, std::span<Distance> dist,
                          Worker& me) const {
  const Distance du = std::atomic_ref(dist[u]).load(std::memory_order_relaxed);
  // An entry left behind when u improved into a bucket already settled.
  if ((du >> shift_) != bucket) return;
  for (const graph::Arc& a : g.out(u)) {
    const Distance nd = du + a.weight;
    if (!improve(dist[a.head], nd)) continue;
    me.buckets[(nd >> shift_) & (ring_ - 1)].push_back(a.head);
    // Its arcs are read when its bucket comes, a few phases on: start loading them now.
    __builtin_prefetch(g.arcs + g.offsets[a.head]);
  }
}

void DeltaStepping::settle_locally(const GraphView& g, std::size_t bucket, std::span<Distance> dist, Worker& me) const {
  std::vector<Vertex>& own = me.buckets[bucket & (ring_ - 1)];
  while (!own.empty() && own.size() < kLocalLimit) {
    me.scratch.swap(own);
    for (const Vertex u : me.scratch) relax(g, u, bucket, dist, me);
    me.scratch.clear();
  }
}

std::size_t DeltaStepping::lowest_pending(const Worker& me, std::size_t from) const {
  for (std::size_t b = from; b < from + ring_; ++b)
    if (!me.buckets[b & (ring_ - 1)].empty()) return b;
  return kNone;
}

void DeltaStepping::run(const GraphView& g, Vertex source, std::span<Distance> dist) {
  const int threads = threads_;
  const auto n = static_cast<std::int64_t>(g.vertices);
  int team = threads;
  std::size_t phases = 0;
#pragma omp parallel num_threads(threads)
  {
    // Every member sees the same team size, so all skip together.
    if (omp_get_num_threads() != threads) {
      if (omp_get_thread_num() == 0) team = omp_get_num_threads();
    } else {
      Worker& me = workers_[omp_get_thread_num()];
#pragma omp for schedule(static)
      for (std::int64_t v = 0; v < n; ++v) dist[v] = graph::kUnreached;
#pragma omp single
      {
        dist[source] = 0;
        frontier_[0] = source;
      }
      std::size_t bucket = 0;
      std::size_t size = 1;
      // Each thread's own copy of the frontier's size, so that all agree on
      // a resize without reading frontier_ while one of them changes it.
      std::size_t capacity = frontier_.size();
      while (true) {
#pragma omp for schedule(dynamic, kChunk) nowait
        for (std::size_t i = 0; i < size; ++i) relax(g, frontier_[i], bucket, dist, me);
        settle_locally(g, bucket, dist, me);
        me.next = lowest_pending(me, bucket);
        me.count = me.next == kNone ? 0 : me.buckets[me.next & (ring_ - 1)].size();
#pragma omp barrier
        // Every thread reads the same published pairs and so takes the same decisions.
        std::size_t next = kNone;
        for (const Worker& w : workers_) next = std::min(next, w.next);
        if (next == kNone) break;
        std::size_t offset = 0;
        size = 0;
        for (const Worker& w : workers_) {
          if (&w == &me) offset = size;
          if (w.next == next) size += w.count;
        }
        if (size > capacity) {
#pragma omp single
          frontier_.resize(size);
          capacity = size;
        }
        if (me.next == next) {
          std::vector<Vertex>& mine = me.buckets[next & (ring_ - 1)];
          std::copy(mine.begin(), mine.end(), frontier_.begin() + static_cast<std::ptrdiff_t>(offset));
          mine.clear();
        }
        bucket = next;
        if (&me == &workers_.front()) ++phases;
#pragma omp barrier
      }
    }
  }
  ulibc::check_openmp_team_size(threads, team);
  phases_ = phases;
}

}  // namespace ulibc::sssp
