// bfs/graph500.cpp — the Graph500 procedure and its statistics.
#include "bfs/graph500.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <numeric>
#include <random>
#include <unordered_set>

#include "bfs/verify.hpp"
#include "graph/builder.hpp"
#include "harness/timer.hpp"
#include "ulibc/error.hpp"
#include "ulibc/range.hpp"

namespace ulibc::bfs {

std::vector<Vertex> choose_roots(const CsrGraph& g, int count, std::uint64_t seed) {
  std::vector<Vertex> candidates;
  for (Vertex v = 0; v < g.vertices(); ++v)
    if (g.degree(v) > 0) candidates.push_back(v);
  return choose_roots(std::move(candidates), count, seed);
}

std::vector<Vertex> choose_roots(std::vector<Vertex> candidates, int count, std::uint64_t seed) {
  // A partial Fisher–Yates shuffle: the first `count` are a uniform sample
  // without repetition, and the draw is fixed by the seed alone.
  std::mt19937_64 random(seed);
  const std::size_t k = std::min<std::size_t>(static_cast<std::size_t>(std::max(count, 0)), candidates.size());
  for (std::size_t i = 0; i < k; ++i) {
    std::uniform_int_distribution<std::size_t> pick(i, candidates.size() - 1);
    std::swap(candidates[i], candidates[pick(random)]);
  }
  candidates.resize(k);
  return candidates;
}

std::vector<std::uint64_t> vertices_with_edges(const graph::Tuples& tuples, int threads) {
  if (threads <= 0) threads = omp_get_max_threads();
  if (const graph::EdgeList* list = tuples.list()) graph::check_edge_list(*list, threads);
  const std::int64_t n = tuples.vertices(), m = tuples.size();
  std::vector<std::uint64_t> bits(static_cast<std::size_t>((n + 63) / 64), 0);
  std::uint64_t* words = bits.data();
#pragma omp parallel num_threads(threads)
  {
    const auto share = even_share(IndexRange<std::int64_t>{0, m}, static_cast<std::size_t>(omp_get_thread_num()),
                                  static_cast<std::size_t>(omp_get_num_threads()));
    const auto mark = [&](graph::Vertex v) {
      std::atomic_ref<std::uint64_t> word(words[v / 64]);
      const std::uint64_t bit = std::uint64_t{1} << (v % 64);
      if (!(word.load(std::memory_order_relaxed) & bit)) word.fetch_or(bit, std::memory_order_relaxed);
    };
    tuples.for_each(share.begin, share.end, [&](std::int64_t, graph::Edge e) {
      if (e.u == e.v) return;
      mark(e.u);
      mark(e.v);
    });
  }
  return bits;
}

std::vector<SearchRecord> run_searches(Bfs& bfs, const graph::EdgeList& input, const std::vector<Vertex>& roots,
                                       const Params& params) {
  return run_searches(bfs, graph::Tuples(input), roots, params);
}

std::vector<SearchRecord> run_searches(Bfs& bfs, const graph::Tuples& input, const std::vector<Vertex>& roots,
                                       const Params& params) {
  std::vector<SearchRecord> records;
  for (const Vertex root : roots) {
    SearchRecord r{.root = root};
    harness::Timer search;
    const std::span<const Vertex> parent = bfs.search(root, params);
    r.seconds = search.seconds();
    harness::Timer check;
    const Validation v = validate(input, root, parent, bfs.threads());
    r.validate_seconds = check.seconds();
    r.edges = v.edges;
    r.reached = v.reached;
    r.depth = v.depth;
    r.valid = v.valid;
    r.failure = v.failure;
    records.push_back(std::move(r));
  }
  return records;
}

namespace {

// The median of sorted xs[begin, end).
double median_of(const std::vector<double>& xs, std::size_t begin, std::size_t end) {
  const std::size_t n = end - begin, mid = begin + n / 2;
  return n % 2 ? xs[mid] : (xs[mid - 1] + xs[mid]) / 2;
}

}  // namespace

Statistics statistics(std::vector<double> xs) {
  if (xs.empty()) throw input_error("statistics of an empty sample");
  std::sort(xs.begin(), xs.end());
  const std::size_t n = xs.size(), half = n / 2;
  Statistics s;
  s.min = xs.front();
  s.max = xs.back();
  s.median = median_of(xs, 0, n);
  // With one value both halves are that value; otherwise the halves exclude the middle of an odd sample.
  s.first_quartile = n == 1 ? xs[0] : median_of(xs, 0, half);
  s.third_quartile = n == 1 ? xs[0] : median_of(xs, n - half, n);
  s.mean = std::accumulate(xs.begin(), xs.end(), 0.0) / static_cast<double>(n);
  double squares = 0;
  for (const double x : xs) squares += (x - s.mean) * (x - s.mean);
  s.stddev = n > 1 ? std::sqrt(squares / static_cast<double>(n - 1)) : 0;
  return s;
}

HarmonicMean harmonic_mean(const std::vector<double>& rates) {
  if (rates.empty()) throw input_error("harmonic mean of an empty sample");
  std::vector<double> reciprocals;
  for (const double r : rates) {
    if (!(r > 0)) throw input_error(fmt::format("harmonic mean of a rate that is not positive: {}", r));
    reciprocals.push_back(1 / r);
  }
  const Statistics s = statistics(reciprocals);
  const auto n = static_cast<double>(rates.size());
  // The reference code's estimate: the spread of the reciprocals carried
  // back through 1/x (delta method), as a standard error over n - 1.
  return {.mean = 1 / s.mean, .stddev = n > 1 ? s.stddev / (s.mean * s.mean * std::sqrt(n - 1)) : 0};
}

namespace {

void add_block(std::string& out, const std::string& what, const std::vector<double>& xs) {
  const Statistics s = statistics(xs);
  const std::pair<const char*, double> lines[] = {{"min", s.min},
                                                  {"firstquartile", s.first_quartile},
                                                  {"median", s.median},
                                                  {"thirdquartile", s.third_quartile},
                                                  {"max", s.max}};
  for (const auto& [name, value] : lines) out += fmt::format("{}_{}: {:.6e}\n", name, what, value);
  if (what != "TEPS") out += fmt::format("mean_{}: {:.6e}\nstddev_{}: {:.6e}\n", what, s.mean, what, s.stddev);
}

template <class Field>
std::vector<double> column(const std::vector<SearchRecord>& searches, Field field) {
  std::vector<double> xs;
  for (const SearchRecord& r : searches) xs.push_back(static_cast<double>(field(r)));
  return xs;
}

}  // namespace

std::string graph500_output(const std::vector<std::pair<std::string, std::string>>& header,
                            const std::vector<SearchRecord>& searches) {
  std::string out;
  for (const auto& [name, value] : header) out += fmt::format("{}: {}\n", name, value);
  out += fmt::format("NBFS: {}\n", searches.size());
  const auto failed = std::count_if(searches.begin(), searches.end(), [](const SearchRecord& r) { return !r.valid; });
  if (!searches.empty()) {
    add_block(out, "time", column(searches, [](const SearchRecord& r) { return r.seconds; }));
    add_block(out, "nedge", column(searches, [](const SearchRecord& r) { return r.edges; }));
    const std::vector<double> teps = column(searches, [](const SearchRecord& r) { return r.teps(); });
    add_block(out, "TEPS", teps);
    if (std::all_of(teps.begin(), teps.end(), [](double t) { return t > 0; })) {
      const HarmonicMean h = harmonic_mean(teps);
      out += fmt::format("harmonic_mean_TEPS: {:.6e}\nharmonic_stddev_TEPS: {:.6e}\n", h.mean, h.stddev);
    }
    add_block(out, "validate", column(searches, [](const SearchRecord& r) { return r.validate_seconds; }));
  }
  if (failed == 0 && !searches.empty())
    out += fmt::format("validation: PASSED ({} of {} searches)\n", searches.size(), searches.size());
  else {
    const auto first = std::find_if(searches.begin(), searches.end(), [](const SearchRecord& r) { return !r.valid; });
    out += searches.empty() ? std::string("validation: FAILED (no searches)\n")
                            : fmt::format("validation: FAILED ({} of {} searches; root {}: {})\n", failed,
                                          searches.size(), first->root, first->failure);
  }
  return out;
}

}  // namespace ulibc::bfs
