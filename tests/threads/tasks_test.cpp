// tasks_test.cpp — the task runtime under every scheduler at 1–8 workers (more workers than processors too): the
// answers of nested, deep and wide task trees, exceptions and cancellation, reuse, ADWS's deterministic placement,
// and bad input.
#include "ulibc/tasks.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "task_runtime.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::Mapping;
using ulibc::Policy;
using ulibc::PolicyKind;
using ulibc::testing::expect_input_error;
using ulibc::testing::live_topology;
namespace tasks = ulibc::tasks;
using tasks::Runtime;
using tasks::Scheduler;
using tasks::TaskGroup;

Runtime make(int workers, Scheduler s, bool stealing = true, bool statistics = false) {
  return ulibc::testing::task_runtime(workers, {.scheduler = s, .stealing = stealing, .statistics = statistics});
}

constexpr const auto& kSchedulers = ulibc::testing::kAllSchedulers;
constexpr int kWorkerCounts[] = {1, 2, 3, 8};

std::uint64_t fib(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  const auto [a, b] = tasks::parallel_invoke([=] { return fib(n - 1); }, [=] { return fib(n - 2); });
  return a + b;
}

std::uint64_t fib_serial(int n) {
  return n < 2 ? static_cast<std::uint64_t>(n) : fib_serial(n - 1) + fib_serial(n - 2);
}

// Each task group of `width` children, `depth` levels deep; returns the leaves run.
long tree(int depth, int width) {
  if (depth == 0) return 1;
  std::vector<long> leaves(static_cast<std::size_t>(width), 0);
  TaskGroup g;
  for (int k = 0; k < width; ++k) g.spawn([&, k] { leaves[static_cast<std::size_t>(k)] = tree(depth - 1, width); });
  g.wait();
  return std::accumulate(leaves.begin(), leaves.end(), 0L);
}

// A chain: each task makes a group with one child, `depth` groups nested.
int chain(int depth) {
  if (depth == 0) return 0;
  int below = 0;
  TaskGroup g;
  g.spawn([&] { below = chain(depth - 1); });
  g.wait();
  return below + 1;
}

TEST(Tasks, EverySchedulerComputesFibAtEveryWorkerCount) {
  for (const Scheduler s : kSchedulers)
    for (const int w : kWorkerCounts) {
      Runtime rt = make(w, s);
      EXPECT_EQ(rt.run([] { return fib(22); }), fib_serial(22)) << tasks::scheduler_name(s) << ", " << w << " workers";
    }
}

TEST(Tasks, NestedWideAndDeepTreesRunEveryTask) {
  for (const Scheduler s : kSchedulers)
    for (const int w : {2, 8}) {
      Runtime rt = make(w, s);
      EXPECT_EQ(rt.run([] { return tree(3, 20); }), 8000) << tasks::scheduler_name(s);
      EXPECT_EQ(rt.run([] { return tree(1, 20000); }), 20000) << tasks::scheduler_name(s);  // one wide group
      EXPECT_EQ(rt.run([] { return chain(2000); }), 2000) << tasks::scheduler_name(s);      // deep nesting
    }
}

TEST(Tasks, ParallelInvokeReturnsEveryValueInOrder) {
  Runtime rt = make(3, Scheduler::adws);
  const auto [a, b, c, d] = rt.run([] {
    return tasks::parallel_invoke([] { return 1; }, [] { return std::string("two"); }, [] {},
                                  tasks::with_work(5, [] { return 4.5; }));
  });
  EXPECT_EQ(a, 1);
  EXPECT_EQ(b, "two");
  EXPECT_EQ(d, 4.5);
  (void)c;  // std::monostate
}

TEST(Tasks, ParallelForRunsEveryIndexOnceAndReduceSumsThem) {
  const std::size_t n = 100003;
  std::vector<double> cost(n);
  for (std::size_t i = 0; i < n; ++i) cost[i] = static_cast<double>(i % 97);  // uneven: the profile splits by it
  const tasks::WorkProfile profile(cost);
  for (const Scheduler s : kSchedulers)
    for (const int w : kWorkerCounts) {
      Runtime rt = make(w, s);
      for (const tasks::WorkProfile* p : {static_cast<const tasks::WorkProfile*>(nullptr), &profile}) {
        std::vector<std::atomic<int>> seen(n);
        rt.run([&] {
          tasks::parallel_for(
              0, n, 100,
              [&](std::size_t i, std::size_t j) {
                for (std::size_t k = i; k < j; ++k) seen[k].fetch_add(1, std::memory_order_relaxed);
              },
              p);
        });
        std::size_t wrong = 0;
        for (const auto& x : seen) wrong += x.load() != 1;
        EXPECT_EQ(wrong, 0u) << tasks::scheduler_name(s) << ", " << w << " workers";
        const std::uint64_t sum = rt.run([&] {
          return tasks::parallel_reduce(
              std::size_t{0}, n, 64, std::uint64_t{0},
              [](std::size_t i, std::size_t j) {
                std::uint64_t t = 0;
                for (std::size_t k = i; k < j; ++k) t += k;
                return t;
              },
              [](std::uint64_t x, std::uint64_t y) { return x + y; }, p);
        });
        EXPECT_EQ(sum, static_cast<std::uint64_t>(n) * (n - 1) / 2);
      }
    }
}

TEST(Tasks, TheRuntimeIsReusedAcrossManyRegions) {
  Runtime rt = make(3, Scheduler::hierarchical);
  for (int r = 0; r < 300; ++r) ASSERT_EQ(rt.run([r] { return fib(8) + static_cast<std::uint64_t>(r); }), 21u + r);
}

// Counts its destructions, slowly: a task freed after its group was told it ran would be seen still alive.
struct SlowToFree {
  std::atomic<int>* freed;
  explicit SlowToFree(std::atomic<int>* f) : freed(f) {}
  SlowToFree(SlowToFree&& o) noexcept : freed(std::exchange(o.freed, nullptr)) {}
  ~SlowToFree() {
    if (!freed) return;
    std::this_thread::sleep_for(std::chrono::milliseconds(2));
    freed->fetch_add(1, std::memory_order_release);
  }
};

// When wait() returns, every child is freed, its captures with it. A task freed by a worker other than its maker
// goes back to the maker's lists (task_memory.cpp): freed after the wait, it could be freed after the run, the pool
// and its maker had ended, lost and written into an ended thread's storage.
TEST(Tasks, WaitReturnsWhenEveryChildIsFreed) {
  for (const Scheduler s : kSchedulers) {
    Runtime rt = make(4, s);
    for (int round = 0; round < 5; ++round) {
      std::atomic<int> freed{0};
      const int seen = rt.run([&] {
        TaskGroup g;
        for (int k = 0; k < 12; ++k) g.spawn([keep = SlowToFree(&freed)] { (void)keep; });
        g.wait();
        return freed.load(std::memory_order_acquire);
      });
      EXPECT_EQ(seen, 12) << tasks::scheduler_name(s) << ", round " << round;
    }
  }
}

struct Boom : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Throws from the bottom of a `depth`-deep nest of groups.
void nest_that_throws(int depth) {
  TaskGroup g;
  g.spawn([depth] {
    if (depth == 0) throw Boom("deep");
    nest_that_throws(depth - 1);
  });
  g.wait();
}

TEST(Tasks, AnExceptionFromADeepNestReachesTheJoinerAndTheRunsCaller) {
  for (const Scheduler s : kSchedulers)
    for (const int w : kWorkerCounts) {
      Runtime rt = make(w, s);
      EXPECT_THROW(rt.run([] { nest_that_throws(50); }), Boom) << tasks::scheduler_name(s) << ", " << w;
      EXPECT_EQ(rt.run([] { return fib(10); }), 55u);  // and the runtime goes on
    }
}

TEST(Tasks, TheFirstExceptionIsRethrownTheOthersCountedAndPendingWorkCancelled) {
  for (const int w : {1, 2, 8}) {
    Runtime rt = make(w, Scheduler::random);
    std::atomic<int> ran{0}, thrown{0};
    int exceptions = 0;
    bool caught = false;
    rt.run([&] {
      TaskGroup g;
      for (int k = 0; k < 2000; ++k)
        g.spawn([&, k] {
          if (k % 500 == 499) {
            thrown.fetch_add(1);
            throw Boom("child " + std::to_string(k));
          }
          ran.fetch_add(1);
        });
      try {
        g.wait();
      } catch (const Boom&) {
        caught = true;
      }
      exceptions = g.exceptions();
    });
    EXPECT_TRUE(caught);
    EXPECT_GE(exceptions, 1);
    EXPECT_EQ(exceptions, thrown.load());
    EXPECT_LT(ran.load(), 1996) << w << " workers: nothing was cancelled";
    if (w == 1) {  // one worker: the first child to throw cancels every child not yet run, the other throwers too
      EXPECT_EQ(exceptions, 1);
    }
  }
}

TEST(Tasks, CancelSkipsWhatHasNotStartedAndReachesNestedGroups) {
  Runtime rt = make(2, Scheduler::hierarchical);
  std::atomic<int> leaves{0};
  rt.run([&] {
    TaskGroup g;
    g.cancel();
    for (int k = 0; k < 100; ++k) g.spawn([&] { leaves.fetch_add(1); });
    g.wait();
    EXPECT_TRUE(g.cancelled());
  });
  EXPECT_EQ(leaves.load(), 0);
  rt.run([&] {
    TaskGroup outer;
    outer.spawn([&] {
      outer.cancel();
      TaskGroup inner;  // made by a task of a cancelled group: its children are skipped too
      for (int k = 0; k < 100; ++k) inner.spawn([&] { leaves.fetch_add(1); });
      inner.wait();
    });
    outer.wait();
  });
  EXPECT_EQ(leaves.load(), 0);
}

// ADWS with stealing off: parallel_for over n elements of equal work on W workers gives the leaf [i, j) the range
// [W·i/n, W·j/n) (each split is proportional), so it runs on worker ⌊W·i/n⌋: the same table, run after run.
TEST(Adws, WithoutStealingEachLeafRunsWhereItsRangeBegins) {
  const std::size_t n = 4096, grain = 16;
  for (const int w : {1, 2, 4, 8}) {
    Runtime rt = make(w, Scheduler::adws, false);
    for (int round = 0; round < 3; ++round) {
      std::vector<int> where(n / grain, -1);
      rt.run([&] {
        tasks::parallel_for(0, n, grain,
                            [&](std::size_t i, std::size_t) { where[i / grain] = tasks::current_worker(); });
      });
      for (std::size_t leaf = 0; leaf < where.size(); ++leaf)
        ASSERT_EQ(where[leaf], static_cast<int>(static_cast<std::size_t>(w) * leaf * grain / n))
            << w << " workers, leaf " << leaf << ", round " << round;
    }
  }
}

// Uneven hints move the boundaries: a profile putting 3/4 of the work in the first quarter of the elements gives
// that quarter three of the four workers. A leaf [i, j) begins at W·work(0, i)/work(0, n) of the worker line.
TEST(Adws, TheProfileSplitsTheWorkersByWork) {
  const std::size_t n = 1024, grain = 8;
  std::vector<double> cost(n, 1.0);
  for (std::size_t i = 0; i < n / 4; ++i) cost[i] = 9.0;  // 2304 of 3072
  const tasks::WorkProfile profile(cost);
  Runtime rt = make(4, Scheduler::adws, false);
  std::vector<int> starts(n, -1);  // by a leaf's first element: where it ran
  rt.run([&] {
    tasks::parallel_for(
        0, n, grain, [&](std::size_t i, std::size_t) { starts[i] = tasks::current_worker(); }, &profile);
  });
  std::vector<int> leaves_on(4, 0);
  for (std::size_t i = 0; i < n; ++i) {
    if (starts[i] < 0) continue;
    ++leaves_on[static_cast<std::size_t>(starts[i])];
    const double begin = profile.work(0, i) / profile.work(0, n) * 4;
    EXPECT_EQ(starts[i], static_cast<int>(std::floor(begin + 1e-9))) << "leaf at " << i;
    if (i >= n / 4) {
      EXPECT_EQ(starts[i], 3) << "leaf at " << i;
    }
  }
  for (int w = 0; w < 4; ++w) EXPECT_GT(leaves_on[static_cast<std::size_t>(w)], 0) << "worker " << w;
}

// adws_node_begins says where each node's leaves begin. Its arithmetic needs only the mapping's thread counts per
// node, so a mapping of a synthetic machine of 4 nodes gives the nodes, and a live runtime of as many workers
// (ADWS, no stealing) the leaves' workers: every leaf lies inside the part of the node its worker is on (the
// line holds each node's workers together, in node order). Even work, 3/4 of it in the first quarter, random
// work, and work that is zero over whole stretches.
TEST(Adws, NodeBeginsHoldEveryLeafOnTheNodeThatRunsIt) {
  const ulibc::Topology fake = ulibc::testing::load_fake({.packages = 4, .cores_per_package = 2, .smt = 2});
  const std::size_t n = 5000, grain = 7;
  std::vector<std::vector<double>> costs(4, std::vector<double>(n, 1.0));
  for (std::size_t i = 0; i < n / 4; ++i) costs[1][i] = 9.0;
  std::mt19937 rng(7);
  for (double& c : costs[2]) c = static_cast<double>(rng() % 100);
  for (std::size_t i = 0; i < n; ++i) costs[3][i] = (i / 600) % 2 == 0 ? 0.0 : 3.0;
  for (const int threads : {1, 3, 5, 8, 16}) {
    const Mapping map = Mapping::build(fake, Policy(PolicyKind::scatter), threads);
    std::vector<int> node_of_worker;
    for (int k = 0; k < static_cast<int>(map.threads_per_node().size()); ++k)
      node_of_worker.insert(node_of_worker.end(), static_cast<std::size_t>(map.threads_per_node()[k]), k);
    Runtime rt = make(threads, Scheduler::adws, false);
    for (std::size_t c = 0; c < costs.size(); ++c) {
      const tasks::WorkProfile profile(costs[c]);
      const tasks::WorkProfile* used = c == 0 ? nullptr : &profile;
      const std::vector<std::size_t> begins = tasks::adws_node_begins(map, n, grain, used);
      std::vector<std::pair<std::size_t, std::size_t>> leaves;
      std::vector<int> worker_of_leaf(n, -1);  // by the leaf's first element
      rt.run([&] {
        tasks::parallel_for(
            0, n, grain, [&](std::size_t i, std::size_t) { worker_of_leaf[i] = tasks::current_worker(); }, used);
      });
      std::size_t i = 0;
      for (std::size_t next = 1; next <= n; ++next) {
        if (next < n && worker_of_leaf[next] < 0) continue;  // [i, next) is one leaf
        const int node = node_of_worker[static_cast<std::size_t>(worker_of_leaf[i])];
        const std::size_t end =
            node + 1 < static_cast<int>(begins.size()) ? begins[static_cast<std::size_t>(node) + 1] : n;
        EXPECT_LE(begins[static_cast<std::size_t>(node)], i)
            << threads << " threads, profile " << c << ", leaf at " << i;
        EXPECT_LE(next, end) << threads << " threads, profile " << c << ", leaf at " << i;
        i = next;
      }
    }
  }
}

// Profiles that would split off one element at a time (all zero; work doubling from element to element) still
// give a shallow recursion: 250,000 elements, grain 1, on a worker's own stack, which a recursion one element deep
// per level would overflow (a quarter of a million frames of over 32 bytes pass a thread's 8 MiB).
TEST(Tasks, AnyProfileSplitsShallowly) {
  const std::size_t n = 250'000;
  std::vector<double> zero(n, 0.0), doubling(n);
  for (std::size_t i = 0; i < n; ++i) doubling[i] = std::ldexp(1.0, static_cast<int>(i % 1000));
  Runtime rt = make(2, Scheduler::adws);
  for (const auto* per_element : {&zero, &doubling}) {
    const tasks::WorkProfile profile(*per_element);
    std::atomic<std::size_t> covered{0};
    rt.run([&] {
      tasks::parallel_for(
          0, n, 1, [&](std::size_t i, std::size_t j) { covered.fetch_add(j - i); }, &profile);
    });
    EXPECT_EQ(covered.load(), n);
  }
}

// A thief steals only tasks of the widest group whose work is finished. On two workers: the root's group G gives
// C1 [0, 1.5) to worker 0 and C2 [1.5, 2) to worker 1. C1's group S gives D1 [0, 1) to worker 0 and D2 [1, 1.5)
// to worker 1 once C2 runs there, and worker 1's inbox holds it while worker 1 is busy: C2 has made a group of E1
// and E2 on its own deque and runs E2 for 50 ms. Worker 0, done with D1, may steal within S but not G's work: E1,
// on top of worker 1's deque, is G's (its range [1.5, 2) is outside S's), and must stay on worker 1.
TEST(Adws, AThiefTakesOnlyTasksOfItsScope) {
  Runtime rt = make(2, Scheduler::adws, true);
  for (int round = 0; round < 3; ++round) {
    std::atomic<int> e1_on{-1}, d2_on{-1};
    std::atomic<bool> c2_runs{false};
    rt.run([&] {
      TaskGroup g(2.0);
      g.spawn(
          [&] {
            while (!c2_runs) std::this_thread::yield();
            TaskGroup s(1.5);
            s.spawn([] {}, 1.0);
            s.spawn([&] { d2_on = tasks::current_worker(); }, 0.5);
            s.wait();
          },
          1.5);
      g.spawn(
          [&] {
            c2_runs = true;
            TaskGroup h;
            h.spawn([&] { e1_on = tasks::current_worker(); });
            h.spawn([] { std::this_thread::sleep_for(std::chrono::milliseconds(50)); });
            h.wait();
          },
          0.5);
      g.wait();
    });
    EXPECT_EQ(d2_on.load(), 1) << "round " << round;
    EXPECT_EQ(e1_on.load(), 1) << "round " << round << ": a task outside the thief's scope was stolen";
  }
}

// With stealing on, a leaf can run elsewhere than its range says only when some worker stole.
TEST(Adws, WithStealingPlacementDiffersOnlyWhereWorkWasStolen) {
  const std::size_t n = 4096, grain = 16;
  Runtime rt = make(4, Scheduler::adws, true, true);
  for (int round = 0; round < 5; ++round) {
    rt.reset_statistics();
    std::vector<int> where(n / grain, -1);
    rt.run([&] {
      tasks::parallel_for(0, n, grain, [&](std::size_t i, std::size_t) {
        where[i / grain] = tasks::current_worker();
        volatile double x = 0;
        for (int k = 0; k < 2000 * static_cast<int>(i % 7); ++k) x = x + 1;  // uneven
      });
    });
    std::uint64_t steals = 0;
    for (const auto& s : rt.statistics().workers) steals += s.steals_in_node + s.steals_across_nodes;
    std::size_t moved = 0;
    for (std::size_t leaf = 0; leaf < where.size(); ++leaf)
      moved += where[leaf] != static_cast<int>(4 * leaf * grain / n);
    if (moved > 0) {
      EXPECT_GT(steals, 0u) << moved << " leaves moved in round " << round;
    }
  }
}

// A child runs before spawn returns where no other worker could start it sooner: on a runtime of one worker, and
// once its maker's deque holds 256 tasks (stealing off, so that the count is exact: the group runs inside a task
// whose range is worker 0's alone).
TEST(Tasks, AChildRunsAtOnceWhereNoOtherWorkerCouldTakeItSooner) {
  for (const Scheduler s : kSchedulers) {
    Runtime rt = make(1, s, true, true);
    int not_yet = 0;
    rt.run([&] {
      TaskGroup g;
      for (int k = 0; k < 100; ++k) {
        bool ran = false;
        g.spawn([&] { ran = true; });
        not_yet += !ran;
      }
      g.wait();
    });
    EXPECT_EQ(not_yet, 0) << tasks::scheduler_name(s);
    EXPECT_EQ(rt.statistics().workers[0].tasks, 101u) << "still counted as tasks";
  }
  Runtime rt = make(2, Scheduler::adws, false);
  std::vector<char> ran(300, 0), at_once(300, 0);
  rt.run([&] {
    tasks::parallel_invoke(
        tasks::with_work(1,
                         [&] {
                           TaskGroup g(static_cast<double>(ran.size()));  // each child 1/300 of worker 0
                           for (std::size_t k = 0; k < ran.size(); ++k) {
                             g.spawn([&, k] { ran[k] = 1; }, 1.0);
                             at_once[k] = ran[k];
                           }
                           g.wait();
                         }),
        tasks::with_work(1, [] {}));
  });
  for (std::size_t k = 0; k < ran.size(); ++k) EXPECT_EQ(at_once[k], k >= 256 ? 1 : 0) << "child " << k;
}

TEST(Tasks, StatisticsCountTasksWorkAndSpan) {
  for (const Scheduler s : kSchedulers) {
    Runtime rt = make(2, s, true, true);
    rt.run([] { return fib(15); });
    const tasks::Statistics st = rt.statistics();
    std::uint64_t ran = 0;
    for (const auto& w : st.workers) ran += w.tasks;
    // fib(15) calls fib 2·F(16) − 1 times: every call but the first is a task, and the root task runs the first.
    EXPECT_EQ(ran, 2u * 987 - 1) << tasks::scheduler_name(s);
    EXPECT_GT(st.work_seconds, 0);
    EXPECT_GT(st.span_seconds, 0);
    EXPECT_LE(st.span_seconds, st.work_seconds * 1.000001);
    rt.reset_statistics();
    EXPECT_EQ(rt.statistics().workers[0].tasks, 0u);
  }
}

TEST(Tasks, OutsideARuntimeTheTasksRunOneAfterAnother) {
  EXPECT_EQ(fib(15), 610u);
  EXPECT_EQ(tasks::current_worker(), -1);
  EXPECT_THROW(nest_that_throws(3), Boom);
}

TEST(Tasks, BadInputIsNamed) {
  expect_input_error([] { (void)tasks::parse_scheduler("fifo"); }, "random, hierarchical, adws");
  expect_input_error([] { tasks::parallel_for(0, 10, 0, [](std::size_t, std::size_t) {}); }, "grain 0");
  expect_input_error([] { tasks::parallel_for(10, 5, 1, [](std::size_t, std::size_t) {}); }, "ends before it begins");
  const std::vector<double> three(3, 1.0);
  const tasks::WorkProfile profile(three);
  expect_input_error(
      [&] {
        tasks::parallel_for(
            0, 4, 1, [](std::size_t, std::size_t) {}, &profile);
      },
      "past its work profile of 3");
  const Mapping one = Mapping::build(live_topology(), Policy(PolicyKind::compact), 1);
  expect_input_error([&] { (void)tasks::adws_node_begins(one, 10, 0); }, "grain 0");
  expect_input_error([&] { (void)tasks::adws_node_begins(one, 4, 1, &profile); }, "past its work profile of 3");
  const std::vector<double> negative = {1.0, -2.0};
  expect_input_error([&] { tasks::WorkProfile p(negative); }, "element 1 has work -2");
  const std::vector<double> nan = {std::nan("")};
  expect_input_error([&] { tasks::WorkProfile p(nan); }, "element 0");
  expect_input_error([] { (void)tasks::parallel_invoke(tasks::with_work(-1, [] {})); }, "work hint -1");
  Runtime rt = make(2, Scheduler::adws);
  expect_input_error(
      [&] {
        rt.run([] {
          TaskGroup g;
          g.spawn([] {}, std::nan(""));
          g.wait();
        });
      },
      "work hint");
  // A group is spawned into by the task that made it: a child spawning into its parent's group is refused.
  expect_input_error(
      [&] {
        rt.run([] {
          TaskGroup g;
          g.spawn([&g] { g.spawn([] {}); });
          g.wait();
        });
      },
      "other than the one that made the group");
  expect_input_error([] { (void)Mapping::build(live_topology(), Policy(PolicyKind::scatter), 0); }, "thread");
}

}  // namespace
