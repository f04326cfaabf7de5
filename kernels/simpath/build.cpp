// simpath/build.cpp — the sequential search and the edge-based pipeline.
#include "simpath/build.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <array>
#include <atomic>
#include <memory>
#include <thread>

#include "simpath/request_queue.hpp"
#include "simpath/state_table.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"
#include "ulibc/spin.hpp"

namespace ulibc::simpath::detail {

namespace {

constexpr int kMaxStateWords = 256 / 8;
// Child states are looked up in batches, their table slots and then their
// states prefetched first (state_table.hpp says why).
constexpr int kBatch = 16;
static_assert(kBatch <= RequestQueue::kMinBlockRecords);

const Mate* bytes(const std::uint64_t* words) { return reinterpret_cast<const Mate*>(words); }
Mate* bytes(std::uint64_t* words) { return reinterpret_cast<Mate*>(words); }

// Where a node of `state` before step `step` ends up once zero-suppressed:
// while the step's edge cannot be taken, the node is its own lo child, so the
// search skips the step. On Outcome::node, `step` and `state` are the node's.
Outcome skip_untakeable(const FrontierPlan& plan, int& step, std::uint64_t* state) {
  for (;;) {
    if (can_take(plan.step(step), bytes(state))) return Outcome::node;
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
    if (o == Outcome::node) o = skip_untakeable(plan, step, out);
    if (o != Outcome::node)
      (take ? nodes[index].hi : nodes[index].lo) =
          static_cast<std::uint32_t>(terminal(o));  // a terminal's code is itself
    else if (!deliver(index, take, step, out))
      return false;
  }
  return true;
}

// The root, past the steps whose edges it cannot take: a node, or the
// terminal the whole diagram is.
struct Root {
  Outcome outcome;
  int step;
  std::uint64_t state[kMaxStateWords];
};
Root root_of(const FrontierPlan& plan) {
  Root r{Outcome::node, 0, {}};
  r.outcome = skip_untakeable(plan, r.step, r.state);
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
      ulibc::format_bytes(budget.limit()), step + 1, plan.steps(), total_nodes(levels), plan.max_width()));
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
// Sets the child a request is for: node `index` of its step.
void set_parent_child(Diagram& d, const std::uint64_t* h, std::uint64_t index) {
  d.set_child(static_cast<int>(h[1] >> 32), h[0] >> 1, (h[0] & 1) != 0, make_ref(target_step(h), index));
}

// The sequential search: steps in order; a child goes straight into the
// table of its step, made when the step gets its first child.
class SequentialSearch {
 public:
  SequentialSearch(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget)
      : plan_(plan), d_(d), budget_(budget), tables_(static_cast<std::size_t>(plan.steps())) {}

  void run() {
    const Root root = root_of(plan_);
    if (root.outcome != Outcome::node) {
      d_.root = terminal(root.outcome);
      return;
    }
    StateTable& first = table(root.step, 1);
    if (add_state(first, d_.levels[root.step], root.state, first.hash(root.state), budget_).index == StateTable::kFull)
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
      set_parent_child(d_, p.header, f.index);
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

// The edge-based pipeline on a team of `threads`. Thread t owns steps t,
// t+k, …; step j has one queue from each thread, so a child goes straight to
// its step's owner however many steps below its parent it lies. A thread
// about to take on step i closes its queues to steps up to i: from now on it
// makes children only for steps below i. run() is the skeleton; each thread's
// part is an Owner's.
class EdgeBasedSearch {
 public:
  EdgeBasedSearch(const FrontierPlan& plan, Diagram& d, MemoryBudget& budget, int threads)
      : plan_(plan),
        d_(d),
        budget_(budget),
        threads_(threads),
        m_(plan.steps()),
        failed_step_(m_),
        max_skip_(threads, 1) {}

  void run();

 private:
  class Owner;

  // Child states for `step` from thread `from`.
  RequestQueue& queue(int step, int from) { return *queues_[std::size_t(step) * threads_ + from]; }
  bool stopped() const { return stop_.load(std::memory_order_relaxed); }
  // The budget ran out at `step`: every thread stops; the first step to fail is reported.
  void fail(int step) {
    int expected = m_;
    failed_step_.compare_exchange_strong(expected, step);
    stop_.store(true, std::memory_order_relaxed);
  }

  const FrontierPlan& plan_;
  Diagram& d_;
  MemoryBudget& budget_;
  const int threads_;
  const int m_;
  Root root_{};
  std::vector<std::unique_ptr<RequestQueue>> queues_;  // [j * threads + t]: for step j from thread t
  std::atomic<bool> stop_{false};
  std::atomic<int> failed_step_;
  std::vector<int> max_skip_;  // per thread
};

// One thread of the pipeline: the owner of steps tid, tid + k, …, in turn.
class EdgeBasedSearch::Owner {
 public:
  Owner(EdgeBasedSearch& search, int tid, int team) : s_(search), tid_(tid), team_(team) {}

  void run() {
    for (int i = tid_; i < s_.m_ && !s_.stopped(); i += team_) {
      close_up_to(i);
      if (!own_step(i)) s_.fail(i);
    }
    close_up_to(s_.m_ - 1);
    s_.max_skip_[tid_] = max_skip_;  // once: a shared line written per child would bounce
  }

 private:
  // Child states taken from a queue, their table slots being fetched.
  struct Batch {
    const std::uint64_t* record[kBatch];
    std::uint64_t hash[kBatch];
    int size = 0;
  };

  // This thread's queues to steps up to `last` are closed: no more children for them.
  void close_up_to(int last) {
    for (int j = closed_to_ + 1; j <= std::min(last, s_.m_ - 1); ++j) s_.queue(j, tid_).close();
    closed_to_ = std::max(closed_to_, last);
  }

  // Step i: its table, the root if it is here, then every child state the
  // queues bring, each new one expanded at once. False when the budget ran out.
  bool own_step(int i) {
    StateTable table(s_.plan_.state_words(i), s_.budget_);
    // This thread's previous step (i - k) is done: its size is a hint for this one's.
    if (i >= team_ && !table.reserve(static_cast<std::uint32_t>(s_.d_.levels[i - team_].size()))) return false;
    step_ = i;
    table_ = &table;
    nodes_ = &s_.d_.levels[i];
    const Root& root = s_.root_;
    if (i == root.step && !add_and_expand(root.state, table.hash(root.state), nullptr)) return false;
    return i == 0 || take_requests();
  }

  // Takes from the k queues to this step in turn, a batch at a time, until all are closed and empty.
  bool take_requests() {
    std::vector<char> open(team_, 1);
    int open_count = team_, idle = 0;
    for (int from = 0; open_count > 0 && !s_.stopped(); from = (from + 1) % team_) {
      if (!open[from]) continue;
      Batch batch;
      bool done = false;
      take_batch(s_.queue(step_, from), batch, done);
      if (done) open[from] = 0, --open_count;
      if (batch.size == 0) {
        if (!done) back_off(idle);
        continue;
      }
      idle = 0;
      if (!add_batch(batch)) return false;
    }
    return true;
  }

  // Up to kBatch records of `in`, their slots prefetched; `done` once the queue is closed and empty.
  void take_batch(RequestQueue& in, Batch& b, bool& done) {
    const int record_words = RequestQueue::kHeaderWords + s_.plan_.state_words(step_);
    while (b.size < kBatch && (b.record[b.size] = in.front(done)) != nullptr) {
      in.pop(record_words);
      b.hash[b.size] = table_->hash(b.record[b.size] + RequestQueue::kHeaderWords);
      table_->prefetch_slot(b.hash[b.size++]);
    }
  }

  // The batch's states (prefetched first) found or added, each parent's slot set.
  bool add_batch(const Batch& b) {
    for (int j = 0; j < b.size; ++j) table_->prefetch_state(b.hash[j]);
    for (int j = 0; j < b.size; ++j) {
      if (!add_and_expand(b.record[j] + RequestQueue::kHeaderWords, b.hash[j], b.record[j])) return false;
    }
    return true;
  }

  // The node of `state` (hash h) in this step, made and expanded if new;
  // the parent of the request `header`, if any, gets it as its child.
  bool add_and_expand(const std::uint64_t* state, std::uint64_t h, const std::uint64_t* header) {
    const StateTable::Found f = add_state(*table_, *nodes_, state, h, s_.budget_);
    if (f.index == StateTable::kFull) return false;
    if (header) set_parent_child(s_.d_, header, f.index);
    const auto send = [this](std::uint64_t parent, bool take, int step, const std::uint64_t* child) {
      return this->send(parent, take, step, child);
    };
    return !f.inserted || expand(s_.plan_, step_, *nodes_, f.index, state, send);
  }

  // A child state for `step`, to that step's owner.
  bool send(std::uint64_t parent, bool take, int step, const std::uint64_t* state) {
    max_skip_ = std::max(max_skip_, step - step_);
    return s_.queue(step, tid_).push(header0(parent, take), header1(step_, step), state, s_.plan_.state_words(step));
  }

  // Waits a little before polling an empty queue again. Polling flat out kept
  // the producer's count line in the consumer's cache, and every publish then
  // had to take it back: the pipeline ran no faster than one thread.
  void back_off(int& idle) const {
    if (++idle < 64 * team_) {
      for (int i = 0; i < 64; ++i) spin_pause();
    } else {
      std::this_thread::yield();  // oversubscribed, or a producer far behind
      idle = 0;
    }
  }

  EdgeBasedSearch& s_;
  const int tid_, team_;
  int max_skip_ = 1;
  int closed_to_ = -1;  // this thread's queues to steps up to here are closed
  // The step being searched.
  int step_ = -1;
  StateTable* table_ = nullptr;
  LevelNodes* nodes_ = nullptr;
};

void EdgeBasedSearch::run() {
  root_ = root_of(plan_);
  if (root_.outcome != Outcome::node) {
    d_.root = terminal(root_.outcome);
    return;
  }
  d_.root = make_ref(root_.step, 0);
  queues_.resize(static_cast<std::size_t>(m_) * threads_);
  for (auto& q : queues_) q = std::make_unique<RequestQueue>(budget_);
#pragma omp parallel num_threads(threads_)
  Owner(*this, omp_get_thread_num(), omp_get_num_threads()).run();
  if (stopped()) out_of_memory(plan_, failed_step_.load(), d_.levels, budget_);
  for (int s : max_skip_) d_.max_skip = std::max(d_.max_skip, s);
}

}  // namespace

void Diagram::set_far(int step, std::uint64_t index, bool take, NodeRef child) {
  const std::lock_guard<std::mutex> hold(far_->lock);
  far_->refs[far_key(step, index, take)] = child;
}

NodeRef Diagram::far(int step, std::uint64_t index, bool take) const {
  const std::lock_guard<std::mutex> hold(far_->lock);
  return far_->refs.at(far_key(step, index, take));
}

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
  if (threads == 1)
    SequentialSearch(plan, d, budget).run();
  else
    EdgeBasedSearch(plan, d, budget, threads).run();
  return d;
}

}  // namespace ulibc::simpath::detail
