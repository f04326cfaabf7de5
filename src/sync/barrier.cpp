// sync/barrier.cpp — the hierarchical NUMA barrier.
//
// Memory order: every arrival is an acq_rel read-modify-write on its group's
// counter, so the group's last arriver has acquired the writes of all its
// group; its acq_rel arrival on groups_arrived_ passes them on to the very
// last thread, whose release stores of the episode (one per group) publish
// everything to the waiters' acquire loads. Counters are reset to 0 by the
// thread that finds them full, before the release: no one touches them again
// until then.
#include "ulibc/barrier.hpp"

#include <algorithm>
#include <string>
#include <thread>

#include "ulibc/error.hpp"
#include "ulibc/spin.hpp"

namespace ulibc {

namespace {

// About 100 µs of pause on current x86 cores: long enough to cover a
// partner's late arrival without a system call, short next to a time slice.
constexpr int kSpin = 4096;
// With more threads than processors the thread we wait for may need our
// processor: sleep almost at once.
constexpr int kSpinOversubscribed = 16;

// group_of_thread as given, or Error(input) naming the first bad entry.
const std::vector<int>& checked_groups(const std::vector<int>& group_of_thread) {
  if (group_of_thread.empty()) throw input_error("a barrier needs at least one thread");
  const auto threads = group_of_thread.size();
  std::vector<bool> used(threads, false);
  for (std::size_t t = 0; t < threads; ++t) {
    const int g = group_of_thread[t];
    // Dense groups number at most one per thread, so g < threads.
    if (g < 0 || static_cast<std::size_t>(g) >= threads)
      throw input_error("thread " + std::to_string(t) + " has group " + std::to_string(g) + "; groups must be 0.." +
                        std::to_string(threads - 1) + " for " + std::to_string(threads) + " threads");
    used[g] = true;
  }
  std::size_t count = 0;
  while (count < threads && used[count]) ++count;
  for (std::size_t g = count; g < threads; ++g)
    if (used[g])
      throw input_error("groups are not dense: group " + std::to_string(g) + " is used but group " +
                        std::to_string(count) + " has no thread");
  return group_of_thread;
}

std::vector<int> node_indices(const Mapping& map) {
  std::vector<int> out;
  out.reserve(static_cast<std::size_t>(map.size()));
  for (const Placement& p : map.threads()) out.push_back(p.node_index);
  return out;
}

bool more_threads_than_processors(int threads) {
  return static_cast<unsigned>(threads) > std::thread::hardware_concurrency();
}

}  // namespace

NumaBarrier::NumaBarrier(const Mapping& map) : NumaBarrier(node_indices(map)) {
  if (map.oversubscribed()) spin_limit_ = kSpinOversubscribed;
}

NumaBarrier::NumaBarrier(const std::vector<int>& group_of_thread) : group_of_thread_(checked_groups(group_of_thread)) {
  for (int g : group_of_thread_) group_count_ = std::max(group_count_, g + 1);
  groups_ = std::make_unique<Group[]>(static_cast<std::size_t>(group_count_));
  for (int g : group_of_thread_) ++groups_[g].members;
  spin_limit_ = more_threads_than_processors(size()) ? kSpinOversubscribed : kSpin;
}

void NumaBarrier::arrive_and_wait(int thread) {
  if (static_cast<unsigned>(thread) >= group_of_thread_.size())
    throw input_error("barrier thread " + std::to_string(thread) + " is outside 0.." + std::to_string(size() - 1));
  Group& g = group_of(thread);
  // Relaxed is enough: this thread saw the current episode when it left the
  // previous one (or it is 0), and it cannot advance before we arrive.
  const std::uint32_t episode = g.episode.load(std::memory_order_relaxed);
  if (last_of_group(g) && (group_count_ == 1 || last_of_groups()))
    release(episode);
  else
    wait_for_release(g, episode);
}

NumaBarrier::Group& NumaBarrier::group_of(int thread) { return groups_[group_of_thread_[thread]]; }

bool NumaBarrier::last_of_group(Group& g) {
  if (g.arrived.fetch_add(1, std::memory_order_acq_rel) + 1 != g.members) return false;
  g.arrived.store(0, std::memory_order_relaxed);
  return true;
}

bool NumaBarrier::last_of_groups() {
  if (groups_arrived_.fetch_add(1, std::memory_order_acq_rel) + 1 != group_count_) return false;
  groups_arrived_.store(0, std::memory_order_relaxed);
  return true;
}

// seq_cst on the episode stores and the sleepers loads (and on their mirror
// images in wait_for_release): either the releaser sees a sleeper and wakes
// it, or the sleeper sees the new episode before it sleeps. Every group is
// released before any is woken, so that spinning threads go first.
void NumaBarrier::release(std::uint32_t episode) {
  const auto groups = static_cast<std::size_t>(group_count_);
  for (std::size_t k = 0; k < groups; ++k) groups_[k].episode.store(episode + 1, std::memory_order_seq_cst);
  for (std::size_t k = 0; k < groups; ++k)
    if (groups_[k].sleepers.load(std::memory_order_seq_cst) != 0) groups_[k].episode.notify_all();
}

void NumaBarrier::wait_for_release(Group& g, std::uint32_t episode) const {
  for (int i = 0; i < spin_limit_; ++i) {
    if (g.episode.load(std::memory_order_acquire) != episode) return;
    spin_pause();
  }
  g.sleepers.fetch_add(1, std::memory_order_seq_cst);
  while (g.episode.load(std::memory_order_seq_cst) == episode) g.episode.wait(episode, std::memory_order_acquire);
  g.sleepers.fetch_sub(1, std::memory_order_relaxed);
}

}  // namespace ulibc
