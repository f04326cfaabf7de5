// sdp_cli_test.cpp — `ulibc sdp` as a user runs it: SDPA's output, the record, the result file, the exit codes
// (solved, shown infeasible, stopped short) and the refusals, on problems written here.
#include <gtest/gtest.h>

#include <fstream>
#include <set>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

// The SDPA user's manual's first example (one 2×2 block, m = 3), sparse format; its optimum is −41.9 (SDPA too).
constexpr const char* kManualExample = R"("Example 1: mDim = 3, nBLOCK = 1, {2}"
3 = mDIM
1 = nBLOCK
2 = bLOCKsTRUCT
48 -8 20
0 1 1 1 -11
0 1 2 2 23
1 1 1 1 10
1 1 1 2 4
2 1 2 2 -8
3 1 1 2 -8
3 1 2 2 -2
)";

// (P): X = diag(x − 1, −x − 1) ⪰ 0 has no point; (D): max y1 + y2 with y1 − y2 = 0 runs off: dUNBD.
constexpr const char* kNoPrimalPoint = R"(1
1
-2
0
0 1 1 1 1
0 1 2 2 1
1 1 1 1 1
1 1 2 2 -1
)";

class SdpCli : public ::testing::Test {
 protected:
  std::string write(const std::string& name, const std::string& text) const {
    const std::string path = dir_.path() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
  std::string file(const std::string& name) const { return dir_.path() + "/" + name; }

 private:
  TempDir dir_;
};

TEST_F(SdpCli, PrintsLikeSdpa) {
  const CliResult r = run_cli({"sdp", write("example1.dat-s", kManualExample), "--threads", "2"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* line : {"phase.value  = pdOPT", "objValPrimal = -4.189999", "objValDual   = -4.19", "relative gap",
                           "p.feas.error", "d.feas.error", "ELEMENTS", "CHOLESKY", "    mu      thetaP"})
    EXPECT_NE(r.out.find(line), std::string::npos) << line << "\n" << r.out;
}

TEST_F(SdpCli, RecordHasWhatSdpaReports) {
  const auto j = run_cli_json({"sdp", write("example1.dat-s", kManualExample), "--threads", "2", "--json"});
  EXPECT_EQ(j["status"], "pdOPT");
  EXPECT_NEAR(j["objValPrimal"].get<double>(), -41.9, 1e-5);
  EXPECT_NEAR(j["objValDual"].get<double>(), -41.9, 1e-5);
  EXPECT_LE(j["relative_gap"].get<double>(), 1e-7);
  EXPECT_LE(j["p_feas_error"].get<double>(), 1e-7);
  EXPECT_LE(j["d_feas_error"].get<double>(), 1e-7);
  EXPECT_GT(j["iterations"].get<int>(), 0);
  EXPECT_EQ(j["history"].size(), j["iterations"].get<std::size_t>());
  // The log of where the time went: the solve, and inside it at least SDPA's two stages, each run every iteration.
  EXPECT_EQ(j["time"]["name"], "solve");
  EXPECT_GT(j["time"]["seconds"].get<double>(), 0);
  std::set<std::string> stages;
  for (const auto& s : j["time"]["stages"]) {
    stages.insert(s["name"].get<std::string>());
    EXPECT_GE(s["seconds"].get<double>(), 0) << s;
  }
  for (const char* part : {"elements", "cholesky", "factor", "products", "step"})
    EXPECT_TRUE(stages.count(part)) << part << " in " << j["time"];
  EXPECT_EQ(j["threads"], 2);
  EXPECT_EQ(j["elements"], "auto");
}

TEST_F(SdpCli, WritesTheRecordAndTheResultFile) {
  const CliResult r = run_cli({"sdp", write("example1.dat-s", kManualExample), "--threads", "1", "--elements", "f2",
                               "--placement", "interleave", "--json", file("r.json"), "--out", file("r.out")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = nlohmann::json::parse(read_file(file("r.json")));
  EXPECT_EQ(j["elements"], "f2");
  EXPECT_EQ(j["placement"], "interleave");
  const std::string out = read_file(file("r.out"));
  for (const char* part : {"phase.value  = pdOPT", "xVec = ", "xMat = ", "yMat = "})
    EXPECT_NE(out.find(part), std::string::npos) << part;
}

TEST_F(SdpCli, ProblemWithoutPrimalPointIsDeclaredSo) {
  const auto j = run_cli_json({"sdp", write("infeasible.dat-s", kNoPrimalPoint), "--threads", "1", "--json"});
  EXPECT_EQ(j["status"], "dUNBD");
}

TEST_F(SdpCli, StoppedShortExitsThree) {
  const CliResult r = run_cli({"sdp", write("example1.dat-s", kManualExample), "--max-iterations", "2"});
  EXPECT_EQ(r.exit_code, 3);
  EXPECT_NE(r.err.find("ulibc: sdp stopped at phase"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("maxIteration 2"), std::string::npos) << r.err;
}

TEST_F(SdpCli, BadInputIsRefusedNamingIt) {
  const std::string good = write("example1.dat-s", kManualExample);
  expect_usage_error(run_cli({"sdp", write("bad.dat-s", "1\n1\n2\n1\n1 1 3 1 1.0\n")}), {"bad.dat-s:5", "3"});
  expect_usage_error(run_cli({"sdp", write("nan.dat-s", "1\n1\n2\n1\n1 1 1 1 nan\n")}), {"nan.dat-s:5"});
  expect_usage_error(run_cli({"sdp", write("empty.dat-s", "0\n1\n2\n")}), {"empty.dat-s", "m"});
  expect_usage_error(run_cli({"sdp", file("missing.dat-s")}), {"missing.dat-s"});
  expect_usage_error(run_cli({"sdp", good, "--elements", "f4"}), {"--elements", "f4"});
  expect_usage_error(run_cli({"sdp", good, "--placement", "spread"}), {"--placement", "spread"});
  expect_usage_error(run_cli({"sdp", good, "--gamma-star", "1.5"}), {"gammaStar"});
  expect_usage_error(run_cli({"sdp", good, "--threads", "0"}), {"0"});
}

TEST_F(SdpCli, BenchMeasuresEveryPlacement) {
  const auto j = run_cli_json({"bench", "sdp", "--quick", "--policy", "compact", "--threads", "2", "--json"});
  ASSERT_FALSE(j["runs"].empty());
  std::set<std::string> variants;
  for (const auto& run : j["runs"])
    for (const auto& result : run["results"]) {
      variants.insert(result["variant"].get<std::string>());
      EXPECT_TRUE(result["valid"].get<bool>()) << result["check"];
    }
  EXPECT_EQ(variants, (std::set<std::string>{"copies", "interleave", "first-touch"}));
}

}  // namespace
}  // namespace ulibc::testing
