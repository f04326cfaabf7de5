// spawn/spawn.hpp — what a task costs in the task runtime (ulibc/tasks.hpp), measured the way the Cilk papers and
// forkbench measure it: fib with a task for every call, fib with a serial cutoff, and a linear spawn tree (one
// group of n children that each do almost nothing).
//
// Run inside a tasks::Runtime (Runtime::run); outside one the tasks run one after the other.
#pragma once
#include <cstdint>

namespace ulibc::spawn {

// fib(n) with a task group per call above 1: one child spawned, the other call made by the parent, then the join
// (Cilk's fib, as oneTBB's task_group is benchmarked).
std::uint64_t fib(int n);
// The same with calls below `cutoff` made serially: the runtime's cost against useful work.
std::uint64_t fib_cutoff(int n, int cutoff);
// The calls fib(n) makes, 2·F(n+1) − 1: every call but the first is a task.
std::uint64_t fib_calls(int n);

// One group spawning n children that each add 1 to a counter; returns the counter. With work hints of 1 each,
// ADWS deals the children out in n/W blocks, one per worker.
std::uint64_t linear(std::uint64_t n);

}  // namespace ulibc::spawn
