// spawn/spawn.cpp — fib and the linear spawn tree on the task runtime.
#include "spawn/spawn.hpp"

#include <atomic>

#include "ulibc/tasks.hpp"

namespace ulibc::spawn {

std::uint64_t fib(int n) {
  if (n < 2) return static_cast<std::uint64_t>(n);
  std::uint64_t a = 0;
  tasks::TaskGroup g;
  g.spawn([&] { a = fib(n - 1); });
  const std::uint64_t b = fib(n - 2);
  g.wait();
  return a + b;
}

namespace {
std::uint64_t serial_fib(int n) {
  return n < 2 ? static_cast<std::uint64_t>(n) : serial_fib(n - 1) + serial_fib(n - 2);
}
}  // namespace

std::uint64_t fib_cutoff(int n, int cutoff) {
  if (n < cutoff) return serial_fib(n);
  std::uint64_t a = 0;
  tasks::TaskGroup g;
  g.spawn([&] { a = fib_cutoff(n - 1, cutoff); });
  const std::uint64_t b = fib_cutoff(n - 2, cutoff);
  g.wait();
  return a + b;
}

std::uint64_t fib_calls(int n) {
  std::uint64_t previous = 0, current = 1;  // F(0), F(1)
  for (int k = 0; k < n; ++k) {
    const std::uint64_t next = previous + current;
    previous = current;
    current = next;
  }
  return 2 * current - 1;  // current = F(n + 1)
}

std::uint64_t linear(std::uint64_t n) {
  std::atomic<std::uint64_t> count{0};
  tasks::TaskGroup g(static_cast<double>(n));
  for (std::uint64_t k = 0; k < n; ++k) g.spawn([&] { count.fetch_add(1, std::memory_order_relaxed); }, 1.0);
  g.wait();
  return count.load();
}

}  // namespace ulibc::spawn
