// sssp_solve_test.cpp — what the sssp library decides and writes for its commands.
//
// The algorithm each option resolves to and every refusal, with its message;
// every algorithm's answers through solve_sources and answer_pairs on a
// graph solved by hand; and the DIMACS check lines, to the letter.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "expect_error.hpp"
#include "graph/weighted_graph.hpp"
#include "sssp/check_lines.hpp"
#include "sssp/sssp.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::sssp {
namespace {

using graph::kUnreached;
using ulibc::testing::expect_input_error;

constexpr Algorithm kAll[] = {Algorithm::radix, Algorithm::binary, Algorithm::delta, Algorithm::many};

RoadProblem with_sources(std::size_t count) {
  RoadProblem p;
  p.sources.assign(count, 0);
  return p;
}

RoadProblem with_pairs() {
  RoadProblem p;
  p.pairs = {{0, 1}};
  return p;
}

// 1 -> 2 (3, and a parallel 7), 2 -> 3 (4), 1 -> 3 (9), 3 -> 1 (0), a
// self-loop on 2, and 4 -> 5 (1) out of reach of 1..3, in DIMACS ids.
// Checksums by hand, per source: 1: 0+3+7 = 10; 2: 4+0+4 = 8; 3: 3; 4: 1; 5: 0.
RoadProblem tiny() {
  RoadProblem p;
  p.graph = graph::build_weighted(
      {.vertices = 5, .arcs = {{0, 1, 3}, {1, 2, 4}, {0, 2, 9}, {2, 0, 0}, {1, 1, 5}, {0, 1, 7}, {3, 4, 1}}});
  p.name = "tiny.gr";
  return p;
}

TEST(SsspAlgorithm, AutoIsRadixOnOneThreadElseManyWhenThereAreSourcesForEveryThread) {
  EXPECT_EQ(resolve_algorithm("auto", 1, with_sources(1), {}), Algorithm::radix);
  EXPECT_EQ(resolve_algorithm("auto", 1, with_sources(100), {}), Algorithm::radix);
  EXPECT_EQ(resolve_algorithm("auto", 4, with_sources(4), {}), Algorithm::many);
  EXPECT_EQ(resolve_algorithm("auto", 4, with_sources(3), {}), Algorithm::delta);
  EXPECT_EQ(resolve_algorithm("auto", 1, with_pairs(), {}), Algorithm::radix);
  EXPECT_EQ(resolve_algorithm("auto", 2, with_sources(2), {.replicate = true}), Algorithm::many);
  EXPECT_EQ(resolve_algorithm("auto", 2, with_sources(1), {.delta = 64}), Algorithm::delta);
}

TEST(SsspAlgorithm, EachNameIsItsAlgorithm) {
  for (const Algorithm a : kAll)
    EXPECT_EQ(resolve_algorithm(to_string(a), is_sequential(a) ? 1 : 2, with_sources(2), {}), a) << to_string(a);
  EXPECT_EQ(to_string(Algorithm::radix), "radix");
  EXPECT_EQ(to_string(Algorithm::binary), "binary");
  EXPECT_EQ(to_string(Algorithm::delta), "delta");
  EXPECT_EQ(to_string(Algorithm::many), "many");
  EXPECT_EQ(queue_of(Algorithm::binary), Queue::binary_heap);
  for (const Algorithm a : {Algorithm::radix, Algorithm::delta, Algorithm::many})
    EXPECT_EQ(queue_of(a), Queue::radix_heap) << to_string(a);
  // The team algorithms may run on one thread; the one-thread ones never on more.
  EXPECT_EQ(resolve_algorithm("delta", 1, with_sources(1), {}), Algorithm::delta);
  EXPECT_EQ(resolve_algorithm("many", 1, with_sources(1), {}), Algorithm::many);
}

TEST(SsspAlgorithm, RefusalsNameTheOptionAndWhatWouldDo) {
  expect_input_error([] { resolve_algorithm("fast", 1, with_sources(1), {}); },
                     "--algorithm fast: choose auto, radix, binary, delta or many");
  for (const char* name : {"radix", "binary"})
    expect_input_error([&] { resolve_algorithm(name, 2, with_sources(1), {}); },
                       std::string("--algorithm ") + name +
                           " runs on one thread, not 2: use delta (one query on the team) or many (queries spread "
                           "over it)");
  // auto on a team is a team algorithm, which point-to-point queries refuse.
  for (const char* name : {"auto", "delta", "many"})
    expect_input_error([&] { resolve_algorithm(name, 2, with_pairs(), {}); },
                       "--pairs: point-to-point queries are answered by --algorithm radix or binary (one thread)");
  for (const char* name : {"radix", "delta"})
    expect_input_error([&] { resolve_algorithm(name, 1, with_sources(1), {.replicate = true}); },
                       "--replicate: only --algorithm many reads graph copies");
  for (const char* name : {"radix", "binary", "many"})
    expect_input_error([&] { resolve_algorithm(name, 1, with_sources(1), {.delta = 64}); },
                       "--delta: only --algorithm delta has a Δ");
  // The team comes first: that is what the user must change before anything else.
  expect_input_error([] { resolve_algorithm("radix", 2, with_sources(1), {.delta = 64, .replicate = true}); },
                     "one thread");
}

TEST(SsspSolve, EveryAlgorithmGivesTheChecksumsSolvedByHand) {
  const Topology topo = Topology::load();
  const RoadProblem p = tiny();
  const std::vector<Vertex> sources = {0, 1, 2, 3, 4};
  const std::vector<std::uint64_t> expected = {10, 8, 3, 1, 0};
  for (const Algorithm a : kAll)
    for (const int threads : {1, 2}) {
      if (is_sequential(a) && threads > 1) continue;
      const Mapping map = Mapping::build(topo, Policy(PolicyKind::none), threads);
      const ManyQueryResult r = solve_sources(p.graph, sources, topo, map, a, {});
      ASSERT_EQ(r.queries.size(), sources.size());
      for (std::size_t i = 0; i < sources.size(); ++i) {
        EXPECT_EQ(r.queries[i].source, sources[i]);
        EXPECT_EQ(r.queries[i].reach.checksum, expected[i]) << to_string(a) << " on " << threads << ", source " << i;
      }
    }
}

TEST(SsspSolve, PairsAreAnsweredWithTheirDistancesOrUnreached) {
  const RoadProblem p = tiny();
  const std::vector<graph::VertexPair> pairs = {{0, 2}, {2, 1}, {0, 4}, {3, 4}};
  for (const Queue q : {Queue::binary_heap, Queue::radix_heap}) {
    const PairAnswers answers = answer_pairs(p.graph, pairs, q);
    EXPECT_EQ(answers.distances, (std::vector<graph::Distance>{7, 3, kUnreached, 1})) << to_string(q);
    EXPECT_GE(answers.seconds, 0);
  }
  EXPECT_TRUE(answer_pairs(p.graph, {}, Queue::radix_heap).distances.empty());
}

TEST(SsspSolve, TepsAreTheReachedArcsOverTheBatchsTime) {
  ManyQueryResult r;
  EXPECT_EQ(r.teps(), 0);
  r.queries = {{.reach = {.arcs = 6}}, {.reach = {.arcs = 1}}};
  EXPECT_EQ(r.teps(), 0) << "no time, no rate";
  r.seconds = 0.5;
  EXPECT_DOUBLE_EQ(r.teps(), 14);
}

TEST(SsspCheckLines, SingleSourceLinesToTheLetter) {
  RoadProblem p = tiny();
  const std::vector<QueryRecord> queries = {{.source = 0, .reach = {.checksum = 10}},
                                            {.source = 3, .reach = {.checksum = 1}}};
  EXPECT_EQ(graph_line(p.graph), "g 5 7 0 9\n");
  EXPECT_EQ(checksum_lines(queries), "d 1 10\nd 4 1\n");
  EXPECT_EQ(checksum_lines(queries, 1), "d 1 10\n");
  EXPECT_EQ(checksum_lines(queries, 0), "");
  EXPECT_EQ(source_check_lines(p, queries), "p chk sp ss ulibc\nf tiny.gr\ng 5 7 0 9\nd 1 10\nd 4 1\n");
  p.queries_file = "tiny.ss";
  EXPECT_EQ(source_check_lines(p, queries), "p chk sp ss ulibc\nf tiny.gr tiny.ss\ng 5 7 0 9\nd 1 10\nd 4 1\n");
}

TEST(SsspCheckLines, PointToPointLinesToTheLetter) {
  RoadProblem p = tiny();
  p.pairs = {{0, 2}, {0, 4}};
  p.queries_file = "tiny.p2p";
  const std::vector<graph::Distance> distances = {7, kUnreached};
  EXPECT_EQ(pair_check_lines(p, distances), "p chk sp p2p ulibc\nf tiny.gr tiny.p2p\ng 5 7 0 9\nd 1 3 7\nd 1 5 -1\n");
  EXPECT_THROW(pair_check_lines(p, std::vector<graph::Distance>{7}), std::logic_error);
}

}  // namespace
}  // namespace ulibc::sssp
