// harness/stats.cpp — summaries of repeated measurements.
#include "harness/stats.hpp"

#include <algorithm>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>
#include <vector>

namespace ulibc::harness {

namespace {
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
}

double mean(std::span<const double> xs) {
  if (xs.empty()) return kNaN;
  return std::accumulate(xs.begin(), xs.end(), 0.0) / static_cast<double>(xs.size());
}

double median(std::span<const double> xs) {
  if (xs.empty()) return kNaN;
  std::vector<double> v(xs.begin(), xs.end());
  const std::size_t mid = v.size() / 2;
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid), v.end());
  if (v.size() % 2 == 1) return v[mid];
  const double upper = v[mid];
  return (*std::max_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(mid)) + upper) / 2;
}

double stddev(std::span<const double> xs) {
  if (xs.size() < 2) return 0;
  const double m = mean(xs);
  double sum = 0;
  for (double x : xs) sum += (x - m) * (x - m);
  return std::sqrt(sum / static_cast<double>(xs.size() - 1));
}

double ci95_half_width(std::span<const double> xs) {
  if (xs.size() < 2) return kNaN;
  const boost::math::students_t t(static_cast<double>(xs.size() - 1));
  return boost::math::quantile(boost::math::complement(t, 0.025)) * stddev(xs) /
         std::sqrt(static_cast<double>(xs.size()));
}

double best_after_first(std::span<const double> xs, Better better) {
  if (xs.empty()) return kNaN;
  const auto counted = xs.size() > 1 ? xs.subspan(1) : xs;
  return better == Better::higher ? *std::max_element(counted.begin(), counted.end())
                                  : *std::min_element(counted.begin(), counted.end());
}

namespace {
// 1 / mean(1/x) and the interval of the mean of the reciprocals carried
// through 1/x; left unset when a rate is zero.
void set_harmonic_mean(Measurement& m) {
  std::vector<double> reciprocals;
  for (double x : m.reps) {
    if (!(x > 0)) return;
    reciprocals.push_back(1 / x);
  }
  // Summed smallest first, as Graph500's reference does, so that the figure is the one its output prints.
  std::sort(reciprocals.begin(), reciprocals.end());
  m.value = 1 / mean(reciprocals);
  m.ci95 = ci95_half_width(reciprocals) * m.value * m.value;
}
}  // namespace

Measurement measurement_of(std::string name, std::string unit, Better better, std::vector<double> reps,
                           Summary summary) {
  Measurement m{.name = std::move(name), .unit = std::move(unit), .better = better, .reps = std::move(reps)};
  if (m.reps.empty()) return m;
  switch (summary) {
    case Summary::best_after_first:
      m.value = best_after_first(m.reps, better);
      break;
    case Summary::mean:
      m.value = mean(m.reps);
      m.ci95 = ci95_half_width(m.reps);
      break;
    case Summary::median:
      m.value = median(m.reps);
      m.ci95 = ci95_half_width(m.reps);
      break;
    case Summary::harmonic_mean:
      set_harmonic_mean(m);
      break;
  }
  return m;
}

bool better_than(double a, double b, Better better) { return better == Better::higher ? a > b : a < b; }

}  // namespace ulibc::harness
