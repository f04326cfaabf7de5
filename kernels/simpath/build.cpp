// simpath/build.cpp — the sequential search and the edge-based pipeline.
#include "simpath/build.hpp"

#include <omp.h>

#include <array>
#include <atomic>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "harness/process_memory.hpp"
#include "simpath/request_queue.hpp"
#include "simpath/state_table.hpp"
#include "ulibc/error.hpp"

namespace ulibc::simpath {

namespace {

constexpr int kMaxStateWords = 256 / 8;
// Child states are looked up in batches, their table slots and then their
// states prefetched first (state_table.hpp says why).
constexpr int kBatch = 16;
static_assert(kBatch <= RequestQueue::kMinBlockRecords);

const Mate* bytes(const std::uint64_t* words) { return reinterpret_cast<const Mate*>(words); }
Mate* bytes(std::uint64_t* words) { return reinterpret_cast<Mate*>(words); }

// Where a node of `state` before step `step` ends up once zero-suppressed:
// while the step's edge cannot be taken, the node is its own lo child. On
// Outcome::node, `step` and `state` are the node's.
Outcome settle(const FrontierPlan& plan, int& step, std::uint64_t* state) {
  for (;;) {
    if (detail::can_take(plan.step(step), bytes(state))) return Outcome::node;
    std::uint64_t next[kMaxStateWords];
    const Outcome o = child(plan.step(step), bytes(state), false, bytes(next));
    if (o != Outcome::node) return o;
    ++step;
    copy_words(next, state, plan.state_words(step));
  }
}

NodeRef terminal(Outcome o) { return o == Outcome::one ? kOne : kZero; }

// Sets node `index` of step i's terminal children and hands each node child
// to `deliver(parent, taken, step, state)`, which returns false to stop.
template <class Deliver>
bool expand(const FrontierPlan& plan, int i, LevelNodes& nodes, std::uint64_t index, const std::uint64_t* state,
            Deliver&& deliver) {
  for (const bool take : {false, true}) {
    std::uint64_t out[kMaxStateWords];
    int step = i + 1;
    Outcome o = child(plan.step(i), bytes(state), take, bytes(out));
    if (o == Outcome::node) o = settle(plan, step, out);
    if (o != Outcome::node) (take ? nodes[index].hi : nodes[index].lo) = terminal(o);
    else if (!deliver(index, take, step, out)) return false;
  }
  return true;
}

// The root, settled: a node, or the terminal the whole diagram is.
struct Root {
  Outcome outcome;
  int step;
  std::uint64_t state[kMaxStateWords];
};
Root settled_root(const FrontierPlan& plan) {
  Root r{Outcome::node, 0, {}};
  r.outcome = settle(plan, r.step, r.state);
  return r;
}

std::uint64_t total_nodes(const std::vector<LevelNodes>& levels) {
  std::uint64_t n = 0;
  for (const LevelNodes& l : levels) n += l.size();
  return n;
}

[[noreturn]] void out_of_memory(const FrontierPlan& plan, int step, const std::vector<LevelNodes>& levels,
                                const MemoryBudget& budget) {
  throw input_error(fmt::format(
      "the search outgrew its memory limit of {} at edge {} of {}, with {} nodes made (frontier up to {} vertices): "
      "allow more with --memory-limit, or try another --order",
      harness::format_bytes(budget.limit()), step + 1, plan.steps(), total_nodes(levels), plan.max_width()));
}

// Step j's node for `state` (of hash h), made if new: the table and the node array grow together.
StateTable::Found add_state(StateTable& table, LevelNodes& nodes, const std::uint64_t* state, std::uint64_t h,
                            MemoryBudget& budget) {
  StateTable::Found f = table.find_or_insert(state, h);
  if (f.index != StateTable::kFull && f.inserted && !nodes.push(budget)) f.index = StateTable::kFull;
  return f;
}

// Request headers: the parent node and branch, and the step the child is for.
std::uint64_t header0(std::uint64_t parent, bool take) { return parent << 1 | static_cast<std::uint64_t>(take); }
std::uint64_t header1(int parent_step, int step) {
  return static_cast<std::uint64_t>(parent_step) << 32 | static_cast<std::uint32_t>(step);
}
int target_step(const std::uint64_t* h) { return static_cast<int>(static_cast<std::uint32_t>(h[1])); }
// The parent's child slot a request fills.
NodeRef& parent_slot(Diagram& d, const std::uint64_t* h) {
  NodeChildren& parent = d.levels[static_cast<int>(h[1] >> 32)][h[0] >> 1];
  return (h[0] & 1) ? parent.hi : parent.lo;
}

// The sequential search: steps in order; a child goes straight into the
// table of its step, made when the step gets its first child.
class SequentialSearch {
 public:
  SequentialSearch(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget)
      : plan_(plan), d_(d), budget_(budget), tables_(static_cast<std::size_t>(plan.steps())) {}

  void run() {
    const Root root = settled_root(plan_);
    if (root.outcome != Outcome::node) {
      d_.root = terminal(root.outcome);
      return;
    }
    StateTable& first = table(root.step, 1);
    if (add_state(first, d_.levels[root.step], root.state, first.hash(root.state), budget_).index ==
        StateTable::kFull)
      out_of_memory(plan_, root.step, d_.levels, budget_);
    d_.root = make_ref(root.step, 0);
    for (int i = root.step; i < plan_.steps(); ++i) {
      if (tables_[i]) step(i);
      tables_[i].reset();
    }
  }

 private:
  // A child waiting for its lookup.
  struct Pending {
    std::uint64_t header[RequestQueue::kHeaderWords];
    std::uint64_t hash;
    std::uint64_t state[kMaxStateWords];
  };

  StateTable& table(int step, std::uint32_t hint) {
    if (!tables_[step]) {
      tables_[step] = std::make_unique<StateTable>(plan_.state_words(step), budget_);
      if (!tables_[step]->reserve(hint)) out_of_memory(plan_, step, d_.levels, budget_);  // sizes change gradually
    }
    return *tables_[step];
  }

  void step(int i) {
    StateTable& here = *tables_[i];
    const auto deliver = [&](std::uint64_t parent, bool take, int step, const std::uint64_t* state) {
      Pending& p = pending_[count_++];
      p.header[0] = header0(parent, take);
      p.header[1] = header1(i, step);
      copy_words(state, p.state, plan_.state_words(step));
      StateTable& target = table(step, here.size());
      p.hash = target.hash(p.state);
      target.prefetch_slot(p.hash);
      d_.max_skip = std::max(d_.max_skip, step - i);
      return true;
    };
    for (std::uint32_t x = 0; x < here.size(); ++x) {
      expand(plan_, i, d_.levels[i], x, here.state(x), deliver);
      if (count_ + 2 > kPending) flush();
    }
    flush();
  }

  void flush() {
    for (int j = 0; j < count_; ++j) tables_[target_step(pending_[j].header)]->prefetch_state(pending_[j].hash);
    for (int j = 0; j < count_; ++j) {
      const Pending& p = pending_[j];
      const int step = target_step(p.header);
      const StateTable::Found f = add_state(*tables_[step], d_.levels[step], p.state, p.hash, budget_);
      if (f.index == StateTable::kFull) out_of_memory(plan_, step, d_.levels, budget_);
      parent_slot(d_, p.header) = make_ref(step, f.index);
    }
    count_ = 0;
  }

  static constexpr int kPending = 2 * kBatch;
  const FrontierPlan& plan_;
  Diagram& d_;
  MemoryBudget& budget_;
  std::vector<std::unique_ptr<StateTable>> tables_;
  std::array<Pending, kPending> pending_;
  int count_ = 0;
};

// Waits a little before polling an empty queue again. Polling flat out kept
// the producer's count line in the consumer's cache, and every publish then
// had to take it back: the pipeline ran no faster than one thread.
void relax() {
#if defined(__x86_64__) || defined(__i386__)
  for (int i = 0; i < 64; ++i) __builtin_ia32_pause();
#endif
}

// The edge-based pipeline on a team of `threads`. Thread t owns steps t,
// t+k, …; step j has one queue from each thread, so a child goes straight to
// its step's owner however many steps below its parent it lies. A thread
// about to take on step i closes its queues to steps up to i: from now on it
// makes children only for steps below i.
void build_edge_based(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget, int threads) {
  const int m = plan.steps();
  const Root root = settled_root(plan);
  if (root.outcome != Outcome::node) {
    d.root = terminal(root.outcome);
    return;
  }
  d.root = make_ref(root.step, 0);
  // queues[j * threads + t]: child states for step j from thread t.
  std::vector<std::unique_ptr<RequestQueue>> queues(static_cast<std::size_t>(m) * threads);
  for (auto& q : queues) q = std::make_unique<RequestQueue>(budget);
  const auto queue = [&](int step, int from) -> RequestQueue& { return *queues[std::size_t(step) * threads + from]; };
  std::atomic<bool> stop{false};
  std::atomic<int> failed_step{m};
  const auto fail = [&](int step) {
    int expected = m;
    failed_step.compare_exchange_strong(expected, step);
    stop.store(true, std::memory_order_relaxed);
  };
  std::vector<int> max_skip(threads, 1);

#pragma omp parallel num_threads(threads)
  {
    const int k = omp_get_num_threads(), tid = omp_get_thread_num();
    int my_max_skip = 1;  // written to max_skip at the end: a shared line written per child would bounce
    int closed_to = -1;  // this thread's queues to steps up to here are closed
    const auto close_up_to = [&](int last) {
      for (int j = closed_to + 1; j <= std::min(last, m - 1); ++j) queue(j, tid).close();
      closed_to = std::max(closed_to, last);
    };
    for (int i = tid; i < m && !stop.load(std::memory_order_relaxed); i += k) {
      close_up_to(i);
      StateTable table(plan.state_words(i), budget);
      // This thread's previous step (i - k) is done: its size is a hint for this one's.
      bool ok = i < k || table.reserve(static_cast<std::uint32_t>(d.levels[i - k].size()));
      LevelNodes& nodes = d.levels[i];
      const auto deliver = [&](std::uint64_t parent, bool take, int step, const std::uint64_t* state) {
        my_max_skip = std::max(my_max_skip, step - i);
        return queue(step, tid).push(header0(parent, take), header1(i, step), state, plan.state_words(step));
      };
      const auto add_and_expand = [&](const std::uint64_t* state, std::uint64_t h, NodeRef* slot) {
        const StateTable::Found f = add_state(table, nodes, state, h, budget);
        if (f.index == StateTable::kFull) return false;
        if (slot) *slot = make_ref(i, f.index);
        return !f.inserted || expand(plan, i, nodes, f.index, state, deliver);
      };
      if (ok && i == root.step) ok = add_and_expand(root.state, table.hash(root.state), nullptr);
      // Take from the k queues in turn, a batch at a time, until all are closed and empty.
      std::vector<char> open(k, 1);
      int open_count = i > 0 ? k : 0, idle = 0;
      for (int from = 0; ok && open_count > 0 && !stop.load(std::memory_order_relaxed); from = (from + 1) % k) {
        if (!open[from]) continue;
        RequestQueue& in = queue(i, from);
        const std::uint64_t* batch[kBatch];
        std::uint64_t hash[kBatch];
        int n = 0;
        bool done = false;
        while (n < kBatch && (batch[n] = in.front(done)) != nullptr) {
          in.pop(RequestQueue::kHeaderWords + plan.state_words(i));
          hash[n] = table.hash(batch[n] + RequestQueue::kHeaderWords);
          table.prefetch_slot(hash[n++]);
        }
        if (done) open[from] = 0, --open_count;
        if (n == 0) {
          if (done) continue;
          if (++idle < 64 * k) {
            relax();
          } else {
            std::this_thread::yield();  // oversubscribed, or a producer far behind
            idle = 0;
          }
          continue;
        }
        idle = 0;
        for (int j = 0; j < n; ++j) table.prefetch_state(hash[j]);
        for (int j = 0; ok && j < n; ++j) {
          ok = add_and_expand(batch[j] + RequestQueue::kHeaderWords, hash[j], &parent_slot(d, batch[j]));
        }
      }
      if (!ok) fail(i);
    }
    close_up_to(m - 1);
    max_skip[tid] = my_max_skip;
  }
  if (stop.load()) out_of_memory(plan, failed_step.load(), d.levels, budget);
  for (int s : max_skip) d.max_skip = std::max(d.max_skip, s);
}

}  // namespace

std::vector<std::uint64_t> Diagram::states() const {
  std::vector<std::uint64_t> n;
  for (const LevelNodes& l : levels) n.push_back(l.size());
  return n;
}

Diagram build_diagram(const FrontierPlan& plan, int threads, MemoryBudget& budget) {
  if (threads < 1) throw input_error(fmt::format("the search needs at least one thread, not {}", threads));
  Diagram d;
  d.levels.resize(static_cast<std::size_t>(plan.steps()));
  if (plan.steps() == 0) return d;  // no edges: no path (the root is the 0-terminal)
  if (threads == 1) SequentialSearch(plan, d, budget).run();
  else build_edge_based(plan, d, budget, threads);
  return d;
}

}  // namespace ulibc::simpath
