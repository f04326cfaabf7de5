// simpath_verify_test.cpp — the Simpath verifier: OEIS A007764's table, and
// the ZDD checks accepting what the search builds while refusing, by name,
// each way a diagram can fail to be reduced or to hold the count it claims.
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <utility>

#include "simpath/simpath.hpp"
#include "simpath/verify.hpp"

namespace ulibc::simpath {
namespace {

#define EXPECT_CONTAINS(text, needle) EXPECT_NE(std::string(text).find(needle), std::string::npos) << (text)

// The one-cell grid's ZDD in bfs order (docs/ZDD_FORMAT.md's example): edges
// 0-1, 0-2, 1-3, 2-3; two paths, {0-1, 1-3} and {0-2, 2-3}.
Zdd one_cell() {
  Zdd z;
  z.edges = {{0, 1}, {0, 2}, {1, 3}, {2, 3}};
  z.levels = {{{make_ref(1, 0), make_ref(2, 0)}},  // 0-1 out: on to 0-2; in: on to 1-3
              {{kZero, make_ref(3, 0)}},           // 0-2 must be in, then 2-3
              {{kZero, kOne}},                     // 1-3 must be in
              {{kZero, kOne}}};                    // 2-3 must be in
  z.root = make_ref(0, 0);
  return z;
}

TEST(SimpathVerify, OeisTableCoversOneToFifteenCells) {
  EXPECT_EQ(oeis_grid_paths(0), nullptr);
  EXPECT_EQ(oeis_grid_paths(-1), nullptr);
  EXPECT_EQ(oeis_grid_paths(kOeisGridCells + 1), nullptr);
  EXPECT_STREQ(oeis_grid_paths(1), "2");
  EXPECT_STREQ(oeis_grid_paths(2), "12");
  // Each count is longer than the one before: the table is in order, none missing.
  for (int k = 2; k <= kOeisGridCells; ++k)
    EXPECT_GT(std::strlen(oeis_grid_paths(k)), std::strlen(oeis_grid_paths(k - 1))) << k;
}

TEST(SimpathVerify, AcceptsWhatTheSearchBuilds) {
  EXPECT_EQ(zdd_defect(one_cell(), "2"), "");
  EXPECT_EQ(count_sets_top_down(one_cell()), "2");
  for (const PathProblem& p : {grid_problem(1, 1), grid_problem(4, 4), grid_problem(3, 5), grid_problem(1, 130)}) {
    SCOPED_TRACE(p.name);
    for (int threads : {1, 2}) {
      const Result r = solve(p, {.threads = threads});
      EXPECT_EQ(zdd_defect(r.zdd, r.count), "");
      EXPECT_EQ(count_sets_top_down(r.zdd), r.count);
    }
  }
  EXPECT_EQ(count_sets_top_down(solve(grid_problem(1, 130), {}).zdd), "1361129467683753853853498429727072845824");
  // The empty family: the 0-terminal alone.
  const graph::EdgeList apart{.vertices = 4, .edges = {{0, 1}, {2, 3}}};
  const Result none = solve(graph_problem(apart, 0, 3, "apart"), {});
  EXPECT_EQ(zdd_defect(none.zdd, "0"), "");
  EXPECT_EQ(count_sets_top_down(none.zdd), "0");
}

TEST(SimpathVerify, RefusesADiagramThatIsNotReduced) {
  Zdd z = one_cell();
  z.levels[2][0].hi = kZero;  // 1-3's node keeps a hi arc to 0: it should have been its lo child
  EXPECT_CONTAINS(reduced_zdd_defect(z), "node 0 of step 2: a hi arc to the 0-terminal");

  z = one_cell();
  z.levels[3].push_back({kZero, kOne});  // a second node equal to the first
  z.levels[1][0].hi = make_ref(3, 1);
  EXPECT_CONTAINS(reduced_zdd_defect(z), "nodes 0 and 1 of step 3 have the same children");

  z = one_cell();
  z.levels[2].push_back({kOne, kOne});  // distinct, but no arc leads to it
  EXPECT_CONTAINS(reduced_zdd_defect(z), "node 1 of step 2 cannot be reached from the root");

  z = one_cell();
  z.root = kZero;  // an empty family with nodes left over
  EXPECT_CONTAINS(reduced_zdd_defect(z), "cannot be reached from the root");
}

TEST(SimpathVerify, RefusesArcsThatLeadNowhere) {
  const std::pair<NodeRef, const char*> bad[] = {
      {make_ref(2, 0), "its lo arc"},  // to its own step
      {make_ref(0, 0), "its lo arc"},  // upwards
      {make_ref(3, 7), "its lo arc"},  // beyond the step's nodes
      {make_ref(9, 0), "its lo arc"},  // beyond the last step
  };
  for (const auto& [to, what] : bad) {
    SCOPED_TRACE(to);
    Zdd z = one_cell();
    z.levels[2][0].lo = to;
    const std::string defect = reduced_zdd_defect(z);
    EXPECT_CONTAINS(defect, "node 0 of step 2");
    EXPECT_CONTAINS(defect, what);
    EXPECT_CONTAINS(defect, std::to_string(to));
  }
  Zdd z = one_cell();
  z.root = make_ref(4, 0);
  EXPECT_CONTAINS(reduced_zdd_defect(z), "the root");
  z = one_cell();
  z.levels.pop_back();
  EXPECT_CONTAINS(reduced_zdd_defect(z), "3 steps of nodes for 4 edges");
}

TEST(SimpathVerify, RefusesAWrongCount) {
  EXPECT_CONTAINS(zdd_defect(one_cell(), "3"), "the ZDD has 2 sets, not 3");
  EXPECT_CONTAINS(zdd_defect(one_cell(), "0"), "not 0");
  // The structure is checked first: a broken diagram is not counted.
  Zdd z = one_cell();
  z.levels[3][0].hi = kZero;
  EXPECT_CONTAINS(zdd_defect(z, "2"), "hi arc to the 0-terminal");
}

TEST(SimpathVerify, CanonicalFormIgnoresOnlyTheNumbering) {
  // The one-cell grid with step 3 holding two nodes, numbered either way round.
  Zdd a = one_cell();
  a.levels[3] = {{kZero, kOne}, {kOne, kOne}};
  a.levels[2][0].hi = make_ref(3, 1);
  Zdd b = a;
  std::swap(b.levels[3][0], b.levels[3][1]);
  b.levels[1][0].hi = make_ref(3, 1);
  b.levels[2][0].hi = make_ref(3, 0);
  EXPECT_EQ(zdd_defect(a, "3"), "");
  EXPECT_EQ(zdd_defect(b, "3"), "");
  EXPECT_FALSE(a.levels == b.levels);
  const Zdd ca = canonical_form(a), cb = canonical_form(b);
  EXPECT_TRUE(ca.levels == cb.levels);
  EXPECT_EQ(ca.root, cb.root);
  EXPECT_FALSE(canonical_form(one_cell()).levels == ca.levels);  // a different diagram stays different
}

}  // namespace
}  // namespace ulibc::simpath
