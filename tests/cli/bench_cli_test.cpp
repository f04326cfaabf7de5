// bench_cli_test.cpp — `ulibc bench` and `ulibc tune` as a user runs them: quick sweeps of each
// kernel, the CSV / JSON / plot files they write, the best-policy choice, and
// every kind of bad input refused before anything runs.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {
namespace {

class BenchCli : public ::testing::Test {
 protected:
  void SetUp() override {
    if (Topology::load().usable().count() < 2) GTEST_SKIP() << "the sweeps use two threads";
  }
  std::string file(const std::string& name) const { return dir_.path() + "/" + name; }

 private:
  TempDir dir_;
};

TEST_F(BenchCli, StreamSweepWritesTableCsvAndJson) {
  const CliResult r = run_cli({"bench", "stream", "--quick", "--policy", "none,scatter", "--threads", "1,2", "--csv",
                               file("s.csv"), "--json", file("s.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // The table: a row per run and variant (none: malloc; scatter: ordinary and node arrays).
  EXPECT_NE(r.out.find("Triad MB/s"), std::string::npos) << r.out;
  EXPECT_EQ(lines_of(r.out).size(), 1u + 2 * (1 + 2)) << r.out;

  const auto csv = lines_of(read_file(file("s.csv")));
  ASSERT_FALSE(csv.empty());
  EXPECT_EQ(csv[0], "kernel,policy,threads,variant,measurement,unit,value,ci95,median,reps,valid,chosen");
  EXPECT_EQ(csv.size(), 1u + 2 * (1 + 2) * 4);  // four operations per variant

  const auto j = nlohmann::json::parse(read_file(file("s.json")));
  EXPECT_EQ(j["kernel"], "stream");
  EXPECT_EQ(j["headline"], "Triad");
  EXPECT_NE(j["command"].get<std::string>().find("--policy none,scatter"), std::string::npos);
  EXPECT_GE(j["machine"]["topology"]["counts"]["usable"].get<int>(), 2);
  EXPECT_FALSE(j["build"]["compiler"].get<std::string>().empty());
  EXPECT_NE(j["build"]["flags"].get<std::string>().find("openmp"), std::string::npos);
  ASSERT_EQ(j["runs"].size(), 4u);
  const auto& scatter2 = j["runs"][3];
  EXPECT_EQ(scatter2["policy"], "scatter");
  EXPECT_EQ(scatter2["threads"], 2);
  EXPECT_EQ(scatter2["cpus"].size(), 2u);
  EXPECT_TRUE(scatter2["valid"]);
  const auto& triad = scatter2["results"][0]["measurements"][3];
  EXPECT_EQ(triad["name"], "Triad");
  EXPECT_EQ(triad["reps"].size(), j["parameters"]["reps"].get<std::size_t>());
  EXPECT_GT(triad["value"].get<double>(), 0);
}

// The task kernels: a result per scheduler asked for, in that order, every one checked.
TEST_F(BenchCli, TaskKernelsRunEachSchedulerAskedFor) {
  for (const char* kernel : {"spawn", "cilksort", "heat"}) {
    const CliResult r = run_cli({"bench", kernel, "--quick", "--policy", "compact", "--threads", "2", "--scheduler",
                                 "adws,random", "--json", file("t.json")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto j = nlohmann::json::parse(read_file(file("t.json")));
    ASSERT_EQ(j["runs"].size(), 1u) << kernel;
    const auto& results = j["runs"][0]["results"];
    ASSERT_EQ(results.size(), 2u) << kernel;
    EXPECT_EQ(results[0]["variant"], "adws");
    EXPECT_EQ(results[1]["variant"], "random");
    for (const auto& x : results) EXPECT_TRUE(x["valid"].get<bool>()) << kernel << ": " << x["check"];
  }
  const CliResult bad = run_cli({"bench", "cilksort", "--quick", "--scheduler", "fifo"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_NE(bad.err.find("fifo"), std::string::npos) << bad.err;
}

TEST_F(BenchCli, JsonAloneGoesToStdout) {
  const auto j = run_cli_json({"bench", "zblas", "--quick", "--policy", "compact", "--threads", "2", "--json"});
  EXPECT_EQ(j["kernel"], "zblas");
  ASSERT_EQ(j["runs"].size(), 1u);
  EXPECT_EQ(j["runs"][0]["results"][0]["measurements"].size(), 4u);
  EXPECT_TRUE(j["runs"][0]["valid"]);
}

TEST_F(BenchCli, PolicyBestMarksTheWinnerAndSaysByHowMuch) {
  const CliResult r =
      run_cli({"bench", "epcc", "--quick", "--policy", "best", "--threads", "2", "--json", file("e.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("best at 2 threads: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" *"), std::string::npos) << r.out;
  const auto j = nlohmann::json::parse(read_file(file("e.json")));
  ASSERT_EQ(j["tuning"].size(), 1u);
  const auto& choice = j["tuning"][0];
  int chosen = 0;
  for (const auto& run : j["runs"]) chosen += run["chosen"].get<bool>();
  EXPECT_EQ(chosen, 1);
  EXPECT_EQ(choice["candidates"].size() + choice["notes"].size(), 3u);  // each candidate measured or folded
}

TEST_F(BenchCli, TunePrintsTheChoiceAlone) {
  const CliResult r = run_cli({"tune", "stream", "--quick", "--threads", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // One thread sits on the first usable processor under every candidate: measured once.
  EXPECT_TRUE(r.out.starts_with("best at 1 thread: scatter (Triad ")) << r.out;
  EXPECT_NE(r.out.find("compact gives the same placement as scatter"), std::string::npos) << r.out;
}

TEST_F(BenchCli, PlotsPngAndSvg) {
  for (const std::string name : {"p.png", "p.svg"}) {
    const CliResult r = run_cli(
        {"bench", "stream", "--quick", "--policy", "scatter,compact", "--threads", "1,2", "--plot", file(name)});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string image = read_file(file(name));
    if (name.ends_with(".png"))
      EXPECT_TRUE(image.starts_with("\x89PNG")) << name;
    else
      EXPECT_NE(image.find("<svg"), std::string::npos) << name;
  }
}

TEST_F(BenchCli, MissingMatplotlibIsFoundBeforeRunning) {
  const CliResult r =
      run_cli({"bench", "stream", "--quick", "--plot", file("p.png")}, {{"ULIBC_PYTHON", "/nonexistent/python"}});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");  // nothing ran
  EXPECT_NE(r.err.find("matplotlib"), std::string::npos) << r.err;
}

TEST(BenchCliPlan, DryRunShowsThePlacementsOfAnotherMachine) {
  TempDir dir;
  write_fake_sysfs({.packages = 2, .cores_per_package = 2}, dir.path());
  const auto j = run_cli_json({"bench", "stream", "--dry-run", "--fsroot", dir.path(), "--policy", "scatter,compact",
                               "--threads", "2", "--size", "4096", "--json"});
  ASSERT_EQ(j["runs"].size(), 2u);
  EXPECT_EQ(j["runs"][0]["procs"], nlohmann::json::array({0, 2}));  // scatter: one per package
  EXPECT_EQ(j["runs"][1]["procs"], nlohmann::json::array({0, 1}));  // compact: fill package 0
  EXPECT_EQ(j["parameters"]["size"], 4096);
}

TEST(BenchCliErrors, KernelsAndOptions) {
  expect_usage_error(run_cli({"bench"}), {"needs a kernel", "stream", "epcc", "zblas"});
  expect_usage_error(run_cli({"bench", "strem"}), {"unknown kernel", "strem", "stream"});
  expect_usage_error(run_cli({"tune", "nope"}), {"unknown kernel", "nope"});
  expect_usage_error(run_cli({"bench", "stream", "--bogus"}), {"--bogus"});
  expect_usage_error(run_cli({"bench", "stream", "--policy", "sideways"}), {"sideways"});
  expect_usage_error(run_cli({"bench", "stream", "--policy", "best,scatter"}), {"best"});
  expect_usage_error(run_cli({"bench", "stream", "--quick", "--plot", "out.txt"}), {".png or .svg"});
  expect_usage_error(run_cli({"bench", "stream", "--quick", "--csv", "--json"}), {"stdout"});
  expect_usage_error(run_cli({"bench", "stream", "--fsroot", "/"}), {"--dry-run"});
}

TEST(BenchCliErrors, ThreadCounts) {
  expect_usage_error(run_cli({"bench", "stream", "--quick", "--threads", "0"}), {"--threads 0"});
  expect_usage_error(run_cli({"bench", "epcc", "--quick", "--threads", "1,100000"}), {"--threads 100000"});
  expect_usage_error(run_cli({"bench", "stream", "--threads", "two"}), {"two"});
}

TEST(BenchCliErrors, SizesThatCannotFitAreRefusedBeforeAllocating) {
  // 2^50 elements: each kernel names the memory it would need.
  expect_usage_error(run_cli({"bench", "stream", "--size", "1125899906842624"}), {"need", "available"});
  expect_usage_error(run_cli({"bench", "zblas", "--size", "1125899906842624"}), {"need", "available"});
  expect_usage_error(run_cli({"bench", "stream", "--size", "0"}), {"--size"});
}

}  // namespace
}  // namespace ulibc::testing
