// graph/generator.hpp — the Graph500 Kronecker generator.
//
// Each of edgefactor * 2^scale tuples picks its endpoints one bit at a time:
// quadrant (0,0), (0,1), (1,0), (1,1) with probabilities A, B, C, D. Vertex
// labels are then permuted, so that degree says nothing about the id. Every
// tuple is drawn from a counter-based generator keyed by (seed, tuple index),
// so the edges are the same whatever the number of threads.
#pragma once
#include <array>
#include <cstdint>

#include "graph/edge_list.hpp"
#include "random/random_stream.hpp"

namespace ulibc::graph {

struct KroneckerParams {
  int scale = 0;        // 2^scale vertices
  int edgefactor = 16;  // tuples per vertex
  std::uint64_t seed = 1;
  double a = 0.57, b = 0.19, c = 0.19;  // D = 1 - A - B - C = 0.05
};

constexpr int kMinScale = 1;
constexpr int kMaxScale = 30;  // 2^30 vertices: the largest that 32-bit ids allow
constexpr int kMaxEdgefactor = 1024;

// Error(input) for a scale outside kMinScale..kMaxScale, an edgefactor
// outside 1..kMaxEdgefactor, or probabilities that are not a distribution.
void check(const KroneckerParams& p);

// The edge tuples, on an OpenMP team of `threads` (0: omp_get_max_threads()).
EdgeList kronecker(const KroneckerParams& p, int threads = 0);

// Tuple i of kronecker(p) computed on its own, from (seed, i) alone: the
// list can be drawn again in any order, in chunks, without being held
// (graph/tuples.hpp). Error(input) as check(p).
class KroneckerTuples {
 public:
  explicit KroneckerTuples(const KroneckerParams& p);
  std::int64_t vertices() const { return std::int64_t{1} << scale_; }
  std::int64_t size() const { return vertices() * edgefactor_; }
  Edge operator()(std::int64_t i) const {
    const Edge e = draw(i);
    return {relabel(e.u), relabel(e.v)};
  }

 private:
  // Tuple i before relabelling: two levels per 64-bit word, high bits first.
  // The quadrant probabilities are 32-bit fixed-point thresholds: a uniform
  // 32-bit r picks (0,0) below a_, (0,1) below ab_, (1,0) below abc_, else
  // (1,1) (a threshold may be 2^32 when D is zero, hence 64 bits).
  Edge draw(std::int64_t i) const {
    rng::Stream rng(key_, static_cast<std::uint64_t>(i));
    std::uint32_t u = 0, v = 0;
    const auto descend = [&](std::uint32_t r) {
      const unsigned quadrant = (r >= a_) + (r >= ab_) + (r >= abc_);  // the row bit times 2 plus the column bit
      u = u << 1 | quadrant >> 1;
      v = v << 1 | (quadrant & 1u);
    };
    for (int level = 0; level < scale_; level += 2) {
      const std::uint64_t word = rng.next();
      descend(static_cast<std::uint32_t>(word >> 32));
      if (level + 1 < scale_) descend(static_cast<std::uint32_t>(word));
    }
    return {static_cast<Vertex>(u), static_cast<Vertex>(v)};
  }
  // A pseudo-random bijection on 0..2^scale-1 (generator.cpp says how).
  Vertex relabel(Vertex id) const {
    std::uint64_t x = static_cast<std::uint64_t>(id);
    for (const Round& r : rounds_) {
      x = (x * r.multiplier + r.addend) & mask_;
      x ^= x >> shift_;
    }
    return static_cast<Vertex>(x);
  }

  struct Round {
    std::uint64_t multiplier, addend;
  };
  int scale_;
  std::int64_t edgefactor_;
  std::uint64_t key_;
  std::uint64_t a_, ab_, abc_;
  std::uint64_t mask_;
  unsigned shift_;
  std::array<Round, 4> rounds_;
};

}  // namespace ulibc::graph
