// stats_test.cpp — the summaries kernels report: each against a value worked out by hand.
#include "harness/stats.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

namespace ulibc::harness {
namespace {

TEST(Stats, MeanMedianAndSampleDeviation) {
  const std::vector<double> xs = {4, 1, 3, 2, 5};
  EXPECT_DOUBLE_EQ(mean(xs), 3);
  EXPECT_DOUBLE_EQ(median(xs), 3);
  EXPECT_DOUBLE_EQ(stddev(xs), std::sqrt(2.5));                  // squares 1+4+0+1+4 over n-1 = 4
  EXPECT_DOUBLE_EQ(median(std::vector<double>{7, 1, 5, 3}), 4);  // even count: the middle pair's mean
}

TEST(Stats, ConfidenceIntervalUsesStudentsT) {
  // n = 5: t(0.975, 4 degrees of freedom) = 2.7764451.
  const std::vector<double> xs = {4, 1, 3, 2, 5};
  EXPECT_NEAR(ci95_half_width(xs), 2.7764451 * std::sqrt(2.5) / std::sqrt(5.0), 1e-6);
  EXPECT_TRUE(std::isnan(ci95_half_width(std::vector<double>{1})));
  EXPECT_DOUBLE_EQ(ci95_half_width(std::vector<double>{2, 2, 2}), 0);
}

TEST(Stats, BestAfterFirstSkipsTheColdRepetition) {
  const std::vector<double> rates = {99, 10, 30, 20};  // the first is the outlier STREAM discards
  EXPECT_DOUBLE_EQ(best_after_first(rates, Better::higher), 30);
  EXPECT_DOUBLE_EQ(best_after_first(rates, Better::lower), 10);
  EXPECT_DOUBLE_EQ(best_after_first(std::vector<double>{7}, Better::higher), 7);  // nothing else to take
}

TEST(Stats, EmptyInputsAreNotNumbers) {
  const std::vector<double> none;
  EXPECT_TRUE(std::isnan(mean(none)));
  EXPECT_TRUE(std::isnan(median(none)));
  EXPECT_TRUE(std::isnan(best_after_first(none, Better::higher)));
  EXPECT_EQ(stddev(none), 0);
}

TEST(Stats, BetterFollowsTheDirection) {
  EXPECT_TRUE(better_than(2, 1, Better::higher));
  EXPECT_FALSE(better_than(2, 1, Better::lower));
  EXPECT_FALSE(better_than(1, 1, Better::higher));
}

TEST(Stats, MeasurementOfKeepsEveryRepetitionAndSummarisesByItsRule) {
  const std::vector<double> xs = {99, 10, 30, 20};
  const Measurement best = measurement_of("Triad", "MB/s", Better::higher, xs, Summary::best_after_first);
  EXPECT_EQ(best.name, "Triad");
  EXPECT_EQ(best.unit, "MB/s");
  EXPECT_EQ(best.reps, xs);
  EXPECT_DOUBLE_EQ(best.value, 30);
  EXPECT_TRUE(std::isnan(best.ci95));

  const Measurement avg = measurement_of("BARRIER", "us", Better::lower, xs, Summary::mean);
  EXPECT_DOUBLE_EQ(avg.value, 39.75);
  EXPECT_DOUBLE_EQ(avg.ci95, ci95_half_width(xs));

  const Measurement mid = measurement_of("time", "s", Better::lower, xs, Summary::median);
  EXPECT_DOUBLE_EQ(mid.value, 25);
  EXPECT_DOUBLE_EQ(mid.ci95, ci95_half_width(xs));
}

TEST(Stats, HarmonicMeanIsTheMeanOfTheReciprocals) {
  // 1 / ((1/1 + 1/2 + 1/4) / 3) = 12/7.
  const Measurement rate = measurement_of("GTEPS", "GTEPS", Better::higher, {1, 2, 4}, Summary::harmonic_mean);
  EXPECT_DOUBLE_EQ(rate.value, 12.0 / 7.0);
  EXPECT_NEAR(rate.ci95, ci95_half_width(std::vector<double>{1, 0.5, 0.25}) * (12.0 / 7) * (12.0 / 7), 1e-12);
  // A search without edges has no rate: nothing is made up for it.
  const Measurement none = measurement_of("GTEPS", "GTEPS", Better::higher, {1, 0}, Summary::harmonic_mean);
  EXPECT_EQ(none.value, 0);
  EXPECT_EQ(none.reps.size(), 2u);
  EXPECT_EQ(measurement_of("t", "s", Better::lower, {}, Summary::median).value, 0);
}

}  // namespace
}  // namespace ulibc::harness
