// harness/stats.hpp — summaries of repeated measurements.
//
// Benchmarks on shared machines are noisy: kernels keep every repetition and
// summarise them the way their reference does (STREAM: best after the first;
// EPCC: mean with a confidence interval); comparisons use medians.
#pragma once
#include <span>
#include <string>
#include <vector>

#include "harness/bench_kernel.hpp"

namespace ulibc::harness {

double mean(std::span<const double> xs);
double median(std::span<const double> xs);
double stddev(std::span<const double> xs);  // sample standard deviation; 0 for fewer than two
// Half-width of the 95% confidence interval of the mean (Student's t); NaN for fewer than two.
double ci95_half_width(std::span<const double> xs);
// The best of xs, skipping the first repetition when there are more (STREAM's
// rule: the first pass pays for page faults and cold caches).
double best_after_first(std::span<const double> xs, Better better);

// How a kernel's reference summarises its repetitions into the reported value.
enum class Summary {
  best_after_first,  // STREAM: the best, the first repetition skipped; no interval
  mean,              // EPCC: the mean with its 95% interval
  median,            // the median, with the interval of the mean beside it
  harmonic_mean,     // Graph500's rates: the harmonic mean, its interval carried through 1/x
};
// A measurement from every repetition (kept in `reps`, in order): the value
// and interval by `summary`. An empty `reps`, or a harmonic mean over a zero
// rate, leaves value 0 and no interval: a run that measured nothing has no rate.
Measurement measurement_of(std::string name, std::string unit, Better better, std::vector<double> reps,
                           Summary summary);

// Whether `a` is better than `b` by the measurement's direction.
bool better_than(double a, double b, Better better);

}  // namespace ulibc::harness
