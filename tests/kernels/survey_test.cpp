// survey_test.cpp — what `ulibc bench mpi` resolves from its options and records, without an MPI job: the tests a
// job of one or more ranks can run, each option's bad words refused naming the option, the record's members.
#include "mpi_costs/survey.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "expect_error.hpp"

namespace ulibc::mpi {
namespace {

using nlohmann::ordered_json;
using testing::expect_input_error;

TEST(Survey, OneRankMeasuresTheCollectivesAndSaysWhyNotTheTransfers) {
  const Survey s = resolve_survey({}, 1);
  EXPECT_EQ(s.tests, (std::vector<Micro>{Micro::allgather, Micro::allreduce, Micro::bcast}));
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("p2p and overlap need two ranks"), std::string::npos) << s.notes[0];
  EXPECT_EQ(s.plan.sizes, default_sizes(false));
  EXPECT_EQ(s.plan.reps, MicroPlan{}.reps);
  EXPECT_FALSE(s.pin);
}

TEST(Survey, TwoRanksMeasureEverythingAndKeepTheOrderAsked) {
  EXPECT_EQ(resolve_survey({}, 2).tests, std::vector<Micro>(kMicros.begin(), kMicros.end()));
  EXPECT_TRUE(resolve_survey({}, 2).notes.empty());
  const Survey s = resolve_survey({.tests = {"bcast", "p2p", "bcast"}, .sizes = {"4Ki", "8", "4Ki"}}, 3);
  EXPECT_EQ(s.tests, (std::vector<Micro>{Micro::bcast, Micro::p2p}));
  EXPECT_TRUE(s.has(Micro::p2p));
  EXPECT_FALSE(s.has(Micro::overlap));
  EXPECT_EQ(s.plan.sizes, (std::vector<std::size_t>{8, 4096}));
}

TEST(Survey, QuickIsFewShortRepetitionsAtFewSizes) {
  const Survey s = resolve_survey({.quick = true}, 2);
  EXPECT_EQ(s.plan.sizes, default_sizes(true));
  EXPECT_LT(s.plan.reps, MicroPlan{}.reps);
  EXPECT_LT(s.plan.batch_seconds, MicroPlan{}.batch_seconds);
  EXPECT_EQ(resolve_survey({.reps = 7, .quick = true}, 2).plan.reps, 7);
}

TEST(Survey, PinNamesTheProcessorsOfRanksZeroAndOne) {
  EXPECT_EQ(resolve_survey({.pin = "3,0"}, 2).pin, std::make_pair(3, 0));
  for (const char* bad : {"3", "3,", ",1", "a,1", "1,2,3", "-1,2", "1,2 "})
    expect_input_error([&] { resolve_survey({.pin = bad}, 2); }, "--pin \"" + std::string(bad) + "\"");
  expect_input_error([] { resolve_survey({.pin = "0,1"}, 1); }, "this job has one rank");
}

TEST(Survey, BadWordsNameTheirOption) {
  expect_input_error([] { resolve_survey({.tests = {"latency"}}, 2); }, "--tests");
  expect_input_error([] { resolve_survey({.tests = {"overlap"}}, 1); }, "--tests overlap");
  expect_input_error([] { resolve_survey({.sizes = {"4x"}}, 2); }, "--sizes \"4x\"");
  expect_input_error([] { resolve_survey({.sizes = {"12"}}, 2); }, "--sizes 12");
  expect_input_error([] { resolve_survey({.sizes = {"2Gi"}}, 2); }, "--sizes 2Gi");
  expect_input_error([] { resolve_survey({.reps = 0}, 2); }, "--reps 0");
  expect_input_error([] { resolve_survey({.reps = 1001}, 2); }, "--reps 1001");
}

TEST(Survey, AProfileNeedsEveryFigureItHolds) {
  expect_input_error(
      [] {
        resolve_survey({.tests = {"p2p", "allgather", "bcast"}, .profile = true}, 2);
      },
      "leaves out allreduce");
  // One rank cannot run p2p: the profile does without it.
  EXPECT_NO_THROW(resolve_survey({.tests = {"allgather", "bcast", "allreduce"}, .profile = true}, 1));
}

Point point_at(std::size_t bytes, double value) {
  return {.bytes = bytes, .operations = 4, .figure = {.name = "t", .unit = "s", .value = value, .reps = {value}}};
}

TEST(SurveyRecord, HoldsThePlanAndOnlyTheTestsMeasured) {
  const Survey s = resolve_survey({.tests = {"allreduce"}, .sizes = {"8", "64"}, .reps = 3}, 2);
  const ordered_json plan = plan_json(s);
  EXPECT_EQ(plan["tests"], ordered_json::array({"allreduce"}));
  EXPECT_EQ(plan["sizes"], ordered_json::array({8, 64}));
  EXPECT_EQ(plan["reps"], 3);
  SurveyResults r;
  r.allreduce = {point_at(8, 1e-6), point_at(64, 2e-6)};
  const ordered_json j = results_json(s, r);
  EXPECT_EQ(j.size(), 1u) << j.dump();
  ASSERT_EQ(j["allreduce"].size(), 2u);
  EXPECT_EQ(j["allreduce"][1]["bytes"], 64);
  EXPECT_EQ(j["allreduce"][1]["median"], 2e-6);
  EXPECT_EQ(j["allreduce"][1]["reps"], ordered_json::array({2e-6}));
}

ordered_json rank_row(const std::string& host, int proc) { return {{"host", host}, {"thread_processors", {proc}}}; }

TEST(SurveyRecord, PairSaysWhereRanksZeroAndOneRan) {
  const Topology live = Topology::load("/", Detail::full);
  const int p = live.usable().first();
  EXPECT_TRUE(pair_json(ordered_json::array({rank_row("a", p)}), live, "policy scatter").is_null());
  const ordered_json apart = pair_json(ordered_json::array({rank_row("a", p), rank_row("b", p)}), live, "--pin");
  EXPECT_EQ(apart["pinned_by"], "--pin");
  EXPECT_NE(apart["describe"].get<std::string>().find("two machines"), std::string::npos) << apart.dump();
  const ordered_json loose = pair_json(ordered_json::array({rank_row("a", -1), rank_row("a", p)}), live, "policy none");
  EXPECT_NE(loose["describe"].get<std::string>().find("not pinned"), std::string::npos) << loose.dump();
  const ordered_json same = pair_json(ordered_json::array({rank_row("a", p), rank_row("a", p)}), live, "--pin");
  EXPECT_EQ(same["shared"]["processor"], true) << same.dump();
  EXPECT_EQ(same["describe"], sharing(live, p, p).describe());
}

}  // namespace
}  // namespace ulibc::mpi
