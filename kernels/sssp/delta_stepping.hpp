// sssp/delta_stepping.hpp — one shortest-path query on a team of threads:
// Meyer and Sanders' Δ-stepping.
//
// Tentative distances fall into buckets of width Δ; bucket i holds the
// vertices whose distance lies in [iΔ, (i+1)Δ). The lowest non-empty bucket
// is settled in phases: its vertices' arcs are relaxed in parallel (an
// atomic minimum on the head's distance), every improvement puts the head in
// the bucket of its new distance, and a phase that refills the current
// bucket is followed by another on the same bucket. Within a bucket the
// order of relaxations does not matter, which is what the threads share;
// Δ trades that parallelism against re-relaxations (Δ -> 0 is Dijkstra,
// Δ -> infinity Bellman-Ford).
//
// As in GAP's sssp, buckets are thread-local: a thread files the heads it
// improves in its own buckets, the next bucket is the lowest over all
// threads, and its members are gathered into one shared frontier. A thread
// goes on alone through its own refill of the current bucket while that is
// small, saving the team two barriers per round on sparse phases.
#pragma once
#include <cstddef>
#include <span>
#include <vector>

#include "graph/weighted_graph.hpp"

namespace ulibc::sssp {

using graph::Distance;
using graph::EdgeIndex;
using graph::GraphView;
using graph::Vertex;
using graph::Weight;

class DeltaStepping {
 public:
  // For graphs like g, on teams of `threads` (the caller places them).
  // Δ is rounded down to a power of two, so that a distance's bucket is a
  // shift; Error(input) when Δ is 0, or so small against the largest
  // weight that a thread would need more than kMaxBuckets buckets.
  DeltaStepping(const GraphView& g, Weight max_weight, Distance delta, int threads);

  // dist[v] := the shortest-path distance from source, kUnreached where none.
  // Runs `#pragma omp parallel num_threads(threads)`; Error(input) when the
  // runtime gives a smaller team.
  void run(const GraphView& g, Vertex source, std::span<Distance> dist);

  Distance delta() const { return Distance{1} << shift_; }
  // Phases of the last run: rounds of relaxation the team made together.
  std::size_t phases() const { return phases_; }

  // A Δ for road-like graphs: a few times the mean arc weight (each bucket
  // then holds a band of the search's wavefront a few arcs deep), measured
  // best on the generated road graphs (docs/PERFORMANCE.md).
  static Distance default_delta(const GraphView& g);
  // The Δ a run with `delta` uses on weights up to max_weight: rounded down
  // to a power of two; Error(input) as the constructor, without allocating.
  static Distance usable_delta(Weight max_weight, Distance delta);
  static constexpr std::size_t kMaxBuckets = std::size_t{1} << 16;

 private:
  // One thread's buckets, and what it tells the others between phases. A
  // cache line of its own: the published pair is read by every thread.
  struct alignas(64) Worker {
    // Bucket i lives at buckets[i % ring_]: whatever is pending lies
    // within ring_ consecutive buckets of the current one.
    std::vector<std::vector<Vertex>> buckets;
    std::vector<Vertex> scratch;
    std::size_t next = 0;   // its lowest non-empty bucket, kNone when none
    std::size_t count = 0;  // that bucket's entries
  };
  static constexpr std::size_t kNone = static_cast<std::size_t>(-1);

  bool improve(Distance& dist, Distance nd) const;
  void relax(const GraphView& g, Vertex u, std::size_t bucket, std::span<Distance> dist, Worker& me) const;
  void settle_locally(const GraphView& g, std::size_t bucket, std::span<Distance> dist, Worker& me) const;
  std::size_t lowest_pending(const Worker& me, std::size_t from) const;

  int threads_;
  int shift_;
  std::size_t ring_;  // a power of two
  std::vector<Vertex> frontier_;
  std::vector<Worker> workers_;
  std::size_t phases_ = 0;
};

}  // namespace ulibc::sssp
