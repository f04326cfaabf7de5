// bfs_mpi_cli_test.cpp — `mpirun -n K ulibc bench bfs`: Graph500 across ranks as a user runs it. One record from
// rank 0 with every rank's share and traffic, the one-process run's keys and edge counts, bad options refused once by
// the whole job, and a job that loses a rank ends instead of hanging.
#include <gtest/gtest.h>

#include <chrono>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

// Small and quick, one team of one thread placed by scatter: the tests check the record, not the machine.
const std::vector<std::string> kQuick = {"bench",    "bfs",     "--quick",   "--scale", "11",
                                         "--policy", "scatter", "--threads", "1",       "--json"};

TEST(BfsMpiCli, RanksShareTheGraphAndRecordTheirTraffic) {
  SKIP_WITHOUT_MPIRUN();
  const auto alone = nlohmann::json::parse(run_cli(kQuick).out);
  for (const int ranks : {2, 3}) {
    const CliResult r = run_cli_ranks(ranks, kQuick);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);  // one record: rank 0's
    EXPECT_EQ(j["parameters"]["ranks"], ranks);
    EXPECT_EQ(j["parameters"]["grid"], ranks == 2 ? "2x1" : "3x1");
    // The same keys as one process draws from the same graph, each reaching the same edges at the same depth.
    EXPECT_EQ(j["parameters"]["roots"], alone["parameters"]["roots"]);
    const auto& run = j["runs"][0]["results"][0];
    EXPECT_TRUE(run["valid"].get<bool>()) << run["check"];
    const auto& details = run["details"];
    ASSERT_EQ(details["ranks"].size(), static_cast<std::size_t>(ranks));
    for (int k = 0; k < ranks; ++k) {
      EXPECT_EQ(details["ranks"][k]["rank"], k);
      EXPECT_GT(details["rank_bytes"][k].get<double>(), 0);
      EXPECT_GT(details["search_bytes_sent_per_edge"][k].get<double>(), 0);
      // Where its block lies: every whole page of it written, so on some node (one here; the NUMA lab checks which).
      const auto& pages = details["ranks"][k]["graph_pages"];
      std::size_t placed = 0;
      for (const auto& [node, count] : pages["per_node"].items()) placed += count.get<std::size_t>();
      EXPECT_GT(pages["pages"].get<std::size_t>(), 0u) << pages;
      EXPECT_EQ(placed + pages["absent"].get<std::size_t>(), pages["pages"].get<std::size_t>()) << pages;
      EXPECT_EQ(pages["absent"], 0) << pages;
    }
    const auto& solo = alone["runs"][0]["results"][0]["details"]["searches"];
    ASSERT_EQ(details["searches"].size(), solo.size());
    for (std::size_t s = 0; s < solo.size(); ++s) {
      const auto& search = details["searches"][s];
      EXPECT_EQ(search["edges"], solo[s]["edges"]);
      EXPECT_EQ(search["depth"], solo[s]["depth"]);
      for (const auto& level : search["levels"]) ASSERT_EQ(level["sent"].size(), static_cast<std::size_t>(ranks));
    }
  }
}

TEST(BfsMpiCli, TheTextReportSaysHowTheRanksShareTheWork) {
  SKIP_WITHOUT_MPIRUN();
  const CliResult r =
      run_cli_ranks(2, {"bench", "bfs", "--quick", "--policy", "compact", "--threads", "1", "--grid", "1x2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* line : {"num_mpi_processes: 2\n", "grid: 1x2\n",
                           "rank_memory_bytes: ", "rank_bytes_sent_per_edge: ", "validation: PASSED (8 of 8 searches)"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << " in\n" << r.out;
  EXPECT_EQ(r.out.find("numa"), std::string::npos) << "across ranks each rank is one node's share: no numa variant";
}

// Every level's bytes, on a grid with both rows and columns, are what docs/DISTRIBUTED_BFS.md's model says.
TEST(BfsMpiCli, TheByteModelAccountsForEveryLevel) {
  SKIP_WITHOUT_MPIRUN();
  TempDir dir;
  const std::string record = dir.path() + "/bfs.json";
  const CliResult r = run_cli_ranks(4, {"bench", "bfs", "--quick", "--scale", "12", "--policy", "scatter", "--threads",
                                        "1", "--variants", "do", "--json", record});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const CliResult model = run_program({"/usr/bin/python3", ULIBC_BFS_TRAFFIC_MODEL, record});
  EXPECT_EQ(model.exit_code, 0) << model.out << model.err;
  EXPECT_NE(model.out.find("grid 2x2"), std::string::npos) << model.out;
  EXPECT_NE(model.out.find("model holds"), std::string::npos) << model.out;
}

TEST(BfsMpiCli, BadJobsAreRefusedOnceByEveryRank) {
  SKIP_WITHOUT_MPIRUN();
  expect_job_refused(run_cli_ranks(2, with(kQuick, {"--grid", "3x1"})), "--grid 3x1");
  // The harness's own options are refused alike by every rank, and said once.
  expect_job_refused(run_cli_ranks(2, {"bench", "bfs", "--quick", "--threads", "0"}), "--threads 0");
  expect_job_refused(run_cli_ranks(3, {"bench", "bfs", "--scale", "7"}), "each rank needs at least 64");
  expect_job_refused(run_cli_ranks(2, with(kQuick, {"--write-graph", "never-written.el"})), "--write-graph");
  // Every rank checks its own share against its part of the machine's memory, before allocating.
  expect_job_refused(run_cli_ranks(2, {"bench", "bfs", "--scale", "30", "--edgefactor", "1024"}), "can use");
}

// A rank that dies takes the job with it: mpirun reports it and every rank is gone, in bounded time.
TEST(BfsMpiCli, AJobThatLosesARankEnds) {
  SKIP_WITHOUT_MPIRUN();
  const std::string bench = std::string(ULIBC_CLI_PATH) +
                            " bench bfs --scale 14 --roots 64 --policy none,scatter,compact,compact+ --threads 1";
  // Rank 1's shell starts a timer that kills it, then becomes ulibc (exec keeps the process id).
  const std::string job = "if [ \"$OMPI_COMM_WORLD_RANK\" = 1 ]; then (sleep 1; kill -9 $$) & fi; exec " + bench;
  const auto start = std::chrono::steady_clock::now();
  const CliResult r = run_program({kMpirun, "-n", "2", "sh", "-c", job}, kMpiLauncher);
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  EXPECT_NE(r.exit_code, 0) << r.out << r.err;
  EXPECT_LT(seconds, 60) << "the job outlived its rank by too long";
  EXPECT_NE(r.err.find("signal 9"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ulibc::testing
