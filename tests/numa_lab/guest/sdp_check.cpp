// sdp_check.cpp — the SDP solver's ELEMENTS keeps its reads and writes on the node of the thread that does them:
// under Placement::copies each node's copy of X⁻¹ and Y lies on that node (a memory-less node's on the nearest node
// with memory), interleaved copies spread over the mapping's nodes, and each thread's rows of B lie on its node;
// and the solver reaches the same optimum on teams that span nodes as on one thread.
#include <gtest/gtest.h>

#include <cmath>

#include "lab.hpp"
#include "sdp/random_problem.hpp"
#include "sdp/sdp.hpp"
#include "sdp/verify.hpp"
#include "ulibc/affinity.hpp"

namespace {

using lab::describe;
using lab::machine;
using lab::where;
using ulibc::Mapping;
namespace sdp = ulibc::sdp;

// Large enough that each node's rows of B span whole pages (m² doubles), small enough to solve in emulation.
const sdp::RandomProblemSpec kProblem{.m = 256, .blocks = {{24, false}, {8, false}, {16, true}}, .seed = 3};

// The pages of [data, data + bytes) are all on `node`.
void expect_on(const void* data, std::size_t bytes, int node, const std::string& what) {
  const auto placed = ulibc::page_placement(data, bytes);
  const auto on = placed.per_node.find(node);
  EXPECT_EQ(on == placed.per_node.end() ? 0 : on->second, placed.pages)
      << what << ": expected on node " << node << ", found " << describe(placed);
}

void placement_case(const sdp::Problem& p, const Mapping& map) {
  const ulibc::ScopedOpenMPTeam team(map);
  sdp::Elements elements(p, std::nullopt, lab::live(), map, sdp::Placement::copies);
  sdp::BlockMatrix identity(p.blocks);
  identity.set_identity(1);
  std::vector<double> b(static_cast<std::size_t>(p.m()) * p.m());
  elements.compute(identity, identity, b);  // writes the copies and the rows: every page exists
  ASSERT_EQ(elements.copies().size(), static_cast<std::size_t>(map.nodes_used()));
  for (int k = 0; k < map.nodes_used(); ++k) {
    const int holder = machine().nearest_memory_node(map.node_ids()[static_cast<std::size_t>(k)]);
    const ulibc::NumaBuffer& copy = elements.copies()[static_cast<std::size_t>(k)];
    expect_on(copy.data(), copy.size(), holder, "node index " + std::to_string(k) + "'s copy of X^-1 and Y");
  }
  const std::size_t page = ulibc::page_size(), m = static_cast<std::size_t>(p.m());
  for (int t = 0; t < map.size(); ++t) {
    const auto [begin, end] = elements.rows_of(t);
    // The whole pages inside the thread's rows (a row range's ends share pages with its neighbours').
    const auto first = reinterpret_cast<std::uintptr_t>(elements.raw_rows().data() + begin * m);
    const auto last = reinterpret_cast<std::uintptr_t>(elements.raw_rows().data() + end * m);
    const std::uintptr_t from = (first + page - 1) / page * page, to = last / page * page;
    if (from >= to) continue;
    expect_on(
        reinterpret_cast<const void*>(from), to - from, machine().nearest_memory_node(map[t].node),
        "thread " + std::to_string(t) + "'s rows " + std::to_string(begin) + "-" + std::to_string(end - 1) + " of B");
  }
}

TEST(Sdp, ElementsReadsAndWritesOnEachThreadsNode) {
  const sdp::Problem p = sdp::random_problem(kProblem);
  for (const Mapping& map : lab::team_mappings(lab::live())) lab::check(where(map), [&] { placement_case(p, map); });
}

// One solve per team that spans nodes, two at most (emulated barriers are slow), the placements taken in turn.
TEST(Sdp, SameOptimumOnTeamsThatSpanNodes) {
  const sdp::Problem p = sdp::random_problem({.m = 12, .blocks = {{6, false}, {3, true}}, .seed = 4});
  const Mapping one = Mapping::build(lab::live(), ulibc::Policy(ulibc::PolicyKind::compact), 1);
  const sdp::Result base = sdp::solve(p, {}, lab::live(), one);
  ASSERT_EQ(base.phase, sdp::Phase::pdOPT) << base.reason;
  int turn = 0;
  for (const Mapping& map : lab::team_mappings(lab::live())) {
    if (map.nodes_used() < 2 || turn == 2) continue;
    const sdp::Placement placement = turn++ % 2 ? sdp::Placement::interleave : sdp::Placement::copies;
    lab::check(where(map) + ", " + sdp::placement_name(placement), [&] {
      const ulibc::ScopedOpenMPTeam team(map);
      const sdp::Result r = sdp::solve(p, {.placement = placement}, lab::live(), map);
      EXPECT_EQ(r.phase, sdp::Phase::pdOPT) << r.reason;
      EXPECT_EQ(sdp::verify(p, r), "");
      EXPECT_NEAR(r.obj_p, base.obj_p, 1e-6 * std::abs(base.obj_p));
    });
  }
}

}  // namespace
