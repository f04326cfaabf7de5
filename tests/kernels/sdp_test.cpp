// sdp_test.cpp — the SDP solver: ELEMENTS's three formulas against the plain Schur complement, the interior-point
// method on random problems with an optimum and on SDPLIB's problems with known optima or no feasible point.
#include "sdp/sdp.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <cctype>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "live_machine.hpp"
#include "sdp/cone.hpp"
#include "sdp/dense.hpp"
#include "sdp/elements.hpp"
#include "sdp/random_problem.hpp"
#include "sdp/sdpa_format.hpp"
#include "sdp/verify.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::sdp {
namespace {

using testing::expect_input_error;

using ulibc::testing::live;

// A random positive definite block matrix (A Aᵀ + I per dense block, positive LP entries).
BlockMatrix random_positive_definite(const std::vector<BlockShape>& shapes, unsigned seed) {
  BlockMatrix a(shapes), g(shapes);
  std::srand(seed);
  for (int b = 0; b < a.blocks(); ++b) {
    for (double& v : g.block(b)) v = std::rand() / static_cast<double>(RAND_MAX) - 0.5;
    const int n = a.shape(b).size;
    if (a.shape(b).diagonal) {
      for (int i = 0; i < n; ++i) a.block(b)[i] = 0.5 + std::abs(g.block(b)[i]);
      continue;
    }
    BlockMatrix gt = g;
    for (int i = 0; i < n; ++i)
      for (int j = 0; j < n; ++j) gt.block(b)[i + j * n] = g.block(b)[j + i * n];
    dense::multiply(g.block(b), gt.block(b), a.block(b), n);
    for (int i = 0; i < n; ++i) a.block(b)[i + i * n] += 1;
  }
  return a;
}

// The largest difference between ELEMENTS's lower triangle and the plain B, relative to B's largest entry.
double elements_error(const Problem& p, std::optional<Formula> formula, Placement placement, int threads,
                      PolicyKind policy = PolicyKind::compact) {
  const BlockMatrix xinv = random_positive_definite(p.blocks, 3), y = random_positive_definite(p.blocks, 4);
  const Mapping map = Mapping::build(live(), Policy(policy), threads);
  Elements elements(p, formula, live(), map, placement);
  const int m = p.m();
  std::vector<double> b(static_cast<std::size_t>(m) * m, NAN);
  elements.compute(xinv, y, b);
  const std::vector<double> ref = schur_reference(p, xinv, y);
  double worst = 0, scale = 0;
  for (int j = 0; j < m; ++j)
    for (int i = j; i < m; ++i) {
      worst = std::max(worst, std::abs(b[i + j * m] - ref[i + j * m]));
      scale = std::max(scale, std::abs(ref[i + j * m]));
    }
  return worst / scale;
}

const RandomProblemSpec kMixed{.m = 30, .blocks = {{12, false}, {5, false}, {7, true}, {1, false}}, .seed = 7};

TEST(Elements, EveryFormulaGivesThePlainSchurComplement) {
  const Problem p = random_problem(kMixed);
  for (auto formula :
       {std::optional<Formula>{}, std::optional(Formula::f1), std::optional(Formula::f2), std::optional(Formula::f3)})
    EXPECT_LT(elements_error(p, formula, Placement::copies, 1), 1e-13) << (formula ? formula_name(*formula) : "auto");
}

TEST(Elements, AnyTeamAndPlacementGivesTheSameMatrix) {
  for (std::uint64_t seed : {1, 2, 3}) {
    RandomProblemSpec spec = kMixed;
    spec.seed = seed;
    const Problem p = random_problem(spec);
    for (int threads : {1, 2, 3, 4})
      for (Placement placement : {Placement::copies, Placement::interleave, Placement::first_touch})
        for (PolicyKind policy : {PolicyKind::scatter, PolicyKind::compact})
          EXPECT_LT(elements_error(p, std::nullopt, placement, threads, policy), 1e-13)
              << threads << " threads, " << placement_name(placement);
  }
}

TEST(Elements, AutoChoosesEachFormulaWhereItIsCheapest) {
  const Problem p = random_problem({.m = 60, .blocks = {{40, false}, {6, true}}, .seed = 5});
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), 1);
  const auto counts = Elements(p, std::nullopt, live(), map, Placement::copies).formula_counts();
  EXPECT_GT(counts[0], 0) << "dense constraints use F1";
  EXPECT_GT(counts[2], 0) << "constraints of one or two entries use F3";
  const auto costs = detail::formula_costs(40, 1, 1, 200);
  EXPECT_LT(costs[2], costs[1]);
  EXPECT_LT(costs[1], costs[0]);
  const auto dense = detail::formula_costs(40, 1600, 40, 30000);
  EXPECT_LT(dense[0], dense[1]);
  EXPECT_LT(dense[1], dense[2]);
}

TEST(Elements, RowsAreSharedByCost) {
  const std::vector<double> cost = {10, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
  EXPECT_EQ(detail::balanced_ranges(cost, 2), (std::vector<int>{0, 1, 11}));
  EXPECT_EQ(detail::balanced_ranges(std::vector<double>{1, 1, 1, 1}, 2), (std::vector<int>{0, 2, 4}));
  EXPECT_EQ(detail::balanced_ranges(std::vector<double>{1}, 3), (std::vector<int>{0, 1, 1, 1}));
}

// Called from inside a parallel region with nesting off, ELEMENTS gets a team of one: its plan's other rows would
// stay unwritten, so it refuses.
TEST(Elements, RefusesATeamSmallerThanItsMapping) {
  const Problem p = random_problem(kMixed);
  const BlockMatrix xinv = random_positive_definite(p.blocks, 3), y = random_positive_definite(p.blocks, 4);
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), 2);
  Elements elements(p, std::nullopt, live(), map, Placement::copies);
  std::vector<double> b(static_cast<std::size_t>(p.m()) * p.m());
  const int levels = omp_get_max_active_levels();
  omp_set_max_active_levels(1);
  bool refused = false;
#pragma omp parallel num_threads(2)
#pragma omp single
  try {
    elements.compute(xinv, y, b);
  } catch (const Error& e) {
    refused = e.kind() == ErrorKind::system;
  }
  omp_set_max_active_levels(levels);
  EXPECT_TRUE(refused);
}

TEST(Elements, SchurComplementIsPositiveDefinite) {
  const Problem p = random_problem(kMixed);
  const BlockMatrix xinv = random_positive_definite(p.blocks, 8), y = random_positive_definite(p.blocks, 9);
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), 2);
  Elements elements(p, std::nullopt, live(), map, Placement::copies);
  std::vector<double> b(static_cast<std::size_t>(p.m()) * p.m());
  elements.compute(xinv, y, b);
  EXPECT_TRUE(dense::cholesky(b, p.m()));
}

Result solve_live(const Problem& p, int threads = 2, Options options = {}) {
  const Mapping map = Mapping::build(live(), Policy(PolicyKind::compact), threads);
  ScopedOpenMPTeam team(map);
  return solve(p, options, live(), map);
}

TEST(Solver, RandomProblemsReachACertifiedOptimum) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    RandomProblemSpec spec = kMixed;
    spec.seed = seed;
    const Problem p = random_problem(spec);
    const Result r = solve_live(p);
    EXPECT_EQ(r.phase, Phase::pdOPT) << "seed " << seed << ": " << r.reason;
    EXPECT_EQ(verify(p, r), "") << "seed " << seed;
    EXPECT_LE(r.relative_gap, 1e-7);
  }
}

TEST(Solver, SameAnswerUnderEveryFormulaTeamAndPlacement) {
  const Problem p = random_problem(kMixed);
  const Result base = solve_live(p, 1);
  for (auto formula : {Formula::f1, Formula::f2, Formula::f3})
    for (int threads : {1, 3}) {
      const Result r = solve_live(p, threads, {.elements = formula, .placement = Placement::interleave});
      EXPECT_EQ(r.phase, Phase::pdOPT);
      EXPECT_NEAR(r.obj_p, base.obj_p, 1e-6 * std::abs(base.obj_p));
    }
}

TEST(Solver, RefusesParametersSdpaWouldRefuse) {
  Parameters p;
  p.gamma_star = 1.5;
  EXPECT_THROW(check(p), Error);
  p = {};
  p.epsilon_star = 0;
  EXPECT_THROW(check(p), Error);
  p = {};
  p.max_iteration = 0;
  EXPECT_THROW(check(p), Error);
}

// One LP block of 3: X = diag(x1 − 1, −x1 − 1, x2) can never be ⪰ 0, and F_2 • Y = Y_33 = −1 never holds.
Problem neither_side_feasible() {
  Problem p{.blocks = {{3, true}}, .c = {0, -1}, .f = {}};
  p.f.resize(3);
  p.f[0].blocks = {{.block = 0, .entries = {{0, 0, 1}, {1, 1, 1}}}};
  p.f[1].blocks = {{.block = 0, .entries = {{0, 0, 1}, {1, 1, -1}}}};
  p.f[2].blocks = {{.block = 0, .entries = {{2, 2, 1}}}};
  return p;
}

TEST(Solver, NeitherSideFeasibleIsCertifiedSo) {
  const Problem p = neither_side_feasible();
  const Result r = solve_live(p, 1);
  EXPECT_EQ(r.phase, Phase::pdINF) << r.reason;
  EXPECT_EQ(verify(p, r), "");
}

TEST(Solver, CertificatesAreWhatFarkasSays) {
  const Problem p = neither_side_feasible();
  BlockMatrix y(p.blocks);
  y.block(0)[0] = y.block(0)[1] = 1e9;  // F_1 • Y = 0, F_0 • Y = 2e9 > 0: (P) has no point
  y.block(0)[2] = 1;                    // F_2 • Y = 1, 5e-10 of the margin
  EXPECT_TRUE(certifies_primal_infeasible(p, y));
  y.block(0)[1] = 2e9;  // F_1 • Y = −1e9
  EXPECT_FALSE(certifies_primal_infeasible(p, y));
  // x = (0, 1e6): Σ F_k x_k = diag(0, 0, 1e6) ⪰ 0 and c·x = −1e6 < 0: (D) has no point.
  EXPECT_TRUE(certifies_dual_infeasible(p, {0, 1e6}, 0));
  EXPECT_FALSE(certifies_dual_infeasible(p, {0, 1e3}, 0)) << "F_0 is 1e-3 of the margin at this size";
  EXPECT_FALSE(certifies_dual_infeasible(p, {0, 1e6}, 1e3)) << "the primal residual counts";
  EXPECT_FALSE(certifies_dual_infeasible(p, {0, -1e8}, 0)) << "c·x > 0";
}

TEST(Solver, RefusesAProblemWhoseSchurComplementCannotFit) {
  Problem p{.blocks = {{2, false}}, .c = std::vector<double>(1'000'000, 1.0), .f = {}};
  p.f.resize(p.c.size() + 1);  // B alone would be 8 TB
  expect_input_error([&] { solve_live(p, 1); }, "Schur complement");
}

TEST(RandomProblem, RefusesSpecsItCannotBuild) {
  EXPECT_EQ(parse_random_spec("random:20:8,-3:5").blocks.size(), 2u);
  for (const char* bad : {"random:x:4", "random:20", "random:20:4,y", "rand:20:4", "random:20:4:1:2"})
    expect_input_error([&] { parse_random_spec(bad); }, bad);
  expect_input_error([&] { random_problem(parse_random_spec("random:20:0")); }, "size 0");
  expect_input_error([&] { random_problem(parse_random_spec("random:99:4")); }, "m = 99");
}

TEST(Verify, CatchesAWrongAnswer) {
  const Problem p = random_problem(kMixed);
  Result r = solve_live(p);
  ASSERT_EQ(verify(p, r), "");
  Result moved = r;
  moved.x[0] += 1e-3;
  EXPECT_NE(verify(p, moved), "");
  Result outside = r;
  outside.Y.block(0)[0] -= 10;
  EXPECT_NE(verify(p, outside), "");
  Result unbounded = r;
  unbounded.phase = Phase::dUNBD;
  EXPECT_NE(verify(p, unbounded), "");
  for (Phase ray : {Phase::pINF, Phase::dINF, Phase::pdINF}) {
    Result infeasible = r;
    infeasible.phase = ray;
    EXPECT_NE(verify(p, infeasible), "") << phase_name(ray);
  }
}

TEST(Verify, AgreesToTheDigitsGiven) {
  EXPECT_TRUE(agrees(-8.9999963, -8.999996, 7));
  EXPECT_FALSE(agrees(-8.99998, -8.999996, 7));
  EXPECT_TRUE(agrees(2.03269, 2.0326, 5));
  EXPECT_FALSE(agrees(2.03272, 2.0326, 5));
  EXPECT_TRUE(agrees(-44.9435507, -44.9435, 6));
  EXPECT_FALSE(agrees(-44.9437, -44.9435, 6));
  EXPECT_TRUE(agrees(-436.0004, -436.0, 4));
}

// ---- SDPLIB (../shared/sdplib): every problem with a known optimum, and the two without a feasible point. ----

struct Known {
  std::string value;  // as the README lists it ("-8.999996e+00"), or "primal infeasible" / "dual infeasible"
};

// The README's table: "| name | m | n | value |".
std::map<std::string, Known> sdplib_table() {
  std::ifstream in(std::string(ULIBC_SDPLIB_DIR) + "/README.md");
  std::map<std::string, Known> table;
  std::string line;
  while (std::getline(in, line)) {
    std::vector<std::string> cells;
    std::stringstream row(line);
    for (std::string cell; std::getline(row, cell, '|');) {
      const auto first = cell.find_first_not_of(' '), last = cell.find_last_not_of(' ');
      if (first != std::string::npos) cells.push_back(cell.substr(first, last - first + 1));
    }
    if (cells.size() == 4 && std::filesystem::exists(std::string(ULIBC_SDPLIB_DIR) + "/" + cells[0] + ".dat-s"))
      table[cells[0]] = {cells[3]};
  }
  return table;
}

// Significant digits of a value as written: "-8.999996e+00" has 7, "-4.360e+02" 4.
int digits_of(const std::string& text) {
  const std::string mantissa = text.substr(0, text.find_first_of("eE"));
  int digits = 0;
  bool leading = true;
  for (char c : mantissa) {
    if (!std::isdigit(static_cast<unsigned char>(c))) continue;
    if (c != '0') leading = false;
    if (!leading) ++digits;
  }
  return digits;
}

// Solves an SDPLIB problem and checks its outcome against the README's value.
void expect_sdplib(const std::string& name, int threads = 2) {
  const auto table = sdplib_table();
  if (table.empty()) GTEST_SKIP() << "no SDPLIB problems at " << ULIBC_SDPLIB_DIR << " (../shared/sdplib)";
  ASSERT_TRUE(table.count(name)) << name << " is not in the README's table";
  const Problem p = read_sdpa_file(std::string(ULIBC_SDPLIB_DIR) + "/" + name + ".dat-s");
  const Result r = solve_live(p, threads);
  EXPECT_EQ(verify(p, r), "") << name;
  const std::string& known = table.at(name).value;
  if (known == "primal infeasible") {  // SDPLIB's primal is SDPA's (D): SDPA's (P) has no point, (D) runs off
    EXPECT_EQ(r.phase, Phase::dUNBD) << name << ": " << r.reason;
    return;
  }
  if (known == "dual infeasible") {
    EXPECT_EQ(r.phase, Phase::pUNBD) << name << ": " << r.reason;
    return;
  }
  EXPECT_EQ(r.phase, Phase::pdOPT) << name << ": " << r.reason;
  EXPECT_LE(r.relative_gap, 1e-6) << name;
  EXPECT_TRUE(agrees(r.obj_p, std::stod(known), digits_of(known)))
      << name << ": objValPrimal " << r.obj_p << ", known " << known;
}

// hinf1 has x of 1e4: a dual error of 1e-10, all that rounding leaves of F_k • Y, is a gap of 1e-6 by itself. ULIBC,
// like SDPA and CSDP, cannot reach SDPA's ε* = 1e-7 there: it must stop on its own (no progress), say so, hand back
// the best point it met, feasible within ε̄, and that point must agree with the known value and have the gap given.
// (control5 ended here too, at a gap that depended on the BLAS kernels' rounding, until the end game's Schur
// complement was shifted by its noise level: sdp/schur_system.hpp. It is solved to ε* below.)
void expect_at_rounding_floor(const std::string& name, double gap) {
  const auto table = sdplib_table();
  if (table.empty()) GTEST_SKIP() << "no SDPLIB problems at " << ULIBC_SDPLIB_DIR << " (../shared/sdplib)";
  const Problem p = read_sdpa_file(std::string(ULIBC_SDPLIB_DIR) + "/" + name + ".dat-s");
  const Result r = solve_live(p);
  EXPECT_EQ(verify(p, r), "") << name;
  if (r.phase == Phase::pdOPT) return;  // rounding was kind
  EXPECT_EQ(r.phase, Phase::pdFEAS) << name << ": " << r.reason;
  EXPECT_NE(r.reason.find("no progress"), std::string::npos) << r.reason;
  EXPECT_LE(r.relative_gap, gap) << name;
  const std::string& known = table.at(name).value;
  EXPECT_TRUE(agrees(r.obj_p, std::stod(known), digits_of(known)))
      << name << ": objValPrimal " << r.obj_p << ", known " << known;
}

TEST(Sdplib, Hinf1StopsAtTheRoundingFloorWithTheKnownValue) { expect_at_rounding_floor("hinf1", 1e-5); }

TEST(Sdplib, DigitsAreCountedAsWritten) {
  EXPECT_EQ(digits_of("-8.999996e+00"), 7);
  EXPECT_EQ(digits_of("-4.360e+02"), 4);
  EXPECT_EQ(digits_of("5.66517e-01"), 6);
}

class SdplibSmall : public ::testing::TestWithParam<std::string> {};
TEST_P(SdplibSmall, SolvedToTheKnownOptimumOrShownInfeasible) { expect_sdplib(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Sdplib, SdplibSmall,
                         ::testing::Values("truss1", "truss3", "truss4", "control1", "control2", "theta1", "mcp100",
                                           "qap5", "gpp100", "infp1", "infd1"));

TEST(SdplibSmall, OneThreadAndThreeThreadsAgree) {
  for (const char* name : {"theta1", "qap5"}) {
    expect_sdplib(name, 1);
    expect_sdplib(name, 3);
  }
}

class SdplibLarge : public ::testing::TestWithParam<std::string> {};
TEST_P(SdplibLarge, SolvedToTheKnownOptimum) { expect_sdplib(GetParam()); }
INSTANTIATE_TEST_SUITE_P(Sdplib, SdplibLarge, ::testing::Values("arch0", "control5", "gpp250-1", "mcp250-1", "theta2"));

// The order of rounding changes with the team (and with the BLAS kernels: scripts/test.sh runs this suite under each
// kernel type the processor has); control5's end game used to end at a different gap for each.
TEST(SdplibLarge, Control5IsSolvedOnOneAndThreeThreadsToo) {
  expect_sdplib("control5", 1);
  expect_sdplib("control5", 3);
}

}  // namespace
}  // namespace ulibc::sdp

namespace ulibc::sdp {
namespace {

// The exact step goes to the cone's boundary: a little less stays inside, a little more leaves it; Lanczos's
// estimate (on a block large enough to use it) is never shorter than the exact step by more than its 1e-3, and
// may be longer, which is why the solver factors the point it reaches before it takes it.
TEST(Cone, StepsReachTheBoundary) {
  const std::vector<BlockShape> shapes = {{80, false}, {5, false}, {6, true}};
  for (unsigned seed = 1; seed <= 5; ++seed) {
    const BlockMatrix a = random_positive_definite(shapes, seed);
    BlockMatrix d = random_positive_definite(shapes, seed + 100), f(shapes), probe(shapes), probe_factor(shapes);
    d.axpy(-1, random_positive_definite(shapes, seed + 200));  // indefinite
    ASSERT_TRUE(factor(a, f, 1));
    const auto [exact, same] = max_steps(f, d, f, d, 1e30, 2, StepMethod::exact);
    EXPECT_EQ(exact, same);
    ASSERT_LT(exact, 1e30);
    for (const auto& [scale, inside] : {std::pair{0.999, true}, std::pair{1.001, false}}) {
      probe = a;
      probe.axpy(scale * exact, d);
      EXPECT_EQ(factor(probe, probe_factor, 1), inside) << "seed " << seed << ", " << scale << " of the step";
    }
    const auto [estimate, unused] = max_steps(f, d, f, d, 1e30, 1, StepMethod::estimate);
    EXPECT_GE(estimate, exact * (1 - 2e-3)) << "seed " << seed;
  }
}

TEST(Dense, TeamCholeskyIsLapacksCholesky) {
  for (int n : {5, 130, 200, 251}) {
    const BlockMatrix a = random_positive_definite({{n, false}}, static_cast<unsigned>(n));
    std::vector<double> one(a.values().begin(), a.values().end()), team = one;
    ASSERT_TRUE(dense::cholesky(one, n));
    ASSERT_TRUE(dense::cholesky_team(team, n, 3));
    double worst = 0;
    for (int j = 0; j < n; ++j)
      for (int i = j; i < n; ++i) worst = std::max(worst, std::abs(one[i + j * n] - team[i + j * n]));
    EXPECT_LT(worst, 1e-12) << n;
    std::vector<double> indefinite(a.values().begin(), a.values().end());
    indefinite[static_cast<std::size_t>(n - 1) * n + n - 1] = -1e6;
    EXPECT_FALSE(dense::cholesky_team(indefinite, n, 2)) << n;
  }
}

}  // namespace
}  // namespace ulibc::sdp
