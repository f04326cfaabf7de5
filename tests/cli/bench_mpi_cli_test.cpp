// bench_mpi_cli_test.cpp — `ulibc bench mpi` under a real launcher and alone: every measurement in the record,
// the profile `ulibc gmres --mpi-profile` reads, one rank, and bad options refused once by a job that ends.
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "mpi/comm_profile.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

// Few and small sizes, few short repetitions: the tests check the record, not the machine.
const std::vector<std::string> kTiny = {"bench", "mpi", "--quick", "--sizes", "8,64,4Ki"};
const std::vector<std::size_t> kTinySizes = {8, 64, 4096};

CliResult mpirun(int ranks, const std::vector<std::string>& args) { return run_cli_ranks(ranks, args); }

// Sizes ascending as asked, every median and repetition a positive number.
void expect_series(const nlohmann::json& series, const std::string& value, const std::string& reps) {
  ASSERT_EQ(series.size(), kTinySizes.size()) << series.dump();
  for (std::size_t i = 0; i < kTinySizes.size(); ++i) {
    const auto& p = series[i];
    EXPECT_EQ(p["bytes"], kTinySizes[i]);
    EXPECT_GT(p["operations"].get<long>(), 0);
    EXPECT_GT(p[value].get<double>(), 0) << p.dump();
    ASSERT_EQ(p[reps].size(), 5u) << p.dump();  // --quick's repetitions
    for (const auto& r : p[reps]) EXPECT_GT(r.get<double>(), 0) << p.dump();
  }
}

TEST(BenchMpiCli, TwoRanksRecordEveryMeasurement) {
  SKIP_WITHOUT_MPIRUN();
  const CliResult r = mpirun(2, with(kTiny, {"--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["benchmark"], "mpi");
  EXPECT_EQ(j["ranks"], 2);
  EXPECT_EQ(j["parameters"]["sizes"], kTinySizes);
  ASSERT_EQ(j["rank_table"].size(), 2u);
  EXPECT_TRUE(j["machine"].contains("topology"));
  EXPECT_EQ(j["pair"]["processors"].size(), 2u);
  EXPECT_FALSE(j["pair"]["describe"].get<std::string>().empty());
  expect_series(j["p2p"]["latency"], "median", "reps");
  expect_series(j["p2p"]["bandwidth"], "median", "reps");
  expect_series(j["overlap"], "alone_seconds", "alone_reps");
  expect_series(j["overlap"], "loaded_seconds", "loaded_reps");
  for (const auto& p : j["overlap"]) {
    EXPECT_GT(p["compute_seconds"].get<double>(), 0);
    EXPECT_GE(p["overlap"].get<double>(), 0);
    EXPECT_LE(p["overlap"].get<double>(), 1);
  }
  for (const char* collective : {"allgather", "allreduce", "bcast"}) {
    SCOPED_TRACE(collective);
    expect_series(j[collective], "median", "reps");
  }
}

TEST(BenchMpiCli, PinnedRanksRunWhereAsked) {
  SKIP_WITHOUT_MPIRUN();
  const Topology live = Topology::load("/", Detail::placement);
  const int a = live.usable().last(), b = live.usable().first();
  const CliResult r =
      mpirun(2, with(kTiny, {"--tests", "p2p", "--pin", std::to_string(a) + "," + std::to_string(b), "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["pair"]["processors"], (std::vector<int>{a, b}));
  EXPECT_EQ(j["pair"]["pinned_by"], "--pin");
  EXPECT_EQ(j["rank_table"][0]["thread_processors"][0], a);
  EXPECT_EQ(j["rank_table"][1]["thread_processors"][0], b);
  EXPECT_FALSE(j.contains("allgather"));  // --tests p2p alone
}

TEST(BenchMpiCli, SavedProfileReadsBackUnderTheJobsKey) {
  SKIP_WITHOUT_MPIRUN();
  TempDir dir;
  const std::string path = dir.path() + "/profile.json";
  const CliResult r = mpirun(2, with(kTiny, {"--tests", "p2p,allgather,bcast,allreduce", "--save", path, "--json"}));
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  const auto profile = mpi::load_profile(path, j["layout_key"].get<std::string>());
  ASSERT_TRUE(profile) << read_file(path);
  const std::vector<std::pair<const mpi::Curve*, nlohmann::json>> curves = {{&profile->p2p, j["p2p"]["latency"]},
                                                                            {&profile->allgather, j["allgather"]},
                                                                            {&profile->bcast, j["bcast"]},
                                                                            {&profile->allreduce, j["allreduce"]}};
  for (const auto& [curve, series] : curves) {
    ASSERT_EQ(curve->bytes.size(), kTinySizes.size());
    for (std::size_t i = 0; i < kTinySizes.size(); ++i) {
      EXPECT_EQ(curve->bytes[i], static_cast<double>(kTinySizes[i]));
      EXPECT_DOUBLE_EQ(curve->seconds[i], series[i]["median"].get<double>());
    }
  }
}

// The level MPI was started at, as MPI reports it: funneled unless asked for single (the OSU micro-benchmarks' own).
TEST(BenchMpiCli, ThreadLevelIsTheOneAskedFor) {
  SKIP_WITHOUT_MPIRUN();
  const auto level = [](std::initializer_list<std::string> more) {
    const CliResult r = mpirun(2, with(with(kTiny, {"--tests", "allreduce", "--json"}), more));
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    return r.exit_code == 0 ? nlohmann::json::parse(r.out)["parameters"]["thread_level"].get<std::string>() : "";
  };
  EXPECT_EQ(level({}), "funneled");
  EXPECT_EQ(level({"--thread-level", "single"}), "single");
  EXPECT_EQ(level({"--thread-level", "funneled"}), "funneled");
}

TEST(BenchMpiCli, OneRankMeasuresTheCollectivesAndSaysWhyNotP2p) {
  const CliResult r = run_cli(kTiny, kMpiAlone);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("p2p and overlap need two ranks"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("allreduce us"), std::string::npos) << r.out;
  const auto j = run_cli_json(with(kTiny, {"--json"}), kMpiAlone);
  EXPECT_EQ(j["ranks"], 1);
  EXPECT_FALSE(j.contains("p2p"));
  EXPECT_FALSE(j.contains("overlap"));
  EXPECT_TRUE(j["pair"].is_null());
  for (const char* collective : {"allgather", "allreduce", "bcast"}) {
    SCOPED_TRACE(collective);
    expect_series(j[collective], "median", "reps");
  }
}

TEST(BenchMpiCli, BadOptionsAreRefusedWithOneLine) {
  const auto bench = [](std::initializer_list<std::string> more) {
    return run_cli(with({"bench", "mpi"}, more), kMpiAlone);
  };
  expect_usage_error(bench({"--sizes", "0"}), {"--sizes 0", "multiples of 8"});
  expect_usage_error(bench({"--sizes", "8,12"}), {"--sizes 12"});
  expect_usage_error(bench({"--sizes", "2Gi"}), {"--sizes 2Gi", "to 1 GiB"});
  expect_usage_error(bench({"--sizes", "lots"}), {"--sizes \"lots\""});
  expect_usage_error(bench({"--reps", "0"}), {"--reps 0"});
  expect_usage_error(bench({"--tests", "latency"}), {"--tests", "\"latency\""});
  expect_usage_error(bench({"--tests", "p2p"}), {"--tests p2p", "one rank"});
  expect_usage_error(bench({"--pin", "0,1"}), {"--pin 0,1", "one rank"});
  expect_usage_error(bench({"--pin", "0"}), {"--pin \"0\"", "A,B"});
  expect_usage_error(bench({"--thread-level", "multiple"}), {"--thread-level \"multiple\"", "single or funneled"});
  // A profile is what the solver pays, at its own level.
  expect_usage_error(bench({"--thread-level", "single", "--save", "profile.json"}), {"--save", "funneled"});
}

TEST(BenchMpiCli, BadOptionsEndTheWholeJob) {
  SKIP_WITHOUT_MPIRUN();
  expect_job_refused(mpirun(2, {"bench", "mpi", "--sizes", "0"}), "--sizes 0");
  // Rank 1 finds its processor missing; rank 0 leaves with it.
  expect_job_refused(mpirun(2, {"bench", "mpi", "--quick", "--pin", "0,65535"}), "processor 65535");
}

}  // namespace
}  // namespace ulibc::testing
