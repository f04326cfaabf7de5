// run_cli_test.cpp — `ulibc run`: the environment it gives an unmodified OpenMP program, that the
// program's threads really land where the mapping says, and its errors.
#include "run_cli.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "fake_sysfs.hpp"
#include "ulibc.hpp"

namespace ulibc::testing {
namespace {

// thread → processor, from omp_where's "thread cpu" lines.
std::vector<int> where(const std::string& out) {
  std::vector<int> cpus;
  std::istringstream in(out);
  for (int t, cpu; in >> t >> cpu;) cpus.push_back(cpu);
  return cpus;
}

TEST(RunCli, DryRunPrintsPlacesInThreadOrder) {
  TempDir dir;
  write_fake_sysfs({.packages = 4, .cores_per_package = 8, .smt = 2}, dir.path());  // the paper's machine
  const auto j = run_cli_json({"run", "--dry-run", "--json", "--fsroot", dir.path(), "-p", "scatter", "-n", "6", "--",
                               "./app", "--size", "1M"});
  EXPECT_EQ(j["set"]["OMP_PLACES"], "{0},{8},{16},{24},{1},{9}");
  EXPECT_EQ(j["set"]["OMP_PROC_BIND"], "close");
  EXPECT_EQ(j["set"]["OMP_NUM_THREADS"], "6");
  EXPECT_EQ(j["set"]["ULIBC_POLICY"], "scatter");
  EXPECT_EQ(j["unset"], nlohmann::json::array({"GOMP_CPU_AFFINITY", "KMP_AFFINITY"}));
  EXPECT_EQ(j["command"], nlohmann::json::array({"./app", "--size", "1M"}));
}

TEST(RunCli, DryRunTextEndsWithAShellCommand) {
  TempDir dir;
  write_fake_sysfs({.packages = 2, .cores_per_package = 2}, dir.path());
  const auto r =
      run_cli({"run", "--dry-run", "--fsroot", dir.path(), "-p", "compact", "-n", "2", "--", "./app", "a b"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("OMP_PLACES={0},{1}\n"), std::string::npos) << r.out;
  EXPECT_TRUE(
      r.out.ends_with("'OMP_PLACES={0},{1}' OMP_PROC_BIND=close ULIBC_POLICY=compact ULIBC_NUM_THREADS=2 "
                      "./app 'a b'\n"))
      << r.out;
}

TEST(RunCli, PolicyNoneSwitchesOpenMPBindingOff) {
  TempDir dir;
  write_fake_sysfs({.packages = 2, .cores_per_package = 2}, dir.path());
  const auto j = run_cli_json({"run", "--dry-run", "--json", "--fsroot", dir.path(), "-p", "none", "-n", "3"});
  EXPECT_EQ(j["set"]["OMP_PROC_BIND"], "false");
  EXPECT_FALSE(j["set"].contains("OMP_PLACES"));
  EXPECT_EQ(j["unset"][0], "OMP_PLACES");
}

TEST(RunCli, ThreadsOfAnOpenMPProgramRunWhereTheMappingSays) {
  const Topology live = Topology::load("/", Detail::placement);
  std::vector<int> order = live.usable().ids();
  if (order.size() < 2) GTEST_SKIP() << "needs two usable processors";
  std::reverse(order.begin(), order.end());  // an order no runtime would choose by itself
  std::string list = "list:";
  for (int p : order) list += std::to_string(p) + (p == order.back() ? "" : ",");
  const auto r = run_cli({"run", "-p", list, "-n", std::to_string(order.size()), "--", OMP_WHERE_PATH},
                         {{"OMP_PLACES", "threads"}, {"GOMP_CPU_AFFINITY", "0"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(where(r.out), order) << r.out;
  EXPECT_NE(r.err.find("replacing OMP_PLACES=threads"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("replacing GOMP_CPU_AFFINITY=0 (unset)"), std::string::npos) << r.err;
}

TEST(RunCli, ProgramWithoutDashesAndItsExitStatus) {
  const auto r = run_cli({"run", "-n", "1", "sh", "-c", "echo $OMP_NUM_THREADS; exit 7"});
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_EQ(r.out, "1\n");
}

TEST(RunCli, Errors) {
  auto expect_error = [](const CliResult& r, int code, const std::string& needle) {
    EXPECT_EQ(r.exit_code, code) << r.err;
    EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
  };
  expect_error(run_cli({"run", "-n", "1"}), 2, "no program to run");
  expect_error(run_cli({"run", "-n", "1", "--", "/nonexistent/program"}), 1, "cannot run \"/nonexistent/program\"");
  expect_error(run_cli({"run", "-n", "0", "--", "true"}), 2, "0");
  expect_error(run_cli({"run", "-p", "sideways", "--", "true"}), 2, "sideways");
  expect_error(run_cli({"run", "--fsroot", "/", "--", "true"}), 2, "--dry-run");
  expect_error(run_cli({"map", "--", "true"}), 2, "takes no program");
  expect_error(run_cli({"run", "-n", "1", "a", "--", "b"}), 2, "both before and after");
  expect_error(run_cli({"run", "--", "true"}, {{"ULIBC_NUM_THREADS", "many"}}), 2, "ULIBC_NUM_THREADS");
}

}  // namespace
}  // namespace ulibc::testing
