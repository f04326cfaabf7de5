// stream_test.cpp — STREAM's operations, its check, its options and a run of
// each variant. Behaviour only: the figures themselves are never asserted.
#include "stream/stream.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "harness/stats.hpp"
#include "stream/stream_bench.hpp"
#include "stream/verify.hpp"
#include "ulibc/affinity.hpp"

namespace {

namespace stream = ulibc::stream;
using stream::Op;
using ulibc::testing::expect_input_error;
using ulibc::testing::FakeMachine;

// Three arrays owned by the test, with a view for the kernel.
struct SmallArrays {
  explicit SmallArrays(std::size_t n) : a(n), b(n), c(n) {}
  stream::Arrays view() { return {a.data(), b.data(), c.data(), a.size()}; }
  std::vector<double> a, b, c;
};

// A kernel whose options were parsed from `args`.
std::unique_ptr<ulibc::harness::BenchKernel> kernel_with(const std::string& args) {
  auto kernel = stream::make_bench();
  ulibc::harness::parse_options([&](ulibc::harness::Options& o) { kernel->add_options(o); }, args);
  return kernel;
}

TEST(StreamOps, EachOperationComputesItsFormulaOnItsRangeOnly) {
  const ulibc::Range inner{1, 4};
  struct Case {
    Op op;
    std::vector<double> a, b, c;  // expected after the op, from a = i+1, b = 10(i+1), c = 100(i+1)
  };
  const Case cases[] = {
      {Op::copy, {1, 2, 3, 4, 5}, {10, 20, 30, 40, 50}, {100, 2, 3, 4, 500}},
      {Op::scale, {1, 2, 3, 4, 5}, {10, 600, 900, 1200, 50}, {100, 200, 300, 400, 500}},
      {Op::add, {1, 2, 3, 4, 5}, {10, 20, 30, 40, 50}, {100, 22, 33, 44, 500}},
      {Op::triad, {1, 620, 930, 1240, 5}, {10, 20, 30, 40, 50}, {100, 200, 300, 400, 500}},
  };
  for (const Case& expected : cases) {
    SmallArrays s(5);
    for (std::size_t i = 0; i < 5; ++i) {
      s.a[i] = static_cast<double>(i + 1);
      s.b[i] = 10.0 * static_cast<double>(i + 1);
      s.c[i] = 100.0 * static_cast<double>(i + 1);
    }
    stream::apply(expected.op, s.view(), inner);
    EXPECT_EQ(s.a, expected.a) << stream::op_name(expected.op);
    EXPECT_EQ(s.b, expected.b) << stream::op_name(expected.op);
    EXPECT_EQ(s.c, expected.c) << stream::op_name(expected.op);
  }
}

TEST(StreamOps, NamesAndBytesAreStreams) {
  std::vector<std::string> names;
  std::vector<std::size_t> bytes;
  for (Op op : stream::kOps) {
    names.push_back(stream::op_name(op));
    bytes.push_back(stream::bytes_per_element(op));
  }
  EXPECT_EQ(names, (std::vector<std::string>{"Copy", "Scale", "Add", "Triad"}));
  EXPECT_EQ(bytes, (std::vector<std::size_t>{16, 16, 24, 24}));
}

TEST(StreamOps, ExpectedValuesReplayTheOperationsByHand) {
  // a=1 b=2 c=0 → c=1, b=3, c=4, a=3+12=15; again → c=15, b=45, c=60, a=45+180=225.
  const stream::Values one = stream::expected_after(1), two = stream::expected_after(2);
  EXPECT_EQ(one.a, 15);
  EXPECT_EQ(one.b, 3);
  EXPECT_EQ(one.c, 4);
  EXPECT_EQ(two.a, 225);
  EXPECT_EQ(two.b, 45);
  EXPECT_EQ(two.c, 60);
}

// initialise and `reps` repetitions of the four operations, in two halves as two threads would.
SmallArrays run_small(std::size_t n, int reps) {
  SmallArrays s(n);
  const ulibc::Range halves[] = {{0, n / 2}, {n / 2, n}};
  for (auto r : halves) stream::initialise(s.view(), r);
  for (int rep = 0; rep < reps; ++rep)
    for (Op op : stream::kOps)
      for (auto r : halves) stream::apply(op, s.view(), r);
  return s;
}

TEST(StreamCheck, PassesWhenEveryElementIsRight) {
  SmallArrays s = run_small(1000, 3);
  const stream::Check check = stream::check(s.view(), 3);
  EXPECT_TRUE(check.valid);
  EXPECT_EQ(check.message, "all 3 x 1000 elements match (max relative error 0)");
}

TEST(StreamCheck, CatchesOneCorruptedElementInEachArray) {
  SmallArrays s = run_small(1000, 3);
  for (std::vector<double>* array : {&s.a, &s.b, &s.c}) {
    const char name = array == &s.a ? 'a' : array == &s.b ? 'b' : 'c';
    const double good = (*array)[777];
    (*array)[777] = good * (1 + 1e-12);  // ten times the tolerance
    const stream::Check check = stream::check(s.view(), 3);
    EXPECT_FALSE(check.valid) << name;
    EXPECT_NE(check.message.find(std::string(1, name) + "[777] is "), std::string::npos) << check.message;
    (*array)[777] = good;
  }
  EXPECT_TRUE(stream::check(s.view(), 3).valid);
}

TEST(StreamCheck, ToleratesRoundingAndRejectsNaN) {
  SmallArrays s = run_small(8, 2);
  s.c[7] = std::nextafter(s.c[7], 0.0);
  const stream::Check rounded = stream::check(s.view(), 2);
  EXPECT_TRUE(rounded.valid) << rounded.message;
  EXPECT_EQ(rounded.message.find("max relative error 0)"), std::string::npos) << rounded.message;
  s.b[0] = std::nan("");
  EXPECT_FALSE(stream::check(s.view(), 2).valid);
}

TEST(StreamCheck, CatchesAMissedRepetition) {
  SmallArrays s = run_small(16, 3);
  EXPECT_FALSE(stream::check(s.view(), 4).valid);
}

TEST(StreamBench, PrepareRejectsAnEmptyArray) {
  auto kernel = kernel_with("--size 0");
  expect_input_error([&] { kernel->prepare(ulibc::Topology::load(), 1, false); }, "--size 0");
}

TEST(StreamBench, PrepareRejectsASingleRepetition) {
  auto kernel = kernel_with("--reps 1");
  expect_input_error([&] { kernel->prepare(ulibc::Topology::load(), 1, true); }, "--reps 1");
}

TEST(StreamBench, PrepareRejectsRepetitionsThatWouldOverflow) {
  auto kernel = kernel_with("--reps 201");
  expect_input_error([&] { kernel->prepare(ulibc::Topology::load(), 1, true); }, "--reps 201");
  EXPECT_NO_THROW(kernel_with("--reps 200")->prepare(ulibc::Topology::load(), 1, true));
  // 200 repetitions leave finite values the check can still tell apart.
  EXPECT_TRUE(std::isfinite(stream::expected_after(200).a));
}

TEST(StreamBench, PrepareRefusesArraysThatCannotFitBeforeAllocating) {
  // 2^60 elements: 8 EiB per array. Were prepare to allocate, it would fail
  // with bad_alloc or be killed, not throw this.
  auto kernel = kernel_with("--size 1Ei");
  const auto prepare = [&] { kernel->prepare(ulibc::Topology::load(), 1, false); };
  expect_input_error(prepare, "STREAM's three arrays of 1152921504606846976 elements");
  expect_input_error(prepare, "need more than 16 EiB");
}

TEST(StreamBench, OptionsTakeSizeSuffixesAndNameTheirValues) {
  auto decimal = kernel_with("--size 2k --reps 4 --arrays node");
  decimal->prepare(ulibc::Topology::load(), 1, true);  // explicit values win over --quick
  const auto p = decimal->parameters();
  EXPECT_EQ(p["size"], 2000);
  EXPECT_EQ(p["bytes_per_array"], 16000);
  EXPECT_EQ(p["total_bytes"], 48000);
  EXPECT_EQ(p["reps"], 4);
  EXPECT_EQ(p["arrays"], "node");
  EXPECT_FALSE(p.contains("note"));

  auto binary = kernel_with("--size 2Ki");
  binary->prepare(ulibc::Topology::load(), 1, false);
  EXPECT_EQ(binary->parameters()["size"], 2048);
  EXPECT_EQ(binary->parameters()["reps"], 10);
  EXPECT_EQ(binary->parameters()["arrays"], "both");

  try {
    kernel_with("--arrays neither");
    ADD_FAILURE() << "--arrays neither was accepted";
  } catch (const std::invalid_argument& e) {
    EXPECT_EQ(std::string(e.what()).rfind("ValidationError: --arrays: neither not in", 0), 0u) << e.what();
  }
}

TEST(StreamBench, QuickIsSmallAndSaysItBreaksTheRule) {
  auto kernel = kernel_with("");
  kernel->prepare(ulibc::Topology::load(), 1, true);
  const auto p = kernel->parameters();
  EXPECT_EQ(p["size"], 1 << 18);
  EXPECT_EQ(p["reps"], 3);
  EXPECT_TRUE(p.contains("note"));
}

// A fake machine whose processors have caches: `l3_bytes` per package,
// shared by its cores, and 1 MiB of L2 per core that must not count.
ulibc::Topology machine_with_l3(const FakeMachine& m, std::uint64_t l3_bytes) {
  ulibc::testing::TempDir dir;
  ulibc::testing::write_fake_sysfs(m, dir.path());
  const auto write = [](const std::filesystem::path& path, const std::string& text) {
    std::ofstream(path) << text << "\n";
  };
  for (int package = 0; package < m.packages; ++package) {
    std::string shared;
    for (int core = 0; core < m.cores_per_package; ++core)
      shared += (core ? "," : "") + std::to_string(m.processor_id(package, core, 0));
    for (int core = 0; core < m.cores_per_package; ++core) {
      const int proc = m.processor_id(package, core, 0);
      const auto cache =
          std::filesystem::path(dir.path()) / "sys/devices/system/cpu" / ("cpu" + std::to_string(proc)) / "cache";
      for (const auto& [index, level, size, cpus] :
           {std::tuple{"index2", "2", std::string("1024K"), std::to_string(proc)},
            std::tuple{"index3", "3", std::to_string(l3_bytes / 1024) + "K", shared}}) {
        std::filesystem::create_directories(cache / index);
        write(cache / index / "level", level);
        write(cache / index / "type", "Unified");
        write(cache / index / "size", size);
        write(cache / index / "shared_cpu_list", cpus);
      }
    }
  }
  return ulibc::Topology::load(dir.path());
}

TEST(StreamBench, DefaultSizeIsFourTimesEveryLastLevelCache) {
  const ulibc::Topology topo = machine_with_l3(FakeMachine{.packages = 2, .cores_per_package = 4}, 8ull << 20);
  ASSERT_EQ(topo.caches().size(), 2u + 8u);  // each L3 once, whatever number of cores share it
  auto kernel = kernel_with("");
  kernel->prepare(topo, 8, false);
  const auto p = kernel->parameters();
  EXPECT_EQ(p["llc_bytes"], 16ull << 20);
  EXPECT_EQ(p["size"], 4 * (16ull << 20) / 8);  // 8 Mi elements: 64 MiB per array
  EXPECT_EQ(p["rule"], true);
  EXPECT_EQ(p["reps"], 10);
}

TEST(StreamBench, DefaultSizeHasAFloorRoundedToWholeKibiElements) {
  const ulibc::Topology topo = machine_with_l3(FakeMachine{.packages = 1, .cores_per_package = 2}, 1ull << 20);
  auto kernel = kernel_with("");
  kernel->prepare(topo, 2, false);
  const auto p = kernel->parameters();
  EXPECT_EQ(p["llc_bytes"], 1ull << 20);
  EXPECT_EQ(p["size"], 2'000'896);  // 2e6 rounded up to a multiple of 1024
  EXPECT_EQ(p["rule"], true);
}

TEST(StreamBench, RuleIsUnknownWithoutCachesAndFalseWhenTheSizeIsTooSmall) {
  auto unknown = kernel_with("");
  unknown->prepare(ulibc::Topology::load("", ulibc::Detail::placement), 1, false);
  EXPECT_EQ(unknown->parameters()["llc_bytes"], 0);
  EXPECT_TRUE(unknown->parameters()["rule"].is_null());

  const ulibc::Topology topo = machine_with_l3(FakeMachine{.packages = 1, .cores_per_package = 2}, 1ull << 20);
  auto small = kernel_with("--size 1024");
  small->prepare(topo, 2, false);
  EXPECT_EQ(small->parameters()["rule"], false);
}

TEST(StreamBench, DefaultSizeOnThisMachineHonoursTheRule) {
  const ulibc::Topology topo = ulibc::Topology::load();
  auto kernel = kernel_with("");
  kernel->prepare(topo, 1, false);
  const auto p = kernel->parameters();
  int level = 0;
  for (const auto& c : topo.caches()) level = std::max(level, c.level);
  std::uint64_t llc = 0;
  for (const auto& c : topo.caches()) llc += c.level == level ? c.size_bytes : 0;
  EXPECT_GE(p["bytes_per_array"].get<std::uint64_t>(), 4 * llc);
  EXPECT_EQ(p["size"].get<std::uint64_t>() % 1024, 0u);
  EXPECT_NE(p["rule"], false);
}

// Every result: the four operations, `reps` rates each, STREAM's best after the first.
void expect_well_formed(const ulibc::harness::RunResult& result, std::size_t n, int reps) {
  EXPECT_TRUE(result.valid) << result.variant << ": " << result.check;
  EXPECT_NE(result.check.find("all 3 x " + std::to_string(n) + " elements match"), std::string::npos) << result.check;
  ASSERT_EQ(result.measurements.size(), 4u);
  const char* names[] = {"Copy", "Scale", "Add", "Triad"};
  for (std::size_t k = 0; k < 4; ++k) {
    const auto& m = result.measurements[k];
    EXPECT_EQ(m.name, names[k]);
    EXPECT_EQ(m.unit, "MB/s");
    EXPECT_EQ(m.better, ulibc::harness::Better::higher);
    ASSERT_EQ(m.reps.size(), static_cast<std::size_t>(reps));
    for (double rate : m.reps) EXPECT_TRUE(std::isfinite(rate) && rate > 0) << m.name << " " << rate;
    EXPECT_EQ(m.value, ulibc::harness::best_after_first(m.reps, ulibc::harness::Better::higher));
  }
}

std::vector<std::string> variants(const std::vector<ulibc::harness::RunResult>& results) {
  std::vector<std::string> names;
  for (const auto& r : results) names.push_back(r.variant);
  return names;
}

TEST(StreamBench, RunUnderPolicyNoneMeasuresMallocArraysOnly) {
  const ulibc::Topology topo = ulibc::Topology::load();
  const ulibc::Mapping map = ulibc::Mapping::build(topo, ulibc::Policy(ulibc::PolicyKind::none), 1);
  auto kernel = kernel_with("--arrays node");  // ignored under none: there is nothing to place
  kernel->prepare(topo, 1, true);
  EXPECT_EQ(kernel->headline(), "Triad");
  const auto results = kernel->run({.topo = topo, .map = map, .bound = false});
  EXPECT_EQ(variants(results), std::vector<std::string>{"malloc"});
  for (const auto& r : results) expect_well_formed(r, 1 << 18, 3);  // --quick
}

TEST(StreamBench, RunUnderScatterMeasuresOrdinaryAndNodeArrays) {
  const ulibc::Topology topo = ulibc::Topology::load();
  const ulibc::Mapping map = ulibc::Mapping::build(topo, ulibc::Policy(ulibc::PolicyKind::scatter), 2);
  const ulibc::ScopedOpenMPTeam team(map);  // bound for the test, as the sweep binds it
  for (const auto& [arrays, expected] : {std::pair{"both", std::vector<std::string>{"ordinary", "node"}},
                                         std::pair{"ordinary", std::vector<std::string>{"ordinary"}},
                                         std::pair{"node", std::vector<std::string>{"node"}}}) {
    // An odd size: the threads' shares differ by one element, and node parts end inside a page.
    auto kernel = kernel_with(std::string("--size 100001 --reps 2 --arrays ") + arrays);
    kernel->prepare(topo, 2, true);
    const auto results = kernel->run({.topo = topo, .map = map, .bound = team.bound()});
    EXPECT_EQ(variants(results), expected);
    for (const auto& r : results) expect_well_formed(r, 100001, 2);
  }
}

}  // namespace
