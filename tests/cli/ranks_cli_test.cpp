// ranks_cli_test.cpp — a machine shared by several processes: `ulibc map --ranks K` shows each one's share, and
// `ulibc run` started by an MPI launcher places each process's threads inside its local rank's share.
#include <gtest/gtest.h>
#include <unistd.h>

#include <map>
#include <set>
#include <string>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"
#include "ulibc.hpp"

namespace ulibc::testing {
namespace {

// 8 nodes of 2 cores: 4 ranks take 2 whole nodes each.
const FakeMachine kEightNodes{.packages = 8, .cores_per_package = 2};

TEST(RanksCli, MapShowsEachRanksShareAndItsThreads) {
  TempDir dir;
  write_fake_sysfs(kEightNodes, dir.path());
  const auto j = run_cli_json({"map", "--fsroot", dir.path(), "--ranks", "4", "--policy", "scatter", "--json"});
  EXPECT_EQ(j["ranks"], 4);
  EXPECT_EQ(j["rule"], "whole nodes");
  ASSERT_EQ(j["shares"].size(), 4u);
  const Topology topo = Topology::load(dir.path(), Detail::placement);
  for (int r = 0; r < 4; ++r) {
    const auto& share = j["shares"][r];
    EXPECT_EQ(share["rank"], r);
    const CpuSet cpus = CpuSet::parse_list(share["processors"].get<std::string>());
    std::set<int> nodes;
    for (int id : cpus) nodes.insert(topo.processor(id)->node);
    EXPECT_EQ(nodes, (std::set<int>{2 * r, 2 * r + 1}));
    // Every thread inside the share, one per processor by default; scatter alternates the share's two nodes.
    const auto& threads = share["mapping"]["threads"];
    EXPECT_EQ(threads.size(), 4u);
    for (const auto& t : threads) EXPECT_TRUE(cpus.test(t["proc"].get<int>())) << t.dump();
    EXPECT_NE(threads[0]["node"], threads[1]["node"]);
  }
}

TEST(RanksCli, MapTextNamesEachRank) {
  TempDir dir;
  write_fake_sysfs(kEightNodes, dir.path());
  const CliResult r = run_cli({"map", "--fsroot", dir.path(), "--ranks", "2", "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("Rank 0 of 2: processors 0-7 (whole nodes)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Rank 1 of 2: processors 8-15 (whole nodes)"), std::string::npos) << r.out;
}

TEST(RanksCli, RunUnderALauncherPlacesThreadsInTheLocalRanksShare) {
  TempDir dir;
  write_fake_sysfs(kEightNodes, dir.path());
  const auto j = run_cli_json({"run", "--dry-run", "--json", "--fsroot", dir.path(), "--policy", "compact"},
                              {{"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}});
  EXPECT_EQ(j["local_rank"]["rank"], 1);
  EXPECT_EQ(j["local_rank"]["ranks"], 4);
  EXPECT_EQ(j["local_rank"]["processors"], "4-7");  // nodes 2 and 3
  EXPECT_EQ(j["set"]["OMP_PLACES"], "{4},{5},{6},{7}");
  EXPECT_EQ(j["set"]["OMP_NUM_THREADS"], "4");
}

TEST(RanksCli, RunWithoutBindingTakesNoShare) {
  TempDir dir;
  write_fake_sysfs(kEightNodes, dir.path());
  const auto j = run_cli_json({"run", "--dry-run", "--json", "--fsroot", dir.path(), "--policy", "none", "-n", "2"},
                              {{"OMPI_COMM_WORLD_LOCAL_RANK", "1"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}});
  EXPECT_FALSE(j.contains("local_rank"));
}

TEST(RanksCli, BadRankCountsAndLauncherValuesAreRefused) {
  TempDir dir;
  write_fake_sysfs(kEightNodes, dir.path());
  expect_usage_error(run_cli({"map", "--fsroot", dir.path(), "--ranks", "0"}), {"--ranks"});
  expect_usage_error(run_cli({"run", "--dry-run", "--fsroot", dir.path(), "--policy", "compact"},
                             {{"OMPI_COMM_WORLD_LOCAL_RANK", "4"}, {"OMPI_COMM_WORLD_LOCAL_SIZE", "4"}}),
                     {"OMPI_COMM_WORLD_LOCAL_RANK=\"4\"", "local rank from 0 to 3"});
}

// A real launcher: `mpirun -n K ulibc run` on this machine, every rank writing its plan to a file of its own.
// Root and more ranks than processors are allowed through Open MPI's own settings, as CI needs.
TEST(RanksCli, MpirunGivesEachRankItsShare) {
  const std::string mpirun = "/usr/bin/mpirun";
  if (access(mpirun.c_str(), X_OK) != 0) GTEST_SKIP() << mpirun << " not found (scripts/setup.sh installs openmpi-bin)";
  const std::map<std::string, std::string> open_mpi = {{"OMPI_ALLOW_RUN_AS_ROOT", "1"},
                                                       {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
                                                       {"OMPI_MCA_rmaps_base_oversubscribe", "1"}};
  const Topology live = Topology::load("/", Detail::placement);
  for (int ranks : {1, 2, 3, 4}) {
    SCOPED_TRACE(std::to_string(ranks) + " ranks");
    TempDir dir;
    const CliResult r = run_program(
        {mpirun, "-n", std::to_string(ranks), "sh", "-c",
         "exec \"$0\" run --dry-run --json --policy compact -- true > \"$1/rank$OMPI_COMM_WORLD_RANK.json\"",
         ULIBC_CLI_PATH, dir.path()},
        open_mpi);
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const RankShares expected = rank_shares(live, Policy(PolicyKind::compact), ranks);
    for (int rank = 0; rank < ranks; ++rank) {
      const auto plan = nlohmann::json::parse(read_file(dir.path() + "/rank" + std::to_string(rank) + ".json"));
      const auto& me = plan["local_rank"];
      EXPECT_EQ(me["ranks"], ranks);
      const int local = me["rank"].get<int>();
      EXPECT_EQ(me["processors"], expected.cpus[static_cast<std::size_t>(local)].to_list()) << plan.dump();
      EXPECT_EQ(plan["threads"], expected.cpus[static_cast<std::size_t>(local)].count());
    }
  }
}

}  // namespace
}  // namespace ulibc::testing
