// graph/road_generator.cpp — the road grid in two parallel passes over
// fixed chunks of vertices: count each chunk's arcs, then write them in place.
//
// Vertex v owns three random streams, indexed 3v, 3v+1 and 3v+2: its place,
// the street to its east and the street to its south (one word of each is
// used). An arc reads the word of its street, whichever end it leaves from, so both arcs of a
// street agree on whether it exists and what it weighs, and nothing about a
// street has to be stored between the passes. Counting first lets the arc
// list be allocated once at its exact size and filled without copies, which
// is what keeps 24M vertices within 12 bytes per arc.
#include "graph/road_generator.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <numeric>

#include "random/random_stream.hpp"
#include "ulibc/error.hpp"

namespace ulibc::graph {
namespace {

// Vertices per unit of parallel work: enough to amortise the scheduling, few
// enough that the per-chunk arc counts stay small and that modest grids
// still split among the threads.
constexpr std::int64_t kChunk = std::int64_t{1} << 14;
std::int64_t chunk_count(std::int64_t n) { return (n + kChunk - 1) / kChunk; }

// What each of a vertex's three streams decides, and the stream's offset.
enum class Draw : std::uint64_t { place = 0, east_street = 1, south_street = 2 };

// The one word of vertex v's stream for `what`.
std::uint64_t draw(std::uint64_t key, std::int64_t v, Draw what) {
  return rng::Stream(key, 3 * static_cast<std::uint64_t>(v) + static_cast<std::uint64_t>(what)).next();
}

// A uniform double in [0, 1) from 32 random bits: finer than any grid can show.
double unit(std::uint32_t bits) { return static_cast<double>(bits) * 0x1p-32; }

// A uniform integer in -kRoadJitter..kRoadJitter from 32 random bits.
std::int64_t jitter(std::uint32_t bits) {
  return static_cast<std::int64_t>((std::uint64_t{bits} * (2 * kRoadJitter + 1)) >> 32) - kRoadJitter;
}

// A vertex and its place in the grid, stepped along rather than recomputed:
// a 64-bit division costs more than drawing a random word.
struct Intersection {
  std::int64_t v, r, c;
};

// Calls visit(intersection) for the vertices first..last-1, in order.
template <class Visit>
void for_each_intersection(std::int64_t cols, std::int64_t first, std::int64_t last, Visit&& visit) {
  for (Intersection at{first, first / cols, first % cols}; at.v < last; ++at.v) {
    visit(at);
    if (++at.c == cols) at = {at.v, at.r + 1, 0};
  }
}

class Grid {
 public:
  // `at`: the intersections, already placed.
  Grid(const RoadParams& p, std::uint64_t key, const Coordinates& at)
      : p_(p), key_(key), x_(at.x.data()), y_(at.y.data()) {}

  // Calls visit(tail, head, weight) for the arcs leaving vertices
  // first..last-1, in list order: by tail, then head. `weight` is a callable
  // that computes the arc's weight, so that counting never pays for it.
  template <class Visit>
  void for_each_arc(std::int64_t first, std::int64_t last, Visit&& visit) const {
    for_each_intersection(p_.cols, first, last, [&](const Intersection& at) {
      for_each_street(at, [&](std::int64_t head, auto&& weight) { visit(at.v, head, weight); });
    });
  }

 private:
  // Calls visit(head, weight) for each street of `at` that exists, heads in
  // increasing order: north, west, east, south.
  template <class Visit>
  void for_each_street(const Intersection& at, Visit&& visit) const {
    const std::int64_t v = at.v, cols = p_.cols;
    // A street running east lies on its row; one running south on its column.
    const bool fast_row = arterial(at.r), fast_col = arterial(at.c);
    const auto offer = [&](std::int64_t from, Draw street, bool fast, std::int64_t head) {
      const Street s{from, from + (street == Draw::east_street ? 1 : cols), fast, draw(key_, from, street)};
      if (present(s)) visit(head, [&] { return weight(s); });
    };
    if (at.r > 0) offer(v - cols, Draw::south_street, fast_col, v - cols);
    if (at.c > 0) offer(v - 1, Draw::east_street, fast_row, v - 1);
    if (at.c + 1 < cols) offer(v, Draw::east_street, fast_row, v + 1);
    if (at.r + 1 < p_.rows) offer(v, Draw::south_street, fast_col, v + cols);
  }

  // A street from its west or north end to its east or south end, and its
  // random word: the high half decides whether it exists, the low half is its detour.
  struct Street {
    std::int64_t from, to;
    bool arterial;
    std::uint64_t word;
  };
  bool arterial(std::int64_t line) const {
    const std::int64_t k = p_.arterial_every;
    return k > 0 && line % k == k / 2;
  }
  bool present(const Street& s) const {
    return s.arterial || unit(static_cast<std::uint32_t>(s.word >> 32)) >= p_.deletion;
  }
  Weight weight(const Street& s) const {
    const double detour = 1 + (kMaxDetour - 1) * unit(static_cast<std::uint32_t>(s.word));
    const double factor = s.arterial ? p_.arterial_factor : 1.0;
    const std::int64_t dx = x_[s.to] - x_[s.from], dy = y_[s.to] - y_[s.from];
    const double length = std::sqrt(static_cast<double>(dx * dx + dy * dy));
    // At most (kRoadSpacing + 2 kRoadJitter) * sqrt(2) * kMaxDetour: far below kMaxWeight.
    return static_cast<Weight>(std::max<long long>(1, std::llround(length * detour * factor)));
  }

  const RoadParams& p_;
  std::uint64_t key_;
  const std::int64_t* x_;
  const std::int64_t* y_;
};

// Runs body(chunk, first, last) over the vertices, chunk by chunk, on the
// team. Chunks cost the same, so a static schedule balances them, and it
// hands every thread of a team some of the work even on a small grid, which
// is what lets the tests see a thread that drew differently.
template <class Body>
void for_each_chunk(std::int64_t n, int team, Body&& body) {
  const std::int64_t chunks = chunk_count(n);
#pragma omp parallel for num_threads(team) schedule(static, 1)
  for (std::int64_t i = 0; i < chunks; ++i) body(i, i * kChunk, std::min(n, (i + 1) * kChunk));
}

// Intersection v's word: its x jitter in the high half, its y jitter in the low.
void place_intersections(const RoadParams& p, std::uint64_t key, int team, Coordinates& at) {
  const std::int64_t n = p.rows * p.cols;
  at.x.resize(static_cast<std::size_t>(n));
  at.y.resize(static_cast<std::size_t>(n));
  for_each_chunk(n, team, [&](std::int64_t, std::int64_t first, std::int64_t last) {
    for_each_intersection(p.cols, first, last, [&](const Intersection& i) {
      const std::uint64_t word = draw(key, i.v, Draw::place);
      at.x[i.v] = i.c * kRoadSpacing + jitter(static_cast<std::uint32_t>(word >> 32));
      at.y[i.v] = i.r * kRoadSpacing + jitter(static_cast<std::uint32_t>(word));
    });
  });
}

// first[i]: the position of chunk i's first arc in the list; first[chunks]: the arc count.
std::vector<std::int64_t> chunk_offsets(const Grid& grid, std::int64_t n, int team) {
  std::vector<std::int64_t> first(static_cast<std::size_t>(chunk_count(n) + 1), 0);
  for_each_chunk(n, team, [&](std::int64_t i, std::int64_t begin, std::int64_t end) {
    std::int64_t arcs = 0;
    grid.for_each_arc(begin, end, [&](std::int64_t, std::int64_t, auto&&) { ++arcs; });
    first[static_cast<std::size_t>(i) + 1] = arcs;
  });
  std::partial_sum(first.begin(), first.end(), first.begin());
  return first;
}

void write_arcs(const Grid& grid, std::int64_t n, int team, const std::vector<std::int64_t>& first, WeightedArc* arcs) {
  for_each_chunk(n, team, [&](std::int64_t i, std::int64_t begin, std::int64_t end) {
    WeightedArc* out = arcs + first[i];
    grid.for_each_arc(begin, end, [&](std::int64_t tail, std::int64_t head, auto&& weight) {
      *out++ = {static_cast<Vertex>(tail), static_cast<Vertex>(head), weight()};
    });
  });
}

}  // namespace

void check(const RoadParams& p) {
  if (p.rows < 1) throw input_error(fmt::format("road grid: rows {} is less than 1", p.rows));
  if (p.cols < 1) throw input_error(fmt::format("road grid: cols {} is less than 1", p.cols));
  if (p.rows > kMaxVertices / p.cols)
    throw input_error(fmt::format("road grid: rows x cols = {} x {} is more than the {} vertices that 32-bit ids allow",
                                  p.rows, p.cols, kMaxVertices));
  // Written so that NaN fails too.
  if (!(p.deletion >= 0 && p.deletion < 1))
    throw input_error(fmt::format("road grid: deletion {} is outside [0, 1)", p.deletion));
  if (p.arterial_every < 0)
    throw input_error(fmt::format("road grid: arterial_every {} is negative (0: no arterials)", p.arterial_every));
  if (!(p.arterial_factor > 0 && p.arterial_factor <= 1))
    throw input_error(fmt::format("road grid: arterial_factor {} is outside (0, 1]", p.arterial_factor));
}

RoadNetwork generate_road(const RoadParams& p, int threads) {
  check(p);
  const int team = threads > 0 ? threads : omp_get_max_threads();
  const std::int64_t n = p.rows * p.cols;
  RoadNetwork out;
  out.arcs.vertices = n;
  const std::uint64_t key = rng::mix64(p.seed);
  place_intersections(p, key, team, out.coordinates);
  const Grid grid(p, key, out.coordinates);
  const std::vector<std::int64_t> first = chunk_offsets(grid, n, team);
  out.arcs.arcs.resize(static_cast<std::size_t>(first.back()));
  write_arcs(grid, n, team, first, out.arcs.arcs.data());
  return out;
}

}  // namespace ulibc::graph
