// inspect_check.cpp — ulibc/inspect.hpp on a live multi-node kernel: this program binds one thread to a processor
// of each node and places memory on each node with memory, then inspects itself. Each thread must be reported on
// its processor and node, bound, not moved; each placed buffer's mapping must hold its pages on its node, and the
// per-node sums at least those pages.
#include <gtest/gtest.h>
#include <sched.h>
#include <unistd.h>

#include <atomic>
#include <string>
#include <thread>
#include <vector>

#include "lab.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/inspect.hpp"
#include "ulibc/memory.hpp"

namespace {

using lab::machine;

constexpr std::size_t kInspectBytes = 2u << 20;

// The first usable processor of each node that has one.
std::vector<int> one_processor_per_node() {
  std::vector<int> out;
  std::vector<bool> seen;
  for (int proc : machine().usable()) {
    const auto node = static_cast<std::size_t>(machine().node_of(proc));
    if (seen.size() <= node) seen.resize(node + 1, false);
    if (!seen[node]) out.push_back(proc);
    seen[node] = true;
  }
  return out;
}

// Threads bound to their processors that stay there, having run, until destroyed.
class ParkedThreads {
 public:
  explicit ParkedThreads(const std::vector<int>& procs) : tids_(procs.size(), 0) {
    for (std::size_t i = 0; i < procs.size(); ++i) threads_.emplace_back([this, i, p = procs[i]] { park(i, p); });
    while (ready_.load() < static_cast<int>(procs.size())) sched_yield();
  }
  ~ParkedThreads() {
    stop_.store(true);
    for (auto& t : threads_) t.join();
  }
  int tid(std::size_t i) const { return tids_[i]; }

 private:
  void park(std::size_t i, int proc) {
    ulibc::bind_current_thread(proc);
    while (sched_getcpu() != proc) sched_yield();
    tids_[i] = static_cast<int>(gettid());
    ready_.fetch_add(1);
    while (!stop_.load()) usleep(1000);
  }
  std::vector<int> tids_;
  std::atomic<int> ready_{0};
  std::atomic<bool> stop_{false};
  std::vector<std::thread> threads_;
};

const ulibc::ThreadReport* thread_with(const ulibc::ProcessReport& r, int tid) {
  for (const auto& t : r.threads)
    if (t.tid == tid) return &t;
  return nullptr;
}

// The numa_maps mapping that holds `address`: the last one starting at or below it (the file is sorted).
const ulibc::MemoryMapping* mapping_holding(const ulibc::ProcessReport& r, const void* address) {
  const auto a = reinterpret_cast<std::uintptr_t>(address);
  const ulibc::MemoryMapping* found = nullptr;
  for (const auto& m : r.mappings)
    if (m.address <= a) found = &m;
  return found;
}

std::uint64_t bytes_on(const ulibc::MemoryMapping& m, int node) {
  const auto n = static_cast<std::size_t>(node);
  return n < m.pages.size() ? m.pages[n] * m.page_bytes : 0;
}

TEST(Inspect, ThreadsAndMemoryAreWhereTheyWereSent) {
  const std::vector<int> procs = one_processor_per_node();
  std::vector<std::pair<int, ulibc::NumaBuffer>> buffers;
  for (int node : machine().memory_nodes()) {
    buffers.emplace_back(node, ulibc::allocate_on_node(lab::live(), kInspectBytes, node));
    lab::touch(buffers.back().second.data(), kInspectBytes);
  }
  ParkedThreads parked(procs);
  const ulibc::ProcessReport r = ulibc::inspect_process(lab::live(), static_cast<int>(getpid()));
  EXPECT_TRUE(r.notes.empty()) << r.notes.front();
  for (std::size_t i = 0; i < procs.size(); ++i) {
    const auto* t = thread_with(r, parked.tid(i));
    ASSERT_NE(t, nullptr) << lab::where("processor " + std::to_string(procs[i]));
    SCOPED_TRACE(lab::where("thread " + std::to_string(t->tid) + ": " + t->explanation));
    EXPECT_EQ(t->binding, ulibc::BindingKind::processor);
    EXPECT_EQ(t->bound_to, procs[i]);
    EXPECT_EQ(t->last_processor, procs[i]);
    EXPECT_EQ(t->node, machine().node_of(procs[i]));
    EXPECT_FALSE(t->moved);
    EXPECT_NE(t->verdict, ulibc::Verdict::moved);
  }
  ASSERT_TRUE(r.memory_readable);
  for (const auto& [node, buffer] : buffers) {
    SCOPED_TRACE(lab::where("buffer on node " + std::to_string(node)));
    const auto* m = mapping_holding(r, buffer.data());
    ASSERT_NE(m, nullptr);
    EXPECT_GE(bytes_on(*m, node), kInspectBytes);
    EXPECT_EQ(bytes_on(*m, node), m->resident_bytes()) << "pages of the mapping on other nodes";
    ASSERT_GT(r.node_bytes.size(), static_cast<std::size_t>(node));
    EXPECT_GE(r.node_bytes[static_cast<std::size_t>(node)], kInspectBytes);
  }
}

}  // namespace
