// simpath_bench_test.cpp — `ulibc bench simpath`'s adapter: its options and
// their refusals, one variant per grid checked against OEIS A007764, a file
// instead of grids, and the record that tells the plot to draw against K.
#include "simpath/simpath_bench.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::simpath {
namespace {

using ulibc::testing::input_error_of;

#define EXPECT_CONTAINS(text, needle) EXPECT_NE(std::string(text).find(needle), std::string::npos) << (text)

// The adapter with its options parsed from `args`.
std::unique_ptr<harness::BenchKernel> bench_with(const std::string& args) {
  auto kernel = make_bench();
  harness::parse_options([&](harness::Options& o) { kernel->add_options(o); }, args);
  return kernel;
}

std::vector<harness::RunResult> run_on_one_thread(harness::BenchKernel& kernel) {
  const Topology topo = Topology::load();
  const Mapping map = Mapping::build(topo, Policy(PolicyKind::none), 1);
  return kernel.run({.topo = topo, .map = map});
}

TEST(SimpathBench, EachGridIsAVariantCheckedAgainstOeis) {
  auto kernel = bench_with("--grid 3,4 --reps 2");
  EXPECT_EQ(kernel->name(), "simpath");
  kernel->prepare(Topology::load(), 1, false);
  const auto p = kernel->parameters();
  EXPECT_EQ(p["reps"], 2);
  EXPECT_EQ(p["plot_x"]["values"]["K=4"], 4);  // several grids: time against K (the paper's Fig. 13)
  const auto results = run_on_one_thread(*kernel);
  ASSERT_EQ(results.size(), 2u);
  EXPECT_EQ(results[0].variant, "K=3");
  EXPECT_EQ(results[1].variant, "K=4");
  EXPECT_TRUE(results[1].valid) << results[1].check;
  EXPECT_EQ(results[1].check, "8512 paths = OEIS A007764");
  EXPECT_EQ(results[1].details["count"], "8512");
  ASSERT_EQ(results[1].measurements.size(), 3u);
  EXPECT_EQ(results[1].measurements[0].name, "time");
  EXPECT_EQ(results[1].measurements[0].reps.size(), 2u);
}

TEST(SimpathBench, AFileIsCountedWithoutAReference) {
  ulibc::testing::TempDir dir;
  const std::string file = dir.path() + "/square.el";
  std::ofstream(file) << "0 1\n1 2\n2 3\n3 0\n";
  auto kernel = bench_with("--file " + file + " --s 0 --t 2 --reps 1");
  kernel->prepare(Topology::load(), 1, false);
  const auto results = run_on_one_thread(*kernel);
  ASSERT_EQ(results.size(), 1u);
  EXPECT_EQ(results[0].variant, "square.el");
  EXPECT_TRUE(results[0].valid);
  EXPECT_EQ(results[0].check, "2 paths (no reference; repetitions agree)");
}

TEST(SimpathBench, BadOptionsAreRefusedBeforeAnyRun) {
  const Topology topo = Topology::load();
  EXPECT_CONTAINS(input_error_of([&] { bench_with("--reps 0")->prepare(topo, 1, false); }), "--reps 0");
  EXPECT_CONTAINS(input_error_of([&] { bench_with("--order dfs")->prepare(topo, 1, false); }), "dfs");
  EXPECT_CONTAINS(input_error_of([&] { bench_with("--grid 3 --file g.el --s 0 --t 1")->prepare(topo, 1, false); }),
                  "--file and --grid");
  EXPECT_CONTAINS(input_error_of([&] { bench_with("--file g.el --s 0")->prepare(topo, 1, false); }), "--s and --t");
}

}  // namespace
}  // namespace ulibc::simpath
