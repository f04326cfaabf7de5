// capi_test.cpp — the C API, its paper-compatible names, and concurrent reads from an OpenMP team.
#include <gtest/gtest.h>
#include <omp.h>

#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "scoped_env.hpp"
#include "ulibc/compat.h"
#include "ulibc/ulibc.h"

namespace {

using ulibc::testing::FakeMachine;
using ulibc::testing::ScopedEnv;
using ulibc::testing::TempDir;

class CApi : public ::testing::Test {
 protected:
  void SetUp() override {
    // The paper's machine: 4 nodes x 8 cores x 2 SMT.
    ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 4, .cores_per_package = 8, .smt = 2}, dir.path());
    ASSERT_EQ(ulibc_init_with(dir.path().c_str(), "scatter", 8), 0) << ulibc_last_error();
  }
  TempDir dir;
};

TEST_F(CApi, QueriesFollowTheMapping) {
  EXPECT_EQ(ulibc_get_num_threads(), 8);
  EXPECT_EQ(ulibc_get_num_procs(), 64);
  EXPECT_EQ(ulibc_get_num_nodes(), 4);
  EXPECT_EQ(ulibc_get_online_numa_nodes(), 4);
  EXPECT_STREQ(ulibc_get_policy_name(), "scatter");
  const int expected[] = {0, 8, 16, 24, 1, 9, 17, 25};
  for (int t = 0; t < 8; ++t) {
    EXPECT_EQ(ulibc_get_numa_procid(t), expected[t]);
    EXPECT_EQ(ulibc_get_numa_nodeid(t), t % 4);
    EXPECT_EQ(ulibc_get_numa_node_osid(t), t % 4);
    EXPECT_EQ(ulibc_get_numa_packageid(t), t % 4);
    EXPECT_EQ(ulibc_get_numa_coreid(t), t / 4);
    EXPECT_EQ(ulibc_get_numa_smtid(t), 0);
    EXPECT_EQ(ulibc_get_numa_ordcoreid(t), t / 4);
  }
  for (int n = 0; n < 4; ++n) EXPECT_EQ(ulibc_get_numa_online_cores(n), 2);
}

TEST_F(CApi, SettersRebuildTheMapping) {
  ASSERT_EQ(ulibc_set_affinity_policy(ULIBC_COMPACT), 0);
  EXPECT_EQ(ulibc_get_num_threads(), 8);  // thread count kept
  EXPECT_EQ(ulibc_get_online_numa_nodes(), 1);
  EXPECT_EQ(ulibc_get_numa_procid(7), 7);
  ASSERT_EQ(ulibc_set_mapping("list:40,3", 0), 0);
  EXPECT_EQ(ulibc_get_numa_procid(0), 40);
  EXPECT_EQ(ulibc_get_numa_procid(2), 40);
  EXPECT_EQ(ulibc_get_numa_smtid(0), 1);
  ASSERT_EQ(ulibc_set_mapping(nullptr, 16), 0);
  EXPECT_EQ(ulibc_get_num_threads(), 16);
  EXPECT_STREQ(ulibc_get_policy_name(), "list:40,3");
  ASSERT_EQ(ulibc_set_affinity_policy(ULIBC_NONE), 0);
  EXPECT_EQ(ulibc_get_numa_procid(0), -1);
}

TEST_F(CApi, ErrorsAreReportedNotFatal) {
  EXPECT_EQ(ulibc_get_numa_procid(8), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find("thread 8"), std::string::npos) << ulibc_last_error();
  EXPECT_EQ(ulibc_get_numa_nodeid(-1), -1);
  EXPECT_EQ(ulibc_get_numa_online_cores(4), -1);
  EXPECT_EQ(ulibc_set_affinity_policy(42), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find("ULIBC_COMPACT_PLUS"), std::string::npos);
  EXPECT_EQ(ulibc_set_mapping("sideways", 0), -1);
  EXPECT_EQ(ulibc_set_mapping(nullptr, -3), -1);
  EXPECT_EQ(ulibc_init_with("/nonexistent/root", nullptr, 0), -1);
  EXPECT_NE(std::string(ulibc_last_error()).find("/nonexistent/root"), std::string::npos);
  EXPECT_EQ(ulibc_get_num_threads(), 8);  // a failed call leaves the mapping as it was
}

TEST_F(CApi, PaperNamesFromTheCompatibilityHeader) {
  ASSERT_EQ(set_affinity_policy(COMPACT_PLUS), 0);
  EXPECT_EQ(get_online_numa_nodes(), 1);
  EXPECT_EQ(get_numa_online_cores(0), 8);
  EXPECT_EQ(get_numa_procid(5), 5);
  EXPECT_EQ(get_numa_nodeid(5), 0);
  EXPECT_EQ(get_numa_coreid(5), 5);
  EXPECT_EQ(get_numa_smtid(5), 0);
  EXPECT_EQ(get_numa_ordcoreid(5), 5);
}

TEST_F(CApi, EveryOpenMpThreadReadsItsOwnPlacement) {
  ASSERT_EQ(ulibc_set_mapping("compact", 4), 0);
  int mismatches = 0;
#pragma omp parallel num_threads(4) reduction(+ : mismatches)
  {
    const int t = omp_get_thread_num();
    for (int i = 0; i < 1000; ++i) mismatches += get_numa_procid(t) != t || get_numa_ordcoreid(t) != t;
  }
  EXPECT_EQ(mismatches, 0);
}

TEST(CApiEnvironment, LazyInitReadsTheEnvironment) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 2, .cores_per_package = 2}, dir.path());
  ::setenv("ULIBC_FSROOT", dir.path().c_str(), 1);
  ::setenv("ULIBC_POLICY", "compact", 1);
  ::setenv("OMP_NUM_THREADS", "3", 1);
  EXPECT_EQ(ulibc_init(), 0) << ulibc_last_error();
  ::unsetenv("ULIBC_FSROOT");
  ::unsetenv("ULIBC_POLICY");
  ::unsetenv("OMP_NUM_THREADS");
  EXPECT_EQ(ulibc_get_num_threads(), 3);
  EXPECT_STREQ(ulibc_get_policy_name(), "compact");
  EXPECT_EQ(ulibc_get_numa_procid(2), 2);
  EXPECT_EQ(ulibc_get_online_numa_nodes(), 2);
}

// Started by an MPI launcher as one of several processes on the machine, a ULIBC program places its threads
// in its local rank's share (ulibc/rank_share.hpp), as `mpirun ... ulibc run` does for unmodified ones.
TEST(CApiEnvironment, ALaunchersLocalRankTakesItsShare) {
  TempDir dir;
  // 4 nodes of 2 cores; 2 ranks take nodes {0, 1} and {2, 3}.
  ulibc::testing::write_fake_sysfs(FakeMachine{.packages = 4, .cores_per_package = 2}, dir.path());
  {
    ScopedEnv rank("OMPI_COMM_WORLD_LOCAL_RANK", "1"), size("OMPI_COMM_WORLD_LOCAL_SIZE", "2");
    ASSERT_EQ(ulibc_init_with(dir.path().c_str(), "scatter", 0), 0) << ulibc_last_error();
    EXPECT_EQ(ulibc_get_num_threads(), 4);  // every processor of the share, none beyond it
    const int expected[] = {4, 6, 5, 7};    // scatter over the share's nodes 2 and 3
    for (int t = 0; t < 4; ++t) EXPECT_EQ(ulibc_get_numa_procid(t), expected[t]) << t;
    // Policy none binds nothing, so it takes no share.
    ASSERT_EQ(ulibc_init_with(dir.path().c_str(), "none", 0), 0) << ulibc_last_error();
    EXPECT_EQ(ulibc_get_num_threads(), 8);
  }
  ASSERT_EQ(ulibc_init_with(dir.path().c_str(), "scatter", 0), 0);  // without a launcher: the whole machine
  EXPECT_EQ(ulibc_get_num_threads(), 8);
}

}  // namespace

namespace {

struct Marks {
  std::vector<int> seen;
  std::vector<int> worker;
};

void mark(size_t begin, size_t end, void* arg) {
  auto* m = static_cast<Marks*>(arg);
  for (size_t i = begin; i < end; ++i) {
    ++m->seen[i];  // each index belongs to one piece: no two bodies write the same element
    m->worker[i] = ulibc_tasks_current_worker();
  }
}

// The task runtime through C: every index once, on the mapping's workers; refusals through ulibc_last_error.
TEST(CApiTasks, ParallelForCoversTheRangeOnTheMappingsWorkers) {
  ASSERT_EQ(ulibc_init_with("", "compact", 3), 0) << ulibc_last_error();
  for (const char* scheduler : {"random", "hierarchical", "adws"}) {
    ulibc_tasks* t = ulibc_tasks_create(scheduler);
    ASSERT_NE(t, nullptr) << ulibc_last_error();
    Marks m{std::vector<int>(1000, 0), std::vector<int>(1000, -1)};
    ASSERT_EQ(ulibc_tasks_parallel_for(t, 0, 1000, 10, mark, &m), 0) << ulibc_last_error();
    for (size_t i = 0; i < 1000; ++i) {
      ASSERT_EQ(m.seen[i], 1) << scheduler << " index " << i;
      ASSERT_GE(m.worker[i], 0);
      ASSERT_LT(m.worker[i], 3);
    }
    EXPECT_EQ(ulibc_tasks_parallel_for(t, 0, 10, 0, mark, &m), -1);
    EXPECT_NE(std::string(ulibc_last_error()).find("grain 0"), std::string::npos) << ulibc_last_error();
    EXPECT_EQ(ulibc_tasks_parallel_for(t, 0, 10, 1, nullptr, &m), -1);
    ulibc_tasks_destroy(t);
  }
  EXPECT_EQ(ulibc_tasks_create("lifo"), nullptr);
  EXPECT_NE(std::string(ulibc_last_error()).find("random, hierarchical, adws"), std::string::npos);
  EXPECT_EQ(ulibc_tasks_current_worker(), -1);
}

}  // namespace

// The paper's Fig. 6 loop, one lmalloc per node index, on a machine whose second node has processors but no
// memory: the paper's name gives that index the nearest memory and says so; the strict call refuses it.
TEST(CApiPaperLmalloc, GivesAMemorylessNodeTheNearestMemory) {
  TempDir dir;
  ulibc::testing::write_fake_sysfs(
      FakeMachine{.packages = 2, .cores_per_package = 2, .memoryless_nodes = ulibc::CpuSet{1}}, dir.path());
  ASSERT_EQ(ulibc_init_with(dir.path().c_str(), "scatter", 4), 0) << ulibc_last_error();
  ASSERT_EQ(get_online_numa_nodes(), 2);
  constexpr std::size_t kBytes = 1 << 20;
  void* a[2] = {nullptr, nullptr};
  for (int k = 0; k < get_online_numa_nodes(); ++k) a[k] = lmalloc(kBytes, k);
  ASSERT_NE(a[0], nullptr) << ulibc_last_error();
  ASSERT_NE(a[1], nullptr) << ulibc_last_error();
  EXPECT_STREQ(ulibc_lmalloc_note(a[0]), "");
  EXPECT_NE(std::string(ulibc_lmalloc_note(a[1])).find("node 1 has no memory: its part is on node 0"),
            std::string::npos)
      << ulibc_lmalloc_note(a[1]);
  static_cast<char*>(a[1])[0] = 1;  // the fake machine's node 0 is this machine's node 0
  EXPECT_EQ(ulibc_pages_on_node(a[1], 1, 0), 1);
  for (void* p : a) lfree(p);

  EXPECT_EQ(ulibc_lmalloc(kBytes, 1), nullptr);
  EXPECT_NE(std::string(ulibc_last_error()).find("no memory"), std::string::npos) << ulibc_last_error();
  EXPECT_EQ(ulibc_lmalloc_nearest(kBytes, 2), nullptr);  // an index outside the mapping stays an error
  EXPECT_NE(std::string(ulibc_last_error()).find("node index 2"), std::string::npos) << ulibc_last_error();
}
