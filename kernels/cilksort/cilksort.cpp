// cilksort/cilksort.cpp — Cilksort (algorithm.hpp) on ULIBC's task runtime, and its input.
#include "cilksort/cilksort.hpp"

#include <algorithm>
#include <string>
#include <utility>

#include "cilksort/algorithm.hpp"
#include "random/random_stream.hpp"
#include "ulibc/error.hpp"
#include "ulibc/tasks.hpp"

namespace ulibc::cilksort {

namespace {

// Both halves of a fork as children of one group, each with its share of the range: the caller only waits, so
// that under ADWS neither half runs on the caller's worker just because the caller is there.
struct TaskFork {
  template <class F, class G>
  void both(F&& f, double wf, G&& g, double wg) const {
    tasks::TaskGroup group(wf + wg);
    group.spawn(std::forward<F>(f), wf);
    group.spawn(std::forward<G>(g), wg);
    group.wait();
  }
};

}  // namespace

void sort(std::span<std::uint64_t> keys, std::span<std::uint64_t> buffer, Cutoffs cutoffs) {
  if (buffer.size() != keys.size())
    throw input_error("cilksort: a buffer of " + std::to_string(buffer.size()) + " keys for " +
                      std::to_string(keys.size()) + " (it must be as long)");
  if (cutoffs.sort < 4 || cutoffs.merge < 4) throw input_error("cilksort: cutoffs below 4 keys");
  detail::sort(TaskFork{}, keys, buffer, cutoffs.sort, cutoffs.merge);
}

void fill_random(std::span<std::uint64_t> keys, std::uint64_t seed) {
  tasks::parallel_for(0, keys.size(), 1 << 16, [&](std::size_t i, std::size_t j) {
    for (std::size_t k = i; k < j; ++k)
      keys[k] = rng::mix64(seed + k + rng::kGolden);  // splitmix64 at position seed + k
  });
}

}  // namespace ulibc::cilksort
