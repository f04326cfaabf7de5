// graph/generator.cpp — Graph500 Kronecker tuples from a counter-based generator.
//
// Tuple i descends `scale` levels of the 2x2 initiator matrix; its random
// words come from a stream keyed by (seed, i) alone, so the tuples can be
// drawn in any order, by any thread, with the same result. The endpoints are
// then relabelled by a bijection on 0..2^scale-1 that is computed per vertex
// (no permutation table to build or look up).
//
// Graph500's reference code also shuffles the order of the tuples. Here every
// tuple is an independent draw, so the list is already in random order: a
// shuffle would change nothing statistically and is not done.
#include "graph/generator.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstddef>

#include "graph/random_stream.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {
namespace {

// The quadrant probabilities as 32-bit fixed-point thresholds: a uniform
// 32-bit r picks (0,0) below `a`, (0,1) below `ab`, (1,0) below `abc`, else
// (1,1). A threshold may be 2^32 (when D is zero), hence 64 bits. Resolution
// 2^-32 is far below anything a graph of 2^30 vertices can show.
struct Quadrants {
  std::uint64_t a, ab, abc;
  explicit Quadrants(const KroneckerParams& p) : a(fixed(p.a)), ab(fixed(p.a + p.b)), abc(fixed(p.a + p.b + p.c)) {}
  static std::uint64_t fixed(double x) { return static_cast<std::uint64_t>(std::llround(std::min(x, 1.0) * 0x1p32)); }
  // 0..3: the row bit times 2 plus the column bit.
  unsigned pick(std::uint32_t r) const { return (r >= a) + (r >= ab) + (r >= abc); }
};

// Tuple i before relabelling: two levels per 64-bit word, high bits first.
Edge draw_tuple(std::uint64_t key, std::int64_t i, int scale, const Quadrants& q) {
  Stream rng(key, static_cast<std::uint64_t>(i));
  std::uint32_t u = 0, v = 0;
  const auto descend = [&](std::uint32_t r) {
    const unsigned quadrant = q.pick(r);
    u = u << 1 | quadrant >> 1;
    v = v << 1 | (quadrant & 1u);
  };
  for (int level = 0; level < scale; level += 2) {
    const std::uint64_t word = rng.next();
    descend(static_cast<std::uint32_t>(word >> 32));
    if (level + 1 < scale) descend(static_cast<std::uint32_t>(word));
  }
  return {static_cast<Vertex>(u), static_cast<Vertex>(v)};
}

// A pseudo-random bijection on 0..2^scale-1. Each round multiplies by an odd
// constant and adds another (invertible modulo 2^scale: low bits spread
// upwards), then xors in the value shifted right (invertible: high bits
// spread downwards). Four rounds leave no visible trace of the Kronecker structure,
// in which the heavy vertices are the ids with few one bits.
class Relabel {
 public:
  Relabel(std::uint64_t key, int scale)
      : mask_((std::uint64_t{1} << scale) - 1), shift_(static_cast<unsigned>(scale + 1) / 2) {
    Stream rng(key, ~std::uint64_t{0});  // an index no tuple uses (there are fewer than 2^41)
    for (Round& r : rounds_) r = {rng.next() | 1u, rng.next()};
  }
  Vertex operator()(Vertex id) const {
    std::uint64_t x = static_cast<std::uint64_t>(id);
    for (const Round& r : rounds_) {
      x = (x * r.multiplier + r.addend) & mask_;
      x ^= x >> shift_;
    }
    return static_cast<Vertex>(x);
  }

 private:
  struct Round {
    std::uint64_t multiplier, addend;
  };
  std::uint64_t mask_;
  unsigned shift_;
  std::array<Round, 4> rounds_;
};

}  // namespace

void check(const KroneckerParams& p) {
  if (p.scale < kMinScale || p.scale > kMaxScale)
    throw input_error(fmt::format("Kronecker SCALE {} is outside {}..{}", p.scale, kMinScale, kMaxScale));
  if (p.edgefactor < 1 || p.edgefactor > kMaxEdgefactor)
    throw input_error(fmt::format("Kronecker edgefactor {} is outside 1..{}", p.edgefactor, kMaxEdgefactor));
  // Written so that NaN fails too. A small tolerance lets A+B+C round to just above 1.
  const bool each_ok = p.a >= 0 && p.b >= 0 && p.c >= 0;
  if (!each_ok || !(p.a + p.b + p.c <= 1 + 1e-9))
    throw input_error(
        fmt::format("Kronecker probabilities A={} B={} C={} are not a distribution: each must be at "
                    "least 0 and A+B+C at most 1 (D = 1-A-B-C)",
                    p.a, p.b, p.c));
}

EdgeList kronecker(const KroneckerParams& p, int threads) {
  check(p);
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const std::int64_t n = std::int64_t{1} << p.scale;
  const std::int64_t m = n * p.edgefactor;
  const std::uint64_t key = mix64(p.seed);
  const Quadrants quadrants(p);
  const Relabel relabel(key, p.scale);

  EdgeList out{n, std::vector<Edge>(static_cast<std::size_t>(m))};
  Edge* edges = out.edges.data();
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t i = 0; i < m; ++i) {
    const Edge e = draw_tuple(key, i, p.scale, quadrants);
    edges[i] = {relabel(e.u), relabel(e.v)};
  }
  return out;
}

}  // namespace ulibc::graph
