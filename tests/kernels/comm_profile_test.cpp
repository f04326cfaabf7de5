// comm_profile_test.cpp — the stored profile of MPI's costs: reading between sizes, the file written and read back,
// malformed files refused naming the file; and what `ulibc bench mpi` feeds it (sizes, overlap, shared caches).
#include "mpi/comm_profile.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "mpi_costs/mpi_costs.hpp"

namespace ulibc::mpi {
namespace {

using testing::expect_input_error;
using testing::TempDir;

const Curve kTwoSizes{{8, 800}, {1e-6, 1e-4}};

TEST(Curve, ReadsBetweenSizesOnALogLogLine) {
  EXPECT_DOUBLE_EQ(kTwoSizes.at(8), 1e-6);
  EXPECT_DOUBLE_EQ(kTwoSizes.at(800), 1e-4);
  EXPECT_NEAR(kTwoSizes.at(80), 1e-5, 1e-18);  // a decade of bytes, a decade of seconds: halfway in logs
  const Curve three{{8, 64, 512}, {2e-6, 2e-6, 16e-6}};
  EXPECT_NEAR(three.at(32), 2e-6, 1e-18);   // a flat stretch stays flat
  EXPECT_NEAR(three.at(128), 4e-6, 1e-18);  // a third of the way (in logs) from 64 to 512: 2 * 8^(1/3)
}

TEST(Curve, FlatBelowAndLinearBeyondTheMeasuredSizes) {
  EXPECT_DOUBLE_EQ(kTwoSizes.at(1), 1e-6);
  EXPECT_DOUBLE_EQ(kTwoSizes.at(1600), 2e-4);  // twice the largest size, twice its time: bandwidth-bound
  EXPECT_EQ(Curve{}.at(100), 0);
}

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

CommProfile sample(const std::string& key, double scale) {
  return {key,
          {{8, 1024}, {scale * 1e-6, scale * 3e-6}},
          {{8, 1024}, {scale * 2e-6, scale * 9e-6}},
          {{8, 1024}, {scale * 1.5e-6, scale * 4e-6}},
          {{8, 1024}, {scale * 2.5e-6, scale * 5e-6}}};
}

void expect_same(const Curve& a, const Curve& b) {
  EXPECT_EQ(a.bytes, b.bytes);
  EXPECT_EQ(a.seconds, b.seconds);
}

TEST(CommProfileFile, WrittenAndReadBackByKey) {
  TempDir dir;
  const std::string path = dir.path() + "/profile.json";
  const CommProfile p = sample("host/2 ranks/1 hosts", 1);
  save_profile(path, p);
  const auto back = load_profile(path, p.key);
  ASSERT_TRUE(back);
  EXPECT_EQ(back->key, p.key);
  expect_same(back->p2p, p.p2p);
  expect_same(back->allgather, p.allgather);
  expect_same(back->bcast, p.bcast);
  expect_same(back->allreduce, p.allreduce);
  EXPECT_FALSE(load_profile(path, "host/4 ranks/1 hosts"));
}

TEST(CommProfileFile, KeepsOtherLayoutsAndReplacesItsOwn) {
  TempDir dir;
  const std::string path = dir.path() + "/profile.json";
  save_profile(path, sample("a/2 ranks/1 hosts", 1));
  save_profile(path, sample("a/4 ranks/1 hosts", 2));
  save_profile(path, sample("a/2 ranks/1 hosts", 3));
  expect_same(load_profile(path, "a/2 ranks/1 hosts")->p2p, sample("", 3).p2p);
  expect_same(load_profile(path, "a/4 ranks/1 hosts")->p2p, sample("", 2).p2p);
}

TEST(CommProfileFile, MalformedFilesNameTheFile) {
  TempDir dir;
  const std::string missing = dir.path() + "/none.json";
  expect_input_error([&] { load_profile(missing, "k"); }, missing);
  for (const auto& [name, text] : std::initializer_list<std::pair<std::string, std::string>>{
           {"text.json", "not json at all"},
           {"array.json", "[1, 2]"},
           {"no_list.json", R"({"profiles": 3})"},
           {"no_key.json", R"({"profiles": [{"p2p": {"bytes": [8], "seconds": [1e-6]}}]})"},
           {"descending.json", R"({"profiles": [{"key": "k", "p2p": {"bytes": [64, 8], "seconds": [1, 2]}}]})"},
           {"lengths.json", R"({"profiles": [{"key": "k", "bcast": {"bytes": [8, 64], "seconds": [1]}}]})"},
           {"negative.json", R"({"profiles": [{"key": "k", "allgather": {"bytes": [8], "seconds": [-1]}}]})"},
           {"strings.json", R"({"profiles": [{"key": "k", "allreduce": {"bytes": ["8"], "seconds": [1]}}]})"}}) {
    SCOPED_TRACE(name);
    const std::string path = write(dir, name, text);
    expect_input_error([&] { load_profile(path, "k"); }, path);
  }
}

TEST(CommProfileFile, AMalformedFileIsNotOverwritten) {
  TempDir dir;
  const std::string path = write(dir, "notes.json", "my notes, not a profile");
  expect_input_error([&] { save_profile(path, sample("k", 1)); }, path);
  std::ifstream in(path);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "my notes, not a profile");
}

TEST(MicroPlan, SizesAreWholeDoublesUpToAGibibyte) {
  EXPECT_EQ(message_sizes({64, 8, 64, 1024}), (std::vector<std::size_t>{8, 64, 1024}));
  expect_input_error([] { message_sizes({}); }, "no message size");
  expect_input_error([] { message_sizes({8, 0}); }, "0 bytes");
  expect_input_error([] { message_sizes({12}); }, "12 bytes");
  expect_input_error([] { message_sizes({kMaxMessageBytes + 8}); }, "from 8 to 1 GiB");
  const std::vector<std::size_t> full = default_sizes(false);
  EXPECT_EQ(full.front(), 8u);
  EXPECT_EQ(full.back(), std::size_t{4} << 20);
  EXPECT_EQ(full.size(), 20u);  // 2^3 .. 2^22
  EXPECT_EQ(default_sizes(true), (std::vector<std::size_t>{8, 512, 32768, 2097152}));
}

TEST(MicroPlan, TestNamesParseBack) {
  for (const Micro m : kMicros) EXPECT_EQ(parse_micro(micro_name(m)), m);
  expect_input_error([] { parse_micro("latency"); }, "\"latency\"");
  EXPECT_TRUE(needs_two_ranks(Micro::overlap));
  EXPECT_FALSE(needs_two_ranks(Micro::bcast));
}

harness::Measurement seconds(double value) { return {.name = "t", .unit = "s", .value = value}; }

TEST(Overlap, FromNoneToAll) {
  // A transfer of 10 us beside 10 us of computation: 20 us together is no overlap, 10 us is all of it.
  OverlapPoint p{.bytes = 1 << 20, .alone = seconds(10e-6), .loaded = seconds(20e-6), .compute = 10e-6};
  EXPECT_DOUBLE_EQ(p.overlap(), 0);
  p.loaded = seconds(15e-6);
  EXPECT_DOUBLE_EQ(p.overlap(), 0.5);
  p.loaded = seconds(10e-6);
  EXPECT_DOUBLE_EQ(p.overlap(), 1);
  p.loaded = seconds(30e-6);  // slower than the sum: noise, still none
  EXPECT_DOUBLE_EQ(p.overlap(), 0);
}

TEST(Sharing, OneProcessorSharesEverything) {
  const Topology live = Topology::load("/", Detail::full);
  const int p = live.usable().first();
  const Sharing s = sharing(live, p, p);
  EXPECT_TRUE(s.same_processor() && s.same_core() && s.same_package() && s.same_node());
  std::size_t caches = 0;
  for (const Cache& c : live.caches()) caches += c.cpus.test(p);
  EXPECT_EQ(s.caches.size(), caches);
  EXPECT_NE(s.describe().find("processor " + std::to_string(p) + " for both"), std::string::npos) << s.describe();
}

TEST(Sharing, TwoProcessorsShareTheCachesThatHoldBoth) {
  const Topology live = Topology::load("/", Detail::full);
  const int a = live.usable().first(), b = live.usable().last();
  if (a == b) GTEST_SKIP() << "one usable processor";
  const Sharing s = sharing(live, a, b);
  EXPECT_FALSE(s.same_processor());
  for (const Cache& c : s.caches) EXPECT_TRUE(c.cpus.test(a) && c.cpus.test(b));
  EXPECT_EQ(s.same_core(), live.processor(a)->core == live.processor(b)->core);
  expect_input_error([&] { sharing(live, a, CpuSet::kMaxId); }, std::to_string(CpuSet::kMaxId));
}

}  // namespace
}  // namespace ulibc::mpi
