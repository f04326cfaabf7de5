// common_options_cli_test.cpp — the options every subcommand shares: --json everywhere, --fsroot by one rule.
//
// The rule (tools/ulibc/commands.hpp): every subcommand prints JSON with --json; --fsroot names a machine to show
// or to plan for, so topology and map take it always, run, bench and tune only with --dry-run, and simpath and sssp,
// which only run on this machine, not at all. Each test states the part of the rule it checks.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

using Args = std::vector<std::string>;

// `args` with --json after its leading words (the subcommand, and bench's or tune's kernel).
Args with_json(Args args) {
  auto first_option = args.begin();
  while (first_option != args.end() && !first_option->starts_with("-")) ++first_option;
  args.insert(first_option, "--json");
  return args;
}

Args with_fsroot(Args args, const std::string& root) {
  args.insert(args.end(), {"--fsroot", root});
  return args;
}

// A snapshot of two packages with two cores each: scatter puts two threads on processors 0 and 2 there, and
// topology and map name the snapshot they read, so the answers show which machine was read.
class CommonOptionsCli : public ::testing::Test {
 protected:
  void SetUp() override { write_fake_sysfs({.packages = 2, .cores_per_package = 2}, dir_.path()); }
  const std::string& root() const { return dir_.path(); }

  // A short run of each command that only shows or plans, on the fake machine.
  std::vector<Args> planners() const {
    return {
        {"topology", "--fsroot", root()},
        {"map", "--fsroot", root(), "--policy", "scatter", "--threads", "2"},
        {"run", "--dry-run", "--fsroot", root(), "--policy", "scatter", "--threads", "2"},
        {"bench", "stream", "--dry-run", "--fsroot", root(), "--policy", "scatter", "--threads", "2", "--size", "4096"},
        {"tune", "stream", "--dry-run", "--fsroot", root(), "--threads", "2", "--size", "4096"}};
  }

 private:
  TempDir dir_;
};

// A short run of each command that runs its kernel on this machine.
const std::vector<Args> kRunsHere = {{"simpath", "--grid", "2", "--threads", "1"},
                                     {"sssp", "--generate", "3,3", "--queries", "1", "--threads", "1"}};

TEST_F(CommonOptionsCli, EverySubcommandPrintsJsonWithJson) {
  std::vector<Args> all = planners();
  all.insert(all.end(), kRunsHere.begin(), kRunsHere.end());
  for (const Args& args : all) {
    SCOPED_TRACE(args[0]);
    const nlohmann::json j = run_cli_json(with_json(args));
    EXPECT_TRUE(j.is_object() && !j.empty()) << j.dump();
  }
}

TEST_F(CommonOptionsCli, PlannersReadTheMachineBelowFsroot) {
  std::vector<nlohmann::json> out;
  for (const Args& args : planners()) out.push_back(run_cli_json(with_json(args)));
  EXPECT_EQ(out[0]["fsroot"], root());
  EXPECT_EQ(out[0]["processors"].size(), 4u);
  EXPECT_EQ(out[1]["fsroot"], root());
  EXPECT_EQ(out[1]["threads"][1]["proc"], 2);
  EXPECT_EQ(out[2]["set"]["OMP_PLACES"], "{0},{2}");
  EXPECT_EQ(out[3]["runs"][0]["procs"], nlohmann::json::array({0, 2}));
  for (const nlohmann::json& run : out[4]["runs"]) EXPECT_EQ(run["procs"].size(), 2u) << run.dump();
  EXPECT_EQ(out[4]["runs"][0]["procs"], nlohmann::json::array({0, 2}));  // scatter, the first candidate
}

TEST_F(CommonOptionsCli, RunBenchAndTuneTakeFsrootOnlyToPlan) {
  for (const Args& args : {Args{"run", "--fsroot", root(), "--", "true"},
                           Args{"bench", "stream", "--quick", "--threads", "1", "--fsroot", root()},
                           Args{"tune", "stream", "--quick", "--threads", "1", "--fsroot", root()}}) {
    SCOPED_TRACE(args[0]);
    expect_usage_error(run_cli(args), {"--fsroot " + root(), "ulibc " + args[0], "--dry-run"});
  }
}

TEST_F(CommonOptionsCli, SimpathAndSsspTakeNoFsroot) {
  for (const Args& args : kRunsHere) {
    SCOPED_TRACE(args[0]);
    expect_usage_error(run_cli(with_fsroot(args, root())), {"ulibc " + args[0], "this machine", "no --fsroot"});
    Args joined = args;
    joined.push_back("--fsroot=" + root());
    expect_usage_error(run_cli(joined), {"ulibc " + args[0], "no --fsroot"});
  }
}

// $ULIBC_FSROOT names the machine to plan for, as --fsroot does: a command that runs here refuses another root
// rather than lay its threads out by another machine's processors and bind them on this one's.
TEST_F(CommonOptionsCli, CommandsThatRunHereRefuseAnotherRootFromTheEnvironment) {
  std::vector<Args> runs_here = kRunsHere;
  runs_here.push_back({"run", "--policy", "scatter", "--threads", "1", "--", "true"});
  runs_here.push_back({"bench", "stream", "--quick", "--policy", "scatter", "--threads", "1"});
  for (const Args& args : runs_here) {
    SCOPED_TRACE(args[0]);
    expect_usage_error(run_cli(args, {{"ULIBC_FSROOT", root()}}),
                       {"ULIBC_FSROOT=" + root(), "ulibc " + args[0], "runs only on this one"});
  }
  // Planning with it is what it is for.
  const nlohmann::json plan =
      run_cli_json({"run", "--dry-run", "--policy", "scatter", "--threads", "2", "--json"}, {{"ULIBC_FSROOT", root()}});
  EXPECT_FALSE(plan.empty());
}

// Every help lists --json; --fsroot is listed where it is taken and refused in words where it is not.
TEST(CommonOptionsHelp, EveryHelpStatesTheRule) {
  const std::string option_line = "\n  --fsroot DIR";
  for (const Args& args :
       {Args{"topology"}, Args{"map"}, Args{"run"}, Args{"bench", "stream"}, Args{"tune", "zblas"}}) {
    SCOPED_TRACE(args[0]);
    Args help = args;
    help.push_back("--help");
    const CliResult r = run_cli(help);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\n  --json"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find(option_line), std::string::npos) << r.out;
  }
  for (const std::string command : {"simpath", "sssp"}) {
    const CliResult r = run_cli({command, "--help"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("\n  --json"), std::string::npos) << r.out;
    EXPECT_EQ(r.out.find(option_line), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("Runs on this machine: no --fsroot"), std::string::npos) << r.out;
  }
  for (const Args& args : {Args{"--help"}, Args{"bench", "--help"}}) {
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_NE(r.out.find("Every subcommand takes --json (bench and tune: --json [FILE]"), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("simpath and sssp run on this machine and take no --fsroot"), std::string::npos) << r.out;
  }
}

}  // namespace
}  // namespace ulibc::testing
