// eigen_bench_cli_test.cpp — `ulibc bench eigen` as a user runs it: every run verified against the known spectrum,
// the time split in the record, a run that stops short reported as failed with the reason, and bad options refused.
#include <gtest/gtest.h>

#include <cmath>
#include <complex>
#include <set>

#include "run_cli.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {
namespace {

const std::vector<std::string> kEigenSmall = {"bench", "eigen", "--generate", "spectrum:200"};

std::vector<std::string> eigen_args(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}

// "a+bi" as complex_text writes it (finite parts only).
std::complex<double> eigenvalue_of(const std::string& text) {
  std::size_t used = 0;
  const double re = std::stod(text, &used);
  if (used == text.size()) return {re, 0};
  return {re, std::stod(text.substr(used, text.size() - used - 1))};
}

TEST(EigenBenchCli, EveryRunFindsTheWantedEigenvaluesAndSplitsItsTime) {
  if (Topology::load().usable().count() < 2) GTEST_SKIP() << "the sweep uses two threads";
  const auto j = run_cli_json(eigen_args(kEigenSmall, {"--nev", "2", "--target", "1.2", "--policy", "none,scatter",
                                                       "--threads", "1,2", "--reps", "1", "--json"}));
  EXPECT_EQ(j["kernel"], "eigen");
  EXPECT_EQ(j["parameters"]["rows"], 200);
  EXPECT_EQ(j["parameters"]["target"], "1.2");
  ASSERT_EQ(j["runs"].size(), 4u);
  // spectrum:N's eigenvalues are (k+1) + 0.5 sin(k+1) i: the two nearest 1.2 are k = 0 and 1.
  const std::complex<double> wanted[] = {{1, 0.5 * std::sin(1.0)}, {2, 0.5 * std::sin(2.0)}};
  for (const auto& run : j["runs"]) {
    const auto& result = run["results"][0];
    EXPECT_TRUE(result["valid"].get<bool>()) << result["check"];
    std::set<std::string> names;
    for (const auto& m : result["measurements"]) {
      names.insert(m["name"].get<std::string>());
      EXPECT_GE(m["value"].get<double>(), 0) << m["name"];
    }
    for (const char* part : {"solve", "matvecs", "iterations", "spmv", "orth", "correction", "dense", "orth share"})
      EXPECT_TRUE(names.contains(part)) << part;
    const auto& values = result["details"]["eigenvalues"];
    ASSERT_EQ(values.size(), 2u);
    for (const auto& w : wanted) {
      bool found = false;
      for (const auto& v : values) found = found || std::abs(eigenvalue_of(v.get<std::string>()) - w) < 1e-6;
      EXPECT_TRUE(found) << w << " in " << values;
    }
  }
}

TEST(EigenBenchCli, StoppingShortIsAFailedRunSayingHowFar) {
  const CliResult r = run_cli(eigen_args(kEigenSmall, {"--nev", "2", "--target", "1.2", "--policy", "scatter",
                                                       "--threads", "1", "--max-iterations", "2"}));
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_NE(r.out.find("found 0 of 2 eigenpairs in 2 expansions"), std::string::npos) << r.out;
}

TEST(EigenBenchCli, BadOptionsAreRefusedNamingThem) {
  expect_usage_error(run_cli(eigen_args(kEigenSmall, {"--nev", "0"})), {"--nev 0"});
  expect_usage_error(run_cli(eigen_args(kEigenSmall, {"--which", "smallest"})), {"--which smallest"});
  expect_usage_error(run_cli(eigen_args(kEigenSmall, {"--target", "1+x"})), {"--target", "1+x"});
  expect_usage_error(run_cli(eigen_args(kEigenSmall, {"--precond", "ilu"})), {"--precond ilu"});
  expect_usage_error(run_cli(eigen_args(kEigenSmall, {"--target", "1", "--which", "largest-real"})),
                     {"--target or --which"});
  expect_usage_error(run_cli({"bench", "eigen", "--which", "largest-real", "--harmonic"}), {"harmonic"});
  expect_usage_error(run_cli({"bench", "eigen", "--generate", "convdiff2d:40000"}), {"convdiff2d:40000", "available"});
  expect_usage_error(run_cli({"bench", "eigen", "--matrix", "absent.mtx"}), {"absent.mtx"});
}

}  // namespace
}  // namespace ulibc::testing
