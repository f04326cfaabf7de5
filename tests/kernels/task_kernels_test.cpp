// task_kernels_test.cpp — the kernels of the task runtime: fib and the linear spawn tree (spawn), Cilksort
// (cilksort), heat (heat), each against its verifier under every scheduler at 1–4 workers, the verifiers against wrong
// answers, and the benchmarks' bad options.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <random>
#include <vector>

#include "cilksort/cilksort.hpp"
#include "cilksort/cilksort_bench.hpp"
#include "cilksort/verify.hpp"
#include "expect_error.hpp"
#include "harness/schedulers.hpp"
#include "heat/heat.hpp"
#include "heat/heat_bench.hpp"
#include "heat/verify.hpp"
#include "spawn/spawn.hpp"
#include "spawn/spawn_bench.hpp"
#include "spawn/verify.hpp"
#include "task_runtime.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::testing::expect_input_error;
namespace tasks = ulibc::tasks;
namespace cilksort = ulibc::cilksort;
namespace spawn = ulibc::spawn;

tasks::Runtime runtime(int workers, tasks::Scheduler s) {
  return ulibc::testing::task_runtime(workers, {.scheduler = s}, ulibc::PolicyKind::compact);
}

TEST(Spawn, FibAndTheLinearTreeAreRightUnderEveryScheduler) {
  for (const auto s : ulibc::testing::kAllSchedulers)
    for (const int w : {1, 2, 4}) {
      tasks::Runtime rt = runtime(w, s);
      EXPECT_TRUE(spawn::check_fib(20, rt.run([] { return spawn::fib(20); })).valid);
      EXPECT_TRUE(spawn::check_fib(24, rt.run([] { return spawn::fib_cutoff(24, 12); })).valid);
      EXPECT_TRUE(spawn::check_linear(50000, rt.run([] { return spawn::linear(50000); })).valid);
    }
}

TEST(Spawn, FibCallsCountsEveryCall) {
  for (int n = 0; n < 20; ++n) {
    std::uint64_t calls = 0;
    const auto count = [&](auto& self, int k) -> void {
      ++calls;
      if (k >= 2) {
        self(self, k - 1);
        self(self, k - 2);
      }
    };
    count(count, n);
    EXPECT_EQ(spawn::fib_calls(n), calls) << n;
  }
}

TEST(Spawn, TheChecksSeeWrongAnswers) {
  EXPECT_TRUE(spawn::check_fib(30, 832040).valid);
  EXPECT_FALSE(spawn::check_fib(30, 832039).valid);
  EXPECT_FALSE(spawn::check_linear(1000, 999).valid);
  EXPECT_FALSE(spawn::check_linear(1000, 1001).valid);
}

TEST(Cilksort, SortsEveryShapeUnderEveryScheduler) {
  for (const auto s : ulibc::testing::kAllSchedulers)
    for (const int w : {1, 2, 3}) {
      tasks::Runtime rt = runtime(w, s);
      for (const std::size_t n :
           {std::size_t{0}, std::size_t{1}, std::size_t{7}, std::size_t{4099}, std::size_t{100003}}) {
        std::vector<std::uint64_t> keys(n), buffer(n);
        rt.run([&] { cilksort::fill_random(keys, n + 17); });
        const std::vector<std::uint64_t> reference = cilksort::reference_order(keys);
        rt.run([&] { cilksort::sort(keys, buffer, {.sort = 64, .merge = 32}); });
        const cilksort::Check c = cilksort::check_sorted(keys, reference);
        EXPECT_TRUE(c.valid) << tasks::scheduler_name(s) << ", " << w << " workers, " << n << " keys: " << c.message;
      }
    }
}

TEST(Cilksort, ManyEqualKeysAndSortedInputs) {
  tasks::Runtime rt = runtime(2, tasks::Scheduler::adws);
  std::vector<std::uint64_t> keys(50000), buffer(keys.size());
  std::mt19937_64 rng(3);
  for (auto& k : keys) k = rng() % 5;  // runs of equal keys across every split
  std::vector<std::uint64_t> reference = cilksort::reference_order(keys);
  rt.run([&] { cilksort::sort(keys, buffer, {.sort = 16, .merge = 8}); });
  EXPECT_TRUE(cilksort::check_sorted(keys, reference).valid);
  std::iota(keys.begin(), keys.end(), 0);  // already sorted
  reference = keys;
  rt.run([&] { cilksort::sort(keys, buffer, {.sort = 16, .merge = 8}); });
  EXPECT_TRUE(cilksort::check_sorted(keys, reference).valid);
  std::reverse(keys.begin(), keys.end());
  rt.run([&] { cilksort::sort(keys, buffer, {.sort = 16, .merge = 8}); });
  EXPECT_TRUE(cilksort::check_sorted(keys, reference).valid);
}

TEST(Cilksort, TheCheckSeesDisorderAndLostKeys) {
  const std::vector<std::uint64_t> reference = {1, 2, 3, 3, 5};
  EXPECT_TRUE(cilksort::check_sorted(std::vector<std::uint64_t>{1, 2, 3, 3, 5}, reference).valid);
  EXPECT_NE(cilksort::check_sorted(std::vector<std::uint64_t>{1, 3, 2, 3, 5}, reference).message.find("not ascending"),
            std::string::npos);
  EXPECT_NE(cilksort::check_sorted(std::vector<std::uint64_t>{1, 2, 3, 5, 5}, reference).message.find("lost"),
            std::string::npos);  // ascending, but a 3 became a 5
  EXPECT_FALSE(cilksort::check_sorted(std::vector<std::uint64_t>{1, 2, 3}, reference).valid);
}

TEST(Heat, EveryStepMatchesTheExactSolutionUnderEveryScheduler) {
  const ulibc::heat::Problem p{.rows = 41, .cols = 67, .rx = 0.2, .ry = 0.25};
  for (const auto s : ulibc::testing::kAllSchedulers)
    for (const int w : {1, 2, 3}) {
      tasks::Runtime rt = runtime(w, s);
      ulibc::heat::Grids g(p);
      rt.run([&] { ulibc::heat::initialise(g, 3); });
      rt.run([&] { ulibc::heat::run(g, 30, 3); });
      const auto c = ulibc::heat::check_grid(p, g.current(), 30);
      EXPECT_TRUE(c.valid) << tasks::scheduler_name(s) << ", " << w << " workers: " << c.message;
    }
}

TEST(Heat, TheCheckSeesAWrongPointAndTheWrongStepCount) {
  const ulibc::heat::Problem p{.rows = 20, .cols = 20};
  ulibc::heat::Grids g(p);
  ulibc::heat::initialise(g, 4);  // outside a runtime: serially
  ulibc::heat::run(g, 5, 4);
  EXPECT_TRUE(ulibc::heat::check_grid(p, g.current(), 5).valid);
  EXPECT_FALSE(ulibc::heat::check_grid(p, g.current(), 6).valid);
  g.current()[7 * 20 + 9] += 1e-9;
  const auto c = ulibc::heat::check_grid(p, g.current(), 5);
  EXPECT_FALSE(c.valid);
  EXPECT_NE(c.message.find("(7, 9)"), std::string::npos) << c.message;
}

template <class Make>
void prepare_with(Make make, const std::string& args) {
  auto kernel = make();
  ulibc::harness::parse_options([&](ulibc::harness::Options& o) { kernel->add_options(o); }, args);
  kernel->prepare(ulibc::testing::live_topology(), 2, true);
}

TEST(TaskKernels, BadOptionsAreNamed) {
  expect_input_error(
      [] {
        std::vector<std::uint64_t> k(8), b(7);
        cilksort::sort(k, b);
      },
      "a buffer of 7 keys for 8");
  expect_input_error([] { prepare_with(cilksort::make_bench, "--size 0"); }, "--size 0");
  expect_input_error([] { prepare_with(cilksort::make_bench, "--cutoff 2"); }, "--cutoff 2");
  expect_input_error([] { prepare_with(cilksort::make_bench, "--size 1000000000000"); }, "keys");  // cannot fit
  expect_input_error([] { prepare_with(cilksort::make_bench, "--scheduler adws,lifo"); }, "lifo");
  expect_input_error([] { prepare_with(spawn::make_bench, "--scheduler adws,adws"); }, "named twice");
  expect_input_error([] { prepare_with(spawn::make_bench, "--fib 60"); }, "--fib 60");
  expect_input_error([] { prepare_with(spawn::make_bench, "--fib 20 --cutoff 30"); }, "--cutoff 30");
  expect_input_error([] { prepare_with(spawn::make_bench, "--linear 0"); }, "--linear 0");
  expect_input_error([] { prepare_with(ulibc::heat::make_bench, "--rows 2"); }, "--rows 2");
  expect_input_error([] { prepare_with(ulibc::heat::make_bench, "--steps 0"); }, "--steps 0");
  expect_input_error([] { prepare_with(ulibc::heat::make_bench, "--grain 0"); }, "--grain 0");
  expect_input_error([] { ulibc::heat::Grids g({.rows = 10, .cols = 10, .rx = 0.3, .ry = 0.3}); }, "stable");
  EXPECT_EQ(ulibc::harness::scheduler_list("adws,random").size(), 2u);
}

}  // namespace
