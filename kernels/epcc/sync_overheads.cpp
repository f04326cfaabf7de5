// epcc/sync_overheads.cpp — syncbench: the cost of OpenMP's synchronising
// directives, and of ULIBC's NumaBarrier where the BARRIER test has
// `#pragma omp barrier`.
//
// Each test wraps the delay in its directive; its reference is the same
// delay with none, on one thread. The tests that share their inner reps out
// among the team (CRITICAL, LOCK/UNLOCK, ATOMIC) run reps/n per thread, so
// a rep is still one directive executed by someone.
#include <omp.h>

#include "epcc/epcc.hpp"
#include "epcc/timed_loop.hpp"
#include "ulibc/barrier.hpp"

namespace ulibc::epcc {

namespace {

using detail::measure_overhead;
using detail::time_loop;
using detail::TimedLoop;
using detail::Timing;

using Reps = std::int64_t;

// Keeps x in a register the compiler must assume changed: the bare
// increment of the ATOMIC reference then stays one add per rep.
inline void opaque(std::int64_t& x) { asm volatile("" : "+r"(x)); }

class OmpLock {
 public:
  OmpLock() { omp_init_lock(&lock_); }
  ~OmpLock() { omp_destroy_lock(&lock_); }
  OmpLock(const OmpLock&) = delete;
  OmpLock& operator=(const OmpLock&) = delete;
  omp_lock_t* get() { return &lock_; }

 private:
  omp_lock_t lock_;
};

Reps count_reps(Reps reps) { return reps; }

// ---- references

TimedLoop delay_reference(std::int64_t len) {
  return {.run = [=](Reps reps) {
    for (Reps j = 0; j < reps; ++j) delay(len);
    return Reps{0};
  }};
}

TimedLoop increment_reference() {
  return {.run = [](Reps reps) {
    std::int64_t count = 0;
    for (Reps j = 0; j < reps; ++j) {
      count += 1;
      opaque(count);
    }
    return count;
  }};
}

TimedLoop delay_increment_reference(std::int64_t len) {
  return {.run = [=](Reps reps) {
    std::int64_t count = 0;
    for (Reps j = 0; j < reps; ++j) {
      delay(len);
      count += 1;
    }
    return count;
  }};
}

// ---- tests: one directive per inner rep

TimedLoop parallel_test(int n, std::int64_t len) {
  return {.run = [=](Reps reps) {
    for (Reps j = 0; j < reps; ++j) {
#pragma omp parallel num_threads(n)
      delay(len);
    }
    return Reps{0};
  }};
}

// The loop has one iteration per thread; each counts its own and adds them
// once at the end, so the count costs nothing per rep.
TimedLoop for_test(int n, std::int64_t len) {
  return {.run =
              [=](Reps reps) {
                std::int64_t count = 0;
#pragma omp parallel num_threads(n) reduction(+ : count)
                for (Reps j = 0; j < reps; ++j) {
#pragma omp for
                  for (int i = 0; i < n; ++i) {
                    delay(len);
                    ++count;
                  }
                }
                return count;
              },
          .expected = [=](Reps reps) { return reps * n; }};
}

TimedLoop parallel_for_test(int n, std::int64_t len) {
  return {.run = [=](Reps reps) {
    for (Reps j = 0; j < reps; ++j) {
#pragma omp parallel for num_threads(n)
      for (int i = 0; i < n; ++i) delay(len);
    }
    return Reps{0};
  }};
}

TimedLoop barrier_test(int n, std::int64_t len) {
  return {.run = [=](Reps reps) {
#pragma omp parallel num_threads(n)
    for (Reps j = 0; j < reps; ++j) {
      delay(len);
#pragma omp barrier
    }
    return Reps{0};
  }};
}

TimedLoop numa_barrier_test(int n, std::int64_t len, NumaBarrier& barrier) {
  return {.run = [=, &barrier](Reps reps) {
#pragma omp parallel num_threads(n)
    {
      const int t = omp_get_thread_num();
      for (Reps j = 0; j < reps; ++j) {
        delay(len);
        barrier.arrive_and_wait(t);
      }
    }
    return Reps{0};
  }};
}

// The single's closing barrier orders the executions: a plain counter is exact.
TimedLoop single_test(int n, std::int64_t len) {
  return {.run =
              [=](Reps reps) {
                std::int64_t count = 0;
#pragma omp parallel num_threads(n)
                for (Reps j = 0; j < reps; ++j) {
#pragma omp single
                  {
                    delay(len);
                    ++count;
                  }
                }
                return count;
              },
          .expected = count_reps};
}

TimedLoop critical_test(int n, std::int64_t len) {
  return {.run =
              [=](Reps reps) {
                std::int64_t count = 0;
#pragma omp parallel num_threads(n)
                for (Reps j = 0; j < reps / n; ++j) {
#pragma omp critical
                  {
                    delay(len);
                    ++count;
                  }
                }
                return count;
              },
          .expected = count_reps,
          .reps_multiple = n};
}

TimedLoop lock_test(int n, std::int64_t len, OmpLock& lock) {
  return {.run =
              [=, &lock](Reps reps) {
                std::int64_t count = 0;
#pragma omp parallel num_threads(n)
                for (Reps j = 0; j < reps / n; ++j) {
                  omp_set_lock(lock.get());
                  delay(len);
                  ++count;
                  omp_unset_lock(lock.get());
                }
                return count;
              },
          .expected = count_reps,
          .reps_multiple = n};
}

// EPCC updates a double; an integer keeps the count exact, and its atomic
// add is the cheaper instruction, so this is the floor of ATOMIC's cost.
TimedLoop atomic_test(int n) {
  return {.run =
              [=](Reps reps) {
                std::int64_t count = 0;
#pragma omp parallel num_threads(n)
                for (Reps j = 0; j < reps / n; ++j) {
#pragma omp atomic
                  count += 1;
                }
                return count;
              },
          .expected = count_reps,
          .reps_multiple = n};
}

TimedLoop reduction_test(int n, std::int64_t len) {
  return {.run =
              [=](Reps reps) {
                std::int64_t sum = 0;
                for (Reps j = 0; j < reps; ++j) {
#pragma omp parallel num_threads(n) reduction(+ : sum)
                  {
                    delay(len);
                    sum += 1;
                  }
                }
                return sum;
              },
          .expected = [=](Reps reps) { return reps * n; }};
}

}  // namespace

std::vector<Overhead> sync_overheads(const Mapping& map, std::int64_t len, const Repetition& rep) {
  const int n = map.size();
  NumaBarrier barrier(map);
  OmpLock lock;
  const Timing delay_ref = time_loop(delay_reference(len), rep);
  const Timing increment_ref = time_loop(increment_reference(), rep);
  const Timing reduction_ref = time_loop(delay_increment_reference(len), rep);

  std::vector<Overhead> out;
  auto measure = [&](const char* name, const TimedLoop& test, const Timing& ref) {
    out.push_back(measure_overhead(name, test, ref, rep));
  };
  measure("PARALLEL", parallel_test(n, len), delay_ref);
  measure("FOR", for_test(n, len), delay_ref);
  measure("PARALLEL FOR", parallel_for_test(n, len), delay_ref);
  measure("BARRIER", barrier_test(n, len), delay_ref);
  measure("SINGLE", single_test(n, len), delay_ref);
  measure("CRITICAL", critical_test(n, len), delay_ref);
  measure("LOCK/UNLOCK", lock_test(n, len, lock), delay_ref);
  measure("ATOMIC", atomic_test(n), increment_ref);
  measure("REDUCTION", reduction_test(n, len), reduction_ref);
  measure("ULIBC BARRIER", numa_barrier_test(n, len, barrier), delay_ref);
  return out;
}

}  // namespace ulibc::epcc
