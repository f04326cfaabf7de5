// sssp/sssp.cpp — the rules that resolve an algorithm, and running the one resolved.
#include "sssp/sssp.hpp"

#include <fmt/format.h>

#include "harness/timer.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sssp {
namespace {

constexpr Algorithm kAlgorithms[] = {Algorithm::radix, Algorithm::binary, Algorithm::delta, Algorithm::many};

Algorithm algorithm_named(const std::string& name) {
  for (const Algorithm a : kAlgorithms)
    if (name == to_string(a)) return a;
  throw input_error(fmt::format("--algorithm {}: choose auto, radix, binary, delta or many", name));
}

// What auto stands for: one thread answers with Dijkstra on the radix heap;
// a team spreads several queries over itself, or works on a single one together.
Algorithm automatic(int threads, std::size_t sources) {
  if (threads == 1) return Algorithm::radix;
  return sources >= static_cast<std::size_t>(threads) ? Algorithm::many : Algorithm::delta;
}

void check(Algorithm a, int threads, const RoadProblem& problem, const SolveOptions& options) {
  const bool sequential = is_sequential(a);
  if (sequential && threads > 1)
    throw input_error(
        fmt::format("--algorithm {} runs on one thread, not {}: use delta (one query on the team) or "
                    "many (queries spread over it)",
                    to_string(a), threads));
  if (!problem.pairs.empty() && !sequential)
    throw input_error("--pairs: point-to-point queries are answered by --algorithm radix or binary (one thread)");
  if (options.replicate && a != Algorithm::many)
    throw input_error("--replicate: only --algorithm many reads graph copies");
  if (options.delta && a != Algorithm::delta) throw input_error("--delta: only --algorithm delta has a Δ");
}

}  // namespace

std::string to_string(Algorithm a) {
  switch (a) {
    case Algorithm::radix:
      return "radix";
    case Algorithm::binary:
      return "binary";
    case Algorithm::delta:
      return "delta";
    case Algorithm::many:
      return "many";
  }
  return "";
}

bool is_sequential(Algorithm a) { return a == Algorithm::radix || a == Algorithm::binary; }

Queue queue_of(Algorithm a) { return a == Algorithm::binary ? Queue::binary_heap : Queue::radix_heap; }

Algorithm resolve_algorithm(const std::string& name, int threads, const RoadProblem& problem,
                            const SolveOptions& options) {
  const Algorithm a = name == "auto" ? automatic(threads, problem.sources.size()) : algorithm_named(name);
  check(a, threads, problem, options);
  return a;
}

ManyQueryResult solve_sources(const graph::WeightedGraph& g, std::span<const Vertex> sources, const Topology& topo,
                              const Mapping& map, Algorithm algorithm, const SolveOptions& options) {
  if (algorithm == Algorithm::many)
    return run_many_queries(g, sources, topo, map,
                            {.queue = queue_of(algorithm), .pages = options.pages, .replicate = options.replicate});
  return run_queries_in_turn(g, sources, topo, map,
                             {.delta_stepping = algorithm == Algorithm::delta,
                              .queue = queue_of(algorithm),
                              .delta = options.delta,
                              .pages = options.pages});
}

PairAnswers answer_pairs(const graph::WeightedGraph& g, std::span<const graph::VertexPair> pairs, Queue queue) {
  Dijkstra search(g.vertices(), queue);
  std::vector<graph::Distance> work(static_cast<std::size_t>(g.vertices()));
  PairAnswers answers;
  answers.distances.reserve(pairs.size());
  for (const graph::VertexPair& q : pairs) {
    const harness::Timer timer;
    const graph::Distance d = search.distance(g.view(), q.source, q.target, work);
    answers.seconds += timer.seconds();
    answers.distances.push_back(d);
  }
  return answers;
}

}  // namespace ulibc::sssp
