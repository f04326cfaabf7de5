// stats_test.cpp — the summaries kernels report: each against a value worked out by hand.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "harness/stats.hpp"

namespace ulibc::harness {
namespace {

TEST(Stats, MeanMedianAndSampleDeviation) {
  const std::vector<double> xs = {4, 1, 3, 2, 5};
  EXPECT_DOUBLE_EQ(mean(xs), 3);
  EXPECT_DOUBLE_EQ(median(xs), 3);
  EXPECT_DOUBLE_EQ(stddev(xs), std::sqrt(2.5));  // squares 1+4+0+1+4 over n-1 = 4
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

}  // namespace
}  // namespace ulibc::harness
