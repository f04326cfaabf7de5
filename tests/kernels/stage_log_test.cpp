// stage_log_test.cpp — the one log of where a run's time went: nesting as the stages ran, counts, sums, output.
#include "harness/stage_log.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>
#include <vector>

#include "expect_error.hpp"

namespace {

using ulibc::harness::StageLog;
using ulibc::testing::contains;

TEST(StageLog, StagesNestAsTheyRanAndOneNameInOneParentIsOneEntry) {
  StageLog log("solve");
  for (int i = 0; i < 3; ++i) {
    StageLog::Timed outer(log, "correction");
    StageLog::Timed inner(log, "spmv");
  }
  { StageLog::Timed t(log, "spmv"); }
  log.finish();
  EXPECT_EQ(log.count("correction"), 3);
  EXPECT_EQ(log.count("correction/spmv"), 3);
  EXPECT_EQ(log.count("spmv"), 1);
  EXPECT_EQ(log.count("spmv/correction"), 0);
  EXPECT_EQ(log.count("orth"), 0);
  EXPECT_GE(log.seconds("correction"), log.seconds("correction/spmv"));
  EXPECT_GE(log.seconds(), log.seconds("correction") + log.seconds("spmv"));
  EXPECT_EQ(log.total("spmv"), log.seconds("spmv") + log.seconds("correction/spmv"));
}

TEST(StageLog, AddedTimesGoInsideTheOpenStage) {
  StageLog log;
  log.add("comm", 0.25);
  {
    StageLog::Timed t(log, "spmv");
    log.add("comm", 0.5);
    log.add("comm", 1.0);
  }
  EXPECT_EQ(log.seconds("comm"), 0.25);
  EXPECT_EQ(log.count("comm"), 1);
  EXPECT_EQ(log.seconds("spmv/comm"), 1.5);
  EXPECT_EQ(log.count("spmv/comm"), 2);
  EXPECT_EQ(log.total("comm"), 1.75);
}

TEST(StageLog, UnaccountedIsWhatNoInnerStageHolds) {
  StageLog log;
  log.add("a", 1.0);
  log.add("b", 2.0);
  std::vector<double> seconds = log.all_seconds();
  ASSERT_EQ(seconds.size(), 3u);  // the run, a, b
  seconds[0] = 10;
  log.set_all_seconds(seconds);
  EXPECT_EQ(log.seconds(), 10);
  EXPECT_EQ(log.unaccounted(), 7);
  EXPECT_EQ(log.unaccounted("a"), 1);
  EXPECT_EQ(log.unaccounted("none"), 0);
  EXPECT_THROW(log.set_all_seconds(std::vector<double>{1, 2}), std::invalid_argument);
}

TEST(StageLog, TableAndJsonShowEveryStageInsideItsParent) {
  StageLog log("solve");
  log.add("spmv", 1.0);
  {
    StageLog::Timed t(log, "precond");
    log.add("spmv", 0.5);
  }
  std::vector<double> seconds = log.all_seconds();
  seconds[0] = 4;
  log.set_all_seconds(seconds);

  const std::string table = log.table();
  EXPECT_TRUE(contains(table, "\nsolve ")) << table;
  EXPECT_TRUE(contains(table, "\n  spmv ")) << table;
  EXPECT_TRUE(contains(table, "\n  precond ")) << table;
  EXPECT_TRUE(contains(table, "\n    spmv ")) << table;
  EXPECT_TRUE(contains(table, "25.0%")) << table;  // the top-level spmv: 1 s of 4

  const auto j = log.json();
  EXPECT_EQ(j["name"], "solve");
  EXPECT_EQ(j["seconds"], 4.0);
  ASSERT_EQ(j["stages"].size(), 2u);
  EXPECT_EQ(j["stages"][0]["name"], "spmv");
  EXPECT_FALSE(j["stages"][0].contains("stages"));
  EXPECT_EQ(j["stages"][1]["name"], "precond");
  EXPECT_EQ(j["stages"][1]["stages"][0]["name"], "spmv");
  EXPECT_EQ(j["stages"][1]["stages"][0]["seconds"], 0.5);
}

}  // namespace
