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

#include "random/random_stream.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {
namespace {

// Resolution 2^-32 is far below anything a graph of 2^30 vertices can show.
std::uint64_t fixed(double x) { return static_cast<std::uint64_t>(std::llround(std::min(x, 1.0) * 0x1p32)); }

const KroneckerParams& checked(const KroneckerParams& p);

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

namespace {

const KroneckerParams& checked(const KroneckerParams& p) {
  check(p);
  return p;
}

}  // namespace

// The bijection: each round multiplies by an odd constant and adds another
// (invertible modulo 2^scale: low bits spread upwards), then xors in the
// value shifted right (invertible: high bits spread downwards). Four rounds
// leave no visible trace of the Kronecker structure, in which the heavy
// vertices are the ids with few one bits.
KroneckerTuples::KroneckerTuples(const KroneckerParams& p)
    : scale_(checked(p).scale),
      edgefactor_(p.edgefactor),
      key_(rng::mix64(p.seed)),
      a_(fixed(p.a)),
      ab_(fixed(p.a + p.b)),
      abc_(fixed(p.a + p.b + p.c)),
      mask_((std::uint64_t{1} << p.scale) - 1),
      shift_(static_cast<unsigned>(p.scale + 1) / 2) {
  rng::Stream rng(key_, ~std::uint64_t{0});  // an index no tuple uses (there are fewer than 2^41)
  for (Round& r : rounds_) r = {rng.next() | 1u, rng.next()};
}

EdgeList kronecker(const KroneckerParams& p, int threads) {
  const KroneckerTuples tuples(p);
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const std::int64_t m = tuples.size();
  EdgeList out{tuples.vertices(), std::vector<Edge>(static_cast<std::size_t>(m))};
  Edge* edges = out.edges.data();
#pragma omp parallel for num_threads(team) schedule(static)
  for (std::int64_t i = 0; i < m; ++i) edges[i] = tuples(i);
  return out;
}

}  // namespace ulibc::graph
