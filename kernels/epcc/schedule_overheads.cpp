// epcc/schedule_overheads.cpp — schedbench: the cost of handing out a
// loop's iterations under each schedule.
//
// The reference is one thread's share, iters_per_thread delays, run alone;
// the test is `#pragma omp for` over iters_per_thread × n delays on the
// team, so with perfect scheduling both take the same time. The chunk is a
// run-time expression in the schedule clause: one compiled loop per kind.
#include <omp.h>

#include <string>

#include "epcc/epcc.hpp"
#include "epcc/timed_loop.hpp"

namespace ulibc::epcc {

namespace {

using detail::measure_overhead;
using detail::time_loop;
using detail::TimedLoop;
using detail::Timing;

using Reps = std::int64_t;

// A worksharing loop of `iterations` delays, orphaned so that the team's
// region is opened once per pass. Returns the iterations this thread ran.
using ScheduledLoop = std::int64_t (*)(std::int64_t iterations, std::int64_t len, int chunk);

std::int64_t static_loop(std::int64_t iterations, std::int64_t len, int /*chunk*/) {
  std::int64_t ran = 0;
#pragma omp for schedule(static)
  for (std::int64_t i = 0; i < iterations; ++i) {
    delay(len);
    ++ran;
  }
  return ran;
}

std::int64_t static_chunk_loop(std::int64_t iterations, std::int64_t len, int chunk) {
  std::int64_t ran = 0;
#pragma omp for schedule(static, chunk)
  for (std::int64_t i = 0; i < iterations; ++i) {
    delay(len);
    ++ran;
  }
  return ran;
}

std::int64_t dynamic_loop(std::int64_t iterations, std::int64_t len, int chunk) {
  std::int64_t ran = 0;
#pragma omp for schedule(dynamic, chunk)
  for (std::int64_t i = 0; i < iterations; ++i) {
    delay(len);
    ++ran;
  }
  return ran;
}

std::int64_t guided_loop(std::int64_t iterations, std::int64_t len, int chunk) {
  std::int64_t ran = 0;
#pragma omp for schedule(guided, chunk)
  for (std::int64_t i = 0; i < iterations; ++i) {
    delay(len);
    ++ran;
  }
  return ran;
}

TimedLoop share_reference(std::int64_t per_thread, std::int64_t len) {
  return {.run = [=](Reps reps) {
    for (Reps j = 0; j < reps; ++j)
      for (std::int64_t i = 0; i < per_thread; ++i) delay(len);
    return Reps{0};
  }};
}

TimedLoop scheduled_test(int n, std::int64_t per_thread, std::int64_t len, ScheduledLoop loop, int chunk) {
  const std::int64_t iterations = per_thread * n;
  return {.run =
              [=](Reps reps) {
                std::int64_t ran = 0;
#pragma omp parallel num_threads(n) reduction(+ : ran)
                for (Reps j = 0; j < reps; ++j) ran += loop(iterations, len, chunk);
                return ran;
              },
          .expected = [=](Reps reps) { return reps * iterations; }};
}

}  // namespace

std::vector<Overhead> schedule_overheads(int n, const Schedules& s, const Repetition& rep) {
  const std::int64_t len = s.delay_length;
  const Timing reference = time_loop(share_reference(s.iters_per_thread, len), rep);
  std::vector<Overhead> out;
  auto measure = [&](const std::string& name, ScheduledLoop loop, int chunk) {
    out.push_back(measure_overhead(name, scheduled_test(n, s.iters_per_thread, len, loop, chunk), reference, rep));
  };
  measure("STATIC", static_loop, 0);
  struct Kind {
    const char* name;
    ScheduledLoop loop;
  };
  const Kind kinds[] = {{"STATIC", static_chunk_loop}, {"DYNAMIC", dynamic_loop}, {"GUIDED", guided_loop}};
  for (const Kind& kind : kinds)
    for (int chunk : s.chunks) measure(std::string(kind.name) + " " + std::to_string(chunk), kind.loop, chunk);
  return out;
}

}  // namespace ulibc::epcc
