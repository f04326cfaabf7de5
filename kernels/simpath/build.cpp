// simpath/build.cpp — the sequential search and the edge-based pipeline.
#include "simpath/build.hpp"

#include <omp.h>

#include <array>
#include <atomic>
#include <memory>
#include <thread>

#include <fmt/format.h>

#include "simpath/request_queue.hpp"
#include "simpath/state_table.hpp"
#include "ulibc/error.hpp"
#include "ulibc/memory.hpp"

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
    std::uint64_t next[kMaxStateWords];
    if (child(plan.step(step), bytes(state), true, bytes(next)) != Outcome::zero) return Outcome::node;
    const Outcome o = child(plan.step(step), bytes(state), false, bytes(next));
    if (o != Outcome::node) return o;
    ++step;
    std::memcpy(state, next, static_cast<std::size_t>(plan.state_words(step)) * 8);
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
      format_bytes(budget.limit()), step + 1, plan.steps(), total_nodes(levels), plan.max_width()));
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

// The sequential search, numbering nodes exactly as the pipeline does: a
// child for a step beyond the next is not inserted at once but passes
// through each step in between, at the point where that step's owner would
// meet it in its queue (after the requests that made the step's earlier nodes).
class SequentialSearch {
 public:
  SequentialSearch(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget)
      : plan_(plan), d_(d), budget_(budget), passing_(static_cast<std::size_t>(plan.steps()) + 1) {}

  void run() {
    const Root root = settled_root(plan_);
    if (root.outcome != Outcome::node) {
      d_.root = terminal(root.outcome);
      return;
    }
    table_ = std::make_unique<StateTable>(plan_.state_words(root.step), budget_);
    if (add_state(*table_, d_.levels[root.step], root.state, table_->hash(root.state), budget_).index ==
        StateTable::kFull)
      out_of_memory(plan_, root.step, d_.levels, budget_);
    d_.root = make_ref(root.step, 0);
    for (i_ = root.step; i_ < plan_.steps(); ++i_) step();
  }

 private:
  // A child waiting for its lookup in the next step, or to be passed on.
  struct Pending {
    std::uint64_t header[RequestQueue::kHeaderWords];
    std::uint64_t hash;
    std::uint64_t state[kMaxStateWords];
  };
  static constexpr int kPasses = 3;  // words of a passing record before its state: position, header

  void step() {
    next_ = std::make_unique<StateTable>(plan_.state_words(i_ + 1), budget_);
    if (!next_->reserve(table_->size())) out_of_memory(plan_, i_ + 1, d_.levels, budget_);  // sizes change gradually
    const std::vector<std::uint64_t>& passing = passing_[i_];
    std::size_t at = 0;  // the next passing record
    const auto pass_on_until = [&](std::uint64_t position) {
      while (at < passing.size() && passing[at] <= position) {
        const std::uint64_t* r = passing.data() + at;
        add(r + 1, r + kPasses);
        at += kPasses + plan_.state_words(target_step(r + 1));
      }
    };
    LevelNodes& nodes = d_.levels[i_];
    const auto deliver = [&](std::uint64_t parent, bool take, int step, const std::uint64_t* state) {
      const std::uint64_t header[RequestQueue::kHeaderWords] = {header0(parent, take), header1(i_, step)};
      d_.max_skip = std::max(d_.max_skip, step - i_);
      add(header, state);
      return true;
    };
    for (std::uint32_t x = 0; x < table_->size(); ++x) {
      pass_on_until(x);
      expand(plan_, i_, nodes, x, table_->state(x), deliver);
    }
    pass_on_until(UINT64_MAX);
    flush();
    std::vector<std::uint64_t>().swap(passing_[i_]);
    table_ = std::move(next_);
  }

  void add(const std::uint64_t* header, const std::uint64_t* state) {
    Pending& p = pending_[count_++];
    std::copy(header, header + RequestQueue::kHeaderWords, p.header);
    const int step = target_step(header);
    std::memcpy(p.state, state, static_cast<std::size_t>(plan_.state_words(step)) * 8);
    if (step == i_ + 1) {
      p.hash = next_->hash(p.state);
      next_->prefetch_slot(p.hash);
    }
    if (count_ == kPending) flush();
  }

  void flush() {
    for (int j = 0; j < count_; ++j)
      if (target_step(pending_[j].header) == i_ + 1) next_->prefetch_state(pending_[j].hash);
    for (int j = 0; j < count_; ++j) {
      const Pending& p = pending_[j];
      const int step = target_step(p.header);
      if (step != i_ + 1) {
        // Meets step i+1's owner after the requests that made its nodes so far.
        std::vector<std::uint64_t>& passing = passing_[i_ + 1];
        passing.push_back(next_->size());
        passing.insert(passing.end(), p.header, p.header + RequestQueue::kHeaderWords);
        passing.insert(passing.end(), p.state, p.state + plan_.state_words(step));
        continue;
      }
      const StateTable::Found f = add_state(*next_, d_.levels[i_ + 1], p.state, p.hash, budget_);
      if (f.index == StateTable::kFull) out_of_memory(plan_, i_ + 1, d_.levels, budget_);
      parent_slot(d_, p.header) = make_ref(i_ + 1, f.index);
    }
    count_ = 0;
  }

  static constexpr int kPending = 4 * kBatch;
  const FrontierPlan& plan_;
  Diagram& d_;
  MemoryBudget& budget_;
  std::vector<std::vector<std::uint64_t>> passing_;  // per step: position, header, state of each passing record
  std::unique_ptr<StateTable> table_, next_;
  int i_ = 0;
  std::array<Pending, kPending> pending_;
  int count_ = 0;
};

void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

// The edge-based pipeline on a team of `threads`.
void build_edge_based(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget, int threads) {
  const int m = plan.steps();
  const Root root = settled_root(plan);
  if (root.outcome != Outcome::node) {
    d.root = terminal(root.outcome);
    return;
  }
  d.root = make_ref(root.step, 0);
  std::vector<std::unique_ptr<RequestQueue>> queues(m + 1);  // queues[i]: child states for step i and beyond
  for (int i = 1; i < m; ++i) queues[i] = std::make_unique<RequestQueue>(budget);
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
    for (int i = tid; i < m && !stop.load(std::memory_order_relaxed); i += k) {
      StateTable table(plan.state_words(i), budget);
      // This thread's previous step (i - k) is done: its size is a hint for this one's.
      bool ok = i < k || table.reserve(static_cast<std::uint32_t>(d.levels[i - k].size()));
      LevelNodes& nodes = d.levels[i];
      RequestQueue* out = queues[i + 1].get();  // null after the last step: its children are terminals
      const auto deliver = [&](std::uint64_t parent, bool take, int step, const std::uint64_t* state) {
        max_skip[tid] = std::max(max_skip[tid], step - i);
        return out->push(header0(parent, take), header1(i, step), state, plan.state_words(step));
      };
      const auto add_and_expand = [&](const std::uint64_t* state, std::uint64_t h, NodeRef* slot) {
        const StateTable::Found f = add_state(table, nodes, state, h, budget);
        if (f.index == StateTable::kFull) return false;
        if (slot) *slot = make_ref(i, f.index);
        return !f.inserted || expand(plan, i, nodes, f.index, state, deliver);
      };
      if (ok && i == root.step) ok = add_and_expand(root.state, table.hash(root.state), nullptr);
      if (ok && i > 0) {
        int idle = 0;
        for (bool done = false; ok && !done && !stop.load(std::memory_order_relaxed);) {
          // A batch in queue order; requests for later steps are passed on in
          // their place, so that every queue keeps the sequential search's order.
          const std::uint64_t* batch[kBatch];
          std::uint64_t hash[kBatch];
          int n = 0;
          while (n < kBatch && (batch[n] = queues[i]->front(done)) != nullptr) {
            const std::uint64_t* r = batch[n++];
            queues[i]->pop(RequestQueue::kHeaderWords + plan.state_words(target_step(r)));
          }
          if (n == 0 && !done) {
            if (++idle < 256) relax();
            else std::this_thread::yield();
            continue;
          }
          idle = 0;
          for (int j = 0; j < n; ++j)
            if (target_step(batch[j]) == i) {
              hash[j] = table.hash(batch[j] + RequestQueue::kHeaderWords);
              table.prefetch_slot(hash[j]);
            }
          for (int j = 0; j < n; ++j)
            if (target_step(batch[j]) == i) table.prefetch_state(hash[j]);
          for (int j = 0; ok && j < n; ++j) {
            const std::uint64_t* r = batch[j];
            const int step = target_step(r);
            if (step != i) ok = out->push(r[0], r[1], r + RequestQueue::kHeaderWords, plan.state_words(step));
            else ok = add_and_expand(r + RequestQueue::kHeaderWords, hash[j], &parent_slot(d, r));
          }
        }
        if (ok && !stop.load()) queues[i].reset();  // drained and closed: nobody touches it again
      }
      if (!ok) fail(i);
      if (out) out->close();
    }
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
