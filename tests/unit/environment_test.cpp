// tests/unit/environment_test.cpp — what an empty value of each variable means (config/environment.hpp),
// and the environment that places an unmodified OpenMP program (ulibc::openmp_environment).
#include "config/environment.hpp"

#include <gtest/gtest.h>

#include "fake_sysfs.hpp"
#include "scoped_env.hpp"
#include "ulibc.hpp"

namespace {

using ulibc::Mapping;
using ulibc::Policy;
using ulibc::testing::FakeMachine;
using ulibc::testing::ScopedEnv;
namespace config = ulibc::config;

TEST(Environment, EmptyMeansUnsetForRootPolicyAndThreads) {
  ScopedEnv root("ULIBC_FSROOT", ""), policy("ULIBC_POLICY", ""), n("ULIBC_NUM_THREADS", ""),
      omp("OMP_NUM_THREADS", "");
  EXPECT_EQ(config::fsroot(), std::nullopt);
  EXPECT_EQ(config::policy(), std::nullopt);
  EXPECT_EQ(config::thread_count(), std::nullopt);
}

TEST(Environment, AnEmptyUlibcThreadCountFallsBackToOpenMPs) {
  ScopedEnv n("ULIBC_NUM_THREADS", ""), omp("OMP_NUM_THREADS", "5");
  EXPECT_EQ(config::thread_count(), 5);
}

TEST(Environment, OutsideBindingRuleIsRespectUnlessOverride) {
  {
    ScopedEnv rule("ULIBC_OUTSIDE_BINDING", std::nullopt);
    EXPECT_FALSE(config::override_outside_binding());
  }
  {
    ScopedEnv rule("ULIBC_OUTSIDE_BINDING", "override");
    EXPECT_TRUE(config::override_outside_binding());
  }
  ScopedEnv rule("ULIBC_OUTSIDE_BINDING", "");
  EXPECT_THROW(config::override_outside_binding(), ulibc::Error);
}

TEST(Environment, OpenMPBindingSettingsSkipEmptyValues) {
  ScopedEnv places("OMP_PLACES", ""), bind("OMP_PROC_BIND", "spread"), gomp("GOMP_CPU_AFFINITY", std::nullopt),
      kmp("KMP_AFFINITY", "disabled");
  EXPECT_EQ(config::openmp_binding_settings(), std::vector<std::string>{"OMP_PROC_BIND=spread"});
}

using Set = std::vector<std::pair<std::string, std::string>>;

TEST(OpenMPEnvironment, PlacesOneThreadPerPlaceInThreadOrder) {
  const auto topo = ulibc::testing::load_fake(FakeMachine{.packages = 2, .cores_per_package = 2});
  const auto env = ulibc::openmp_environment(Mapping::build(topo, Policy::parse("list:3,0,2"), 3));
  EXPECT_EQ(env.set, (Set{{"OMP_NUM_THREADS", "3"},
                          {"OMP_PLACES", "{3},{0},{2}"},
                          {"OMP_PROC_BIND", "close"},
                          {"ULIBC_POLICY", "list:3,0,2"},
                          {"ULIBC_NUM_THREADS", "3"}}));
  EXPECT_EQ(env.unset, (std::vector<std::string>{"GOMP_CPU_AFFINITY", "KMP_AFFINITY"}));
}

TEST(OpenMPEnvironment, PolicyNoneSwitchesBindingOff) {
  const auto topo = ulibc::testing::load_fake(FakeMachine{.cores_per_package = 2});
  const auto env = ulibc::openmp_environment(Mapping::build(topo, Policy::parse("none"), 2));
  EXPECT_EQ(
      env.set,
      (Set{
          {"OMP_NUM_THREADS", "2"}, {"OMP_PROC_BIND", "false"}, {"ULIBC_POLICY", "none"}, {"ULIBC_NUM_THREADS", "2"}}));
  EXPECT_EQ(env.unset, (std::vector<std::string>{"OMP_PLACES", "GOMP_CPU_AFFINITY", "KMP_AFFINITY"}));
}

}  // namespace
