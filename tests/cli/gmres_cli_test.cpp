// tests/cli/gmres_cli_test.cpp — `ulibc gmres` as a user runs it: alone and under mpirun, its record, its files, its
// exit codes and its refusals.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A top-level stage of a solve's log of where the time went: its JSON, null when it never ran.
nlohmann::json stage_of(const nlohmann::json& log, const std::string& name) {
  for (const auto& s : log.value("stages", nlohmann::json::array()))
    if (s["name"] == name) return s;
  return nullptr;
}

TEST(GmresCli, OneRankWithoutMpirunGivesTheRecord) {
  const auto j = run_cli_json({"gmres", "--generate", "convdiff2d:12", "--tol", "1e-9", "--json"}, kMpiAlone);
  EXPECT_EQ(j["converged"], true);
  EXPECT_LE(j["true_relative_residual"].get<double>(), 1e-9);
  EXPECT_GT(j["iterations"].get<long>(), 0);
  EXPECT_EQ(j["ranks"], 1);
  EXPECT_EQ(j["matrix"]["rows"], 144);
  for (const char* knob : {"restart", "orth", "precond", "spmv", "comm"}) EXPECT_TRUE(j["choices"].contains(knob));
  const auto& log = j["time"];
  EXPECT_EQ(log["name"], "solve");
  EXPECT_GT(log["seconds"].get<double>(), 0);
  // A problem this small converges within the tuner's trials, whose stages are all tuning's.
  for (const char* part : {"spmv", "tuning"}) {
    const auto stage = stage_of(log, part);
    ASSERT_FALSE(stage.is_null()) << part << " in " << log;
    EXPECT_GT(stage["count"].get<long>(), 0) << part;
    EXPECT_LE(stage["seconds"].get<double>(), log["seconds"].get<double>()) << part;
  }
  EXPECT_EQ(stage_of(log, "spmv")["stages"][0]["name"], "comm") << log;  // MPI's part of the products
  ASSERT_EQ(j["rank_table"].size(), 1u);
  EXPECT_FALSE(j["decisions"].empty());
}

TEST(GmresCli, FixedKnobsAreKeptAndPrinted) {
  const auto j = run_cli_json({"gmres", "--generate", "poisson2d:10", "--restart", "7", "--orth", "mgs", "--precond",
                               "bilu0", "--spmv", "unroll4", "--comm", "isend", "--json"},
                              kMpiAlone);
  EXPECT_EQ(j["choices"]["restart"], 7);
  EXPECT_EQ(j["choices"]["orth"], "mgs");
  EXPECT_EQ(j["choices"]["precond"], "bilu0");
  EXPECT_EQ(j["choices"]["spmv"], "unroll4");
  EXPECT_EQ(j["choices"]["comm"], "isend");
  EXPECT_TRUE(j["decisions"].empty()) << j["decisions"].dump();
}

// --rhs reads b, --output writes x: A = 2I on three rows, b = (2, 4, 6), so x = (1, 2, 3).
TEST(GmresCli, RhsInSolutionOut) {
  TempDir dir;
  write(dir.path() + "/a.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 3\n1 1 2\n2 2 2\n3 3 2\n");
  write(dir.path() + "/b.mtx", "%%MatrixMarket matrix array real general\n3 1\n2\n4\n6\n");
  const CliResult r = run_cli(
      {"gmres", "--matrix", dir.path() + "/a.mtx", "--rhs", dir.path() + "/b.mtx", "--output", dir.path() + "/x.mtx"},
      kMpiAlone);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("converged"), std::string::npos) << r.out;
  EXPECT_EQ(read_file(dir.path() + "/x.mtx"), "%%MatrixMarket matrix array real general\n3 1\n1\n2\n3\n");
}

// The time split as the paper's Fig. 12 draws it: a stacked bar, written where --plot says.
TEST(GmresCli, PlotDrawsTheTimeSplit) {
  TempDir dir;
  const std::string svg = dir.path() + "/split.svg";
  const CliResult r = run_cli({"gmres", "--generate", "convdiff2d:12", "--plot", svg}, kMpiAlone);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(read_file(svg).find("<svg"), std::string::npos);
}

TEST(GmresCli, NotConvergingExitsThreeWithTheResidualReached) {
  const CliResult r = run_cli({"gmres", "--generate", "convdiff2d:30", "--precond", "none", "--restart", "5",
                               "--max-iterations", "10", "--json"},
                              kMpiAlone);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("did not converge: true relative residual"), std::string::npos) << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["converged"], false);
  EXPECT_GT(j["true_relative_residual"].get<double>(), 1e-8);
  EXPECT_EQ(j["iterations"], 10);
}

TEST(GmresCli, BadInputIsNamed) {
  TempDir dir;
  write(dir.path() + "/bad.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 1 1\n4 1 1\n");
  expect_usage_error(run_cli({"gmres", "--matrix", dir.path() + "/bad.mtx"}, kMpiAlone), {"bad.mtx:4:"});
  write(dir.path() + "/wide.mtx", "%%MatrixMarket matrix coordinate real general\n2 3 2\n1 1 1\n2 3 1\n");
  expect_usage_error(run_cli({"gmres", "--matrix", dir.path() + "/wide.mtx"}, kMpiAlone), {"2 x 3", "square"});
  write(dir.path() + "/nan.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 nan\n2 2 1\n");
  expect_usage_error(run_cli({"gmres", "--matrix", dir.path() + "/nan.mtx"}, kMpiAlone), {"nan.mtx:3:"});
  write(dir.path() + "/short.mtx", "%%MatrixMarket matrix coordinate real general\n2 2 2\n1 1 1\n");
  expect_usage_error(run_cli({"gmres", "--matrix", dir.path() + "/short.mtx"}, kMpiAlone), {"short.mtx"});
  expect_usage_error(run_cli({"gmres", "--generate", "poisson2d:5", "--tol", "0"}, kMpiAlone), {"--tol"});
  expect_usage_error(run_cli({"gmres", "--generate", "poisson2d:5", "--restart", "0"}, kMpiAlone), {"--restart"});
  expect_usage_error(run_cli({"gmres", "--generate", "poisson2d:5", "--orth", "gs"}, kMpiAlone),
                     {"orthogonalisation", "cgs2"});
  expect_usage_error(run_cli({"gmres", "--generate", "poisson2d:5", "--comm", "tcp"}, kMpiAlone), {"irecv"});
  expect_usage_error(run_cli({"gmres"}, kMpiAlone), {"--matrix", "--generate"});
  // A zero pivot: row 2 has no diagonal entry.
  write(dir.path() + "/pivot.mtx",
        "%%MatrixMarket matrix coordinate real general\n3 3 5\n1 1 2\n1 2 1\n2 1 1\n2 3 1\n3 3 2\n");
  expect_usage_error(run_cli({"gmres", "--matrix", dir.path() + "/pivot.mtx", "--precond", "bilu0"}, kMpiAlone),
                     {"zero pivot in row 2"});
  write(dir.path() + "/b.mtx", "%%MatrixMarket matrix array real general\n2 1\n1\n1\n");
  expect_usage_error(
      run_cli({"gmres", "--matrix", dir.path() + "/pivot.mtx", "--rhs", dir.path() + "/b.mtx"}, kMpiAlone),
      {"b.mtx", "vector of 3"});
}

// --tuning-file: the first solve tunes and stores its choices; the second of the same matrix starts from them, with
// no trials and no tuning time; another matrix gets a record of its own; a malformed file is refused by name.
TEST(GmresCli, TuningFileRemembersTheChoices) {
  TempDir dir;
  const std::string file = dir.path() + "/tuned.json";
  const std::vector<std::string> first = {"gmres", "--generate", "convdiff2d:30", "--tuning-file", file, "--json"};
  const auto tuned = run_cli_json(first, kMpiAlone);
  EXPECT_EQ(tuned["converged"], true);
  EXPECT_GT(stage_of(tuned["time"], "tuning")["seconds"].get<double>(), 0);
  const auto again = run_cli_json(first, kMpiAlone);
  EXPECT_EQ(again["converged"], true);
  EXPECT_EQ(again["choices"], tuned["choices"]);
  EXPECT_EQ(again["trial_iterations"], 0);
  EXPECT_TRUE(stage_of(again["time"], "tuning").is_null()) << again["time"];
  for (const auto& d : again["decisions"])
    EXPECT_NE(d["reason"].get<std::string>().find(file), std::string::npos) << d.dump();
  EXPECT_EQ(again["decisions"].size(), 5u);

  run_cli_json({"gmres", "--generate", "poisson2d:30", "--tuning-file", file, "--json"}, kMpiAlone);
  EXPECT_EQ(nlohmann::json::parse(read_file(file))["tuned"].size(), 2u);

  write(file, "{\"tuned\": 3}");
  expect_usage_error(run_cli({"gmres", "--generate", "convdiff2d:30", "--tuning-file", file}, kMpiAlone), {file});
}

class GmresMpirun : public ::testing::Test {
 protected:
  void SetUp() override { SKIP_WITHOUT_MPIRUN(); }
  CliResult gmres(int ranks, std::vector<std::string> args) {
    std::vector<std::string> words = {"gmres"};
    words.insert(words.end(), args.begin(), args.end());
    return run_cli_ranks(ranks, words);
  }
};

// Every rank in the table, once; rank 0 alone prints.
TEST_F(GmresMpirun, TwoAndThreeRanksSolveAndPrintOneRecord) {
  for (int ranks : {2, 3}) {
    const CliResult r = gmres(ranks, {"--generate", "convdiff2d:20", "--json"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(r.out);
    EXPECT_EQ(j["ranks"], ranks);
    EXPECT_EQ(j["converged"], true);
    ASSERT_EQ(j["rank_table"].size(), static_cast<std::size_t>(ranks));
    for (int k = 0; k < ranks; ++k) EXPECT_EQ(j["rank_table"][k]["rank"], k);
  }
}

// Rank 0 reads the tuning file and every rank takes what it read: the second solve starts from the record on both.
TEST_F(GmresMpirun, TwoRanksRememberTheTuning) {
  TempDir dir;
  const std::string file = dir.path() + "/tuned.json";
  const CliResult first = gmres(2, {"--generate", "convdiff2d:40", "--tuning-file", file, "--json"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  const CliResult again = gmres(2, {"--generate", "convdiff2d:40", "--tuning-file", file, "--json"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const auto tuned = nlohmann::json::parse(first.out), remembered = nlohmann::json::parse(again.out);
  EXPECT_EQ(remembered["choices"], tuned["choices"]);
  EXPECT_EQ(remembered["trial_iterations"], 0);
  EXPECT_TRUE(stage_of(remembered["time"], "tuning").is_null()) << remembered["time"];
}

// Bad input is reported once, by rank 0, and every rank exits.
TEST_F(GmresMpirun, BadInputIsReportedOnce) {
  const CliResult r = gmres(3, {"--generate", "poisson2d:1"});
  EXPECT_NE(r.exit_code, 0);
  const std::string line = "3 ranks for a matrix of 1 rows";
  const auto first = r.err.find(line);
  EXPECT_NE(first, std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(line, first + 1), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ulibc::testing
