// eigen_cli_test.cpp — `ulibc eigen` as a user runs it: the wanted eigenvalues of a generated matrix with their
// residuals and the record, the Matrix Market files of --output, exit 3 with what converged when the search stops
// short, and bad input refused with exit 2.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

using nlohmann::json;

// spectrum:200 has the eigenvalues k + 0.5 sin(k) i, k = 1..200: the three nearest 5.2 are those of 5, 6 and 4.
TEST(EigenCli, NearestATargetWithResidualsAndTheRecord) {
  const json j = run_cli_json(
      {"eigen", "--generate", "spectrum:200", "--nev", "3", "--target", "5.2", "--threads", "2", "--json", "-"});
  EXPECT_EQ(j["converged"], 3);
  EXPECT_EQ(j["all_converged"], true);
  EXPECT_EQ(j["verified"], true);
  EXPECT_EQ(j["exact_check"], "");
  std::vector<double> re;
  for (const json& v : j["eigenvalues"]) {
    re.push_back(std::round(v["re"].get<double>()));
    EXPECT_LE(v["residual"].get<double>(), 1e-6 * std::abs(v["re"].get<double>()));
  }
  std::sort(re.begin(), re.end());
  EXPECT_EQ(re, (std::vector<double>{4, 5, 6}));
  // The log of where the time went: the solve, its stages, the correction equation's products inside it.
  EXPECT_EQ(j["time"]["name"], "solve");
  EXPECT_EQ(j["time"]["seconds"], j["seconds"]);
  std::vector<std::string> stages;
  for (const json& s : j["time"]["stages"]) {
    stages.push_back(s["name"].get<std::string>());
    if (s["name"] == "correction") {
      EXPECT_EQ(s["stages"][0]["name"], "spmv") << s;
    }
  }
  for (const char* part : {"spmv", "orth", "correction", "dense"})
    EXPECT_NE(std::find(stages.begin(), stages.end(), part), stages.end()) << part << " in " << j["time"];
  EXPECT_GT(j["matvecs"].get<long>(), 0);
}

TEST(EigenCli, OutputWritesValuesAndVectorsAsMatrixMarketArrays) {
  TempDir dir;
  const std::string base = dir.path() + "/pairs";
  const CliResult r = run_cli({"eigen", "--generate", "convdiff2d:12", "--nev", "2", "--which", "largest-real",
                               "--threads", "1", "--output", base + ".mtx"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto values = lines_of(read_file(base + ".values.mtx"));
  const auto vectors = lines_of(read_file(base + ".vectors.mtx"));
  ASSERT_GE(values.size(), 4u);
  EXPECT_EQ(values[0], "%%MatrixMarket matrix array complex general");
  EXPECT_EQ(values[1], "2 1");
  EXPECT_EQ(vectors[1], "144 2");
  EXPECT_EQ(vectors.size(), 2u + 288u);
}

TEST(EigenCli, StopsShortWithExitThreeAndWhatConverged) {
  TempDir dir;
  const CliResult r = run_cli({"eigen", "--generate", "spectrum:300", "--nev", "4", "--target", "10",
                               "--max-iterations", "5", "--json", dir.path() + "/r.json"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.err.find("of 4 eigenpairs converged in 5 iterations"), std::string::npos) << r.err;
  const json j = json::parse(read_file(dir.path() + "/r.json"));
  EXPECT_EQ(j["all_converged"], false);
  EXPECT_EQ(j["iterations"], 5);
}

TEST(EigenCli, ARealMatrixFileIsReadAsComplex) {
  TempDir dir;
  write_file(dir.path() + "/d.mtx",
             "%%MatrixMarket matrix coordinate real general\n4 4 5\n1 1 1\n2 2 2\n3 3 3\n4 4 4\n1 2 0.5\n");
  const json j = run_cli_json({"eigen", "--matrix", dir.path() + "/d.mtx", "--nev", "1", "--which", "largest-magnitude",
                               "--jmin", "1", "--jmax", "3", "--json", "-"});
  EXPECT_NEAR(j["eigenvalues"][0]["re"].get<double>(), 4, 1e-9);
}

TEST(EigenCli, BadInputIsRefusedWithExitTwo) {
  TempDir dir;
  write_file(dir.path() + "/rect.mtx", "%%MatrixMarket matrix coordinate real general\n3 4 1\n1 1 1\n");
  write_file(dir.path() + "/nan.mtx", "%%MatrixMarket matrix coordinate real general\n3 3 1\n1 1 nan\n");
  const std::string rect = dir.path() + "/rect.mtx", nan = dir.path() + "/nan.mtx";
  expect_usage_error(run_cli({"eigen", "--generate", "spectrum:50", "--target", "2x"}), {"'2x' is not a complex"});
  expect_usage_error(run_cli({"eigen", "--generate", "spectrum:50", "--nev", "0"}), {"--nev 0"});
  expect_usage_error(run_cli({"eigen", "--generate", "spectrum:50", "--nev", "50"}), {"--nev 50"});
  expect_usage_error(run_cli({"eigen", "--generate", "spectrum:50", "--jmin", "8", "--jmax", "8"}), {"jmin < jmax"});
  expect_usage_error(run_cli({"eigen", "--generate", "spectrum:50", "--target", "1", "--which", "largest-real"}),
                     {"not both"});
  expect_usage_error(run_cli({"eigen", "--nev", "2"}), {"--matrix FILE and --generate SPEC"});
  expect_usage_error(run_cli({"eigen", "--generate", "laplace:9"}), {"unknown kind 'laplace'"});
  expect_usage_error(run_cli({"eigen", "--matrix", rect, "--jmin", "1", "--jmax", "2"}), {"3 x 4, not square"});
  expect_usage_error(run_cli({"eigen", "--matrix", nan}), {nan + ":3"});
  expect_usage_error(run_cli({"eigen", "--matrix", dir.path() + "/absent.mtx"}), {"absent.mtx"});
  expect_usage_error(run_cli({"eigen", "--generate", "spectrum:50", "--which", "largest-real", "--harmonic"}),
                     {"harmonic"});
}

}  // namespace
}  // namespace ulibc::testing
