// errors_cli_test.cpp — usage and input errors: exit code 2 and one "ulibc: error:" line naming the
// problem; --help everywhere exits 0.
#include <gtest/gtest.h>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

class ErrorsCli : public ::testing::Test {
 protected:
  void SetUp() override { write_fake_sysfs({.packages = 2, .cores_per_package = 2}, dir_.path()); }
  CliResult map(std::vector<std::string> args, const std::map<std::string, std::string>& env = {}) {
    args.insert(args.begin(), {"map", "--fsroot", dir_.path()});
    return run_cli(args, env);
  }

 private:
  TempDir dir_;
};

TEST(UsageCli, UnknownSubcommand) {
  expect_usage_error(run_cli({"frobnicate"}), {"unknown subcommand", "frobnicate", "topology", "map"});
}

TEST(UsageCli, UnknownOption) { expect_usage_error(run_cli({"topology", "--bogus"}), {"--bogus"}); }

TEST(UsageCli, BareCommandPrintsHelpAndFails) {
  const CliResult r = run_cli({});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("Usage:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("topology"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("map"), std::string::npos) << r.err;
}

TEST(UsageCli, HelpForEveryCommandExitsZero) {
  for (const std::vector<std::string>& args : std::vector<std::vector<std::string>>{{"--help"},
                                                                                    {"-h"},
                                                                                    {"topology", "--help"},
                                                                                    {"map", "--help"},
                                                                                    {"bench", "--help"},
                                                                                    {"bench", "stream", "--help"},
                                                                                    {"tune", "epcc", "--help"}}) {
    SCOPED_TRACE(args.back());
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Usage:"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("--help"), std::string::npos) << r.out;
  }
  EXPECT_NE(run_cli({"map", "--help"}).out.find("--policy"), std::string::npos);
  EXPECT_NE(run_cli({"topology", "--help"}).out.find("--fsroot"), std::string::npos);
}

TEST(UsageCli, MissingFsroot) {
  expect_usage_error(run_cli({"topology", "--fsroot", "/nonexistent"}), {"/nonexistent"});
  expect_usage_error(run_cli({"map", "--fsroot", "/nonexistent", "--threads", "2"}), {"/nonexistent"});
}

TEST(UsageCli, MissingFsrootFromEnvironment) {
  expect_usage_error(run_cli({"topology"}, {{"ULIBC_FSROOT", "/nonexistent/env"}}), {"/nonexistent/env"});
}

TEST_F(ErrorsCli, UnknownPolicyListsTheAcceptedOnes) {
  expect_usage_error(map({"--policy", "spread"}), {"spread", "scatter", "compact", "compact+", "none", "list:"});
}

TEST_F(ErrorsCli, UnknownPolicyFromEnvironmentNamesTheVariable) {
  expect_usage_error(map({"--threads", "2"}, {{"ULIBC_POLICY", "spread"}}), {"ULIBC_POLICY", "spread", "scatter"});
}

TEST_F(ErrorsCli, ZeroThreads) { expect_usage_error(map({"--threads", "0"}), {"thread count 0"}); }

TEST_F(ErrorsCli, HugeThreadCount) { expect_usage_error(map({"--threads", "999999999"}), {"999999999"}); }

TEST_F(ErrorsCli, ThreadCountBeyondInt) {
  expect_usage_error(map({"--threads", "99999999999"}), {"--threads", "99999999999"});
}

TEST_F(ErrorsCli, NonNumericThreadCount) { expect_usage_error(map({"--threads", "many"}), {"--threads", "many"}); }

TEST_F(ErrorsCli, BadCpulistInPolicyList) { expect_usage_error(map({"--policy", "list:1-"}), {"list:1-"}); }

TEST_F(ErrorsCli, ListNamingAnUnusableProcessor) { expect_usage_error(map({"--policy", "list:0,99"}), {"99"}); }

TEST_F(ErrorsCli, BadThreadCountFromEnvironmentNamesTheVariable) {
  expect_usage_error(map({}, {{"ULIBC_NUM_THREADS", "0"}}), {"ULIBC_NUM_THREADS"});
  expect_usage_error(map({}, {{"OMP_NUM_THREADS", "lots"}}), {"OMP_NUM_THREADS", "lots"});
}

}  // namespace
}  // namespace ulibc::testing
