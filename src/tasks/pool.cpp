// tasks/pool.cpp — the workers of a tasks::Runtime: where a new task goes, and where an idle worker looks.
#include "tasks/pool.hpp"

#include <algorithm>
#include <cmath>
#include <latch>
#include <string>
#include <tuple>

#include "sync/nearest_nodes.hpp"
#include "tasks/worker_line.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/spin.hpp"

namespace ulibc::tasks::detail {

thread_local Pool* t_pool = nullptr;
thread_local Worker* t_worker = nullptr;
thread_local Strand t_strand;

namespace {

// What a task's group is told once it has run.
detail::Finished finished(const Task& task) { return {.begin = task.begin, .end = task.end, .span = task.span}; }

constexpr int kSpinsBeforeSleep = 2048;   // failed looks for work before an idle worker sleeps
constexpr std::int64_t kMaxQueued = 256;  // tasks a worker's deque holds before a new child runs at once
// A steal costs thief and victim a few cache misses each (100-200 ns on the machine of docs/PERFORMANCE.md); a
// stolen task that runs for less has not paid for its steal.
constexpr auto kStealWorth = std::chrono::microseconds(1);
constexpr auto kStealBackoff = std::chrono::microseconds(5);  // then the thief's pause before it looks again

}  // namespace

Pool::Pool(const Topology& topo, const Mapping& map, Options options) : options_(options), line_(worker_line(map)) {
  if (map.size() < 1) throw input_error("a task runtime needs at least one worker");
  const auto node_order = ulibc::detail::nodes_nearest_first(topo, map);
  for (int w = 0; w < map.size(); ++w) {
    auto worker = std::make_unique<Worker>();
    worker->index = w;
    worker->node = line_[w].node_index;
    worker->nearest = nearest_workers(line_, w, node_order);
    worker->rng.seed(static_cast<unsigned>(w) * 7919u + 1u);
    workers_.push_back(std::move(worker));
  }
  std::latch started(map.size());
  std::vector<std::string> errors(static_cast<std::size_t>(map.size()));
  for (int w = 0; w < map.size(); ++w)
    workers_[w]->thread = std::thread([this, &started, &errors, w] {
      Worker& me = *workers_[w];
      try {
        bind_current_thread(line_[w]);
      } catch (const std::exception& e) {
        errors[w] = e.what();
      }
      started.count_down();
      work_loop(me);
    });
  started.wait();
  for (int w = 0; w < map.size(); ++w)
    if (!errors[w].empty()) {
      stop_workers();
      throw system_error("task worker " + std::to_string(w) + ": " + errors[w]);
    }
}

Pool::~Pool() { stop_workers(); }

void Pool::stop_workers() {
  stop_.store(true, std::memory_order_seq_cst);
  epoch_.fetch_add(1, std::memory_order_seq_cst);
  epoch_.notify_all();
  for (auto& w : workers_)
    if (w->thread.joinable()) w->thread.join();
}

int Pool::worker_at(double x) const { return detail::worker_at(x, size()); }

void Pool::run_root(Task& root) {
  std::lock_guard lock(root_mutex_);
  root.begin = 0;
  root.end = size();
  root.span = 0;
  root_done_.store(false, std::memory_order_relaxed);
  cancels_.store(false, std::memory_order_relaxed);  // the groups of earlier runs are gone
  Worker& first = *workers_.front();
  {
    std::lock_guard inbox(first.inbox_mutex);
    first.inbox.push_back(&root);
    first.inbox_full.store(true, std::memory_order_seq_cst);
  }
  wake();
  root_done_.wait(false, std::memory_order_acquire);
}

void Pool::enroll(const TaskGroup* g) {
  std::lock_guard lock(groups_mutex_);
  spanning_.push_back(g);
}

void Pool::retire(const TaskGroup* g) {
  std::lock_guard lock(groups_mutex_);
  spanning_.erase(std::find(spanning_.begin(), spanning_.end(), g));
}

std::pair<int, int> Pool::workers_of(const TaskGroup& g) const {
  const int first = worker_at(g.range_begin_);
  return {first, std::max(first, worker_at(std::ceil(g.range_end_ - 1e-9) - 1))};
}

// The widest group whose own work is finished somewhere, among those whose range holds `me`: its workers and its
// range. Empty when there is none.
StealScope Pool::steal_scope(const Worker& me) {
  std::lock_guard lock(groups_mutex_);
  const TaskGroup* widest = nullptr;
  for (const TaskGroup* g : spanning_) {
    if (!g->finished_somewhere_.load(std::memory_order_acquire)) continue;
    const auto [lo, hi] = workers_of(*g);
    if (me.index < lo || me.index > hi) continue;
    if (!widest || g->range_end_ - g->range_begin_ > widest->range_end_ - widest->range_begin_) widest = g;
  }
  if (!widest) return {};
  const auto [lo, hi] = workers_of(*widest);
  return {lo, hi, widest->range_begin_, widest->range_end_};
}

Task* Pool::steal_from(Worker& me, int victim, const StealScope& scope) {
  Worker& v = *workers_[victim];
  Task* t = v.deque.steal(scope.begin, scope.end);
  if (t && counting()) ++(v.node == me.node ? me.stats.steals_in_node : me.stats.steals_across_nodes);
  return t;
}

Task* Pool::steal(Worker& me) {
  const int n = size();
  if (n == 1) return nullptr;
  switch (options_.scheduler) {
    case Scheduler::random: {
      const int first = static_cast<int>(me.rng() % static_cast<unsigned>(n - 1));
      for (int k = 0; k < n - 1; ++k)
        if (Task* t = steal_from(me, me.nearest[(first + k) % (n - 1)])) return t;
      return nullptr;
    }
    case Scheduler::hierarchical:
      for (const int v : me.nearest)
        if (Task* t = steal_from(me, v)) return t;
      return nullptr;
    case Scheduler::adws: {
      if (!options_.stealing) return nullptr;
      const StealScope scope = steal_scope(me);
      if (scope.empty()) return nullptr;
      const int width = scope.last - scope.first + 1;
      for (int k = 0; k < width; ++k) {
        const int v = scope.first + static_cast<int>(me.rng() % static_cast<unsigned>(width));
        if (v == me.index) continue;
        if (Task* t = steal_from(me, v, scope)) return t;
      }
      return nullptr;
    }
  }
  return nullptr;
}

// With one worker nobody else could take the child; a deque already this deep gives thieves plenty (libgomp caps its
// queue the same way): then the child runs now, as popping it at once would, without being allocated or queued. A
// loop spawning a million children keeps its tasks in cache.
bool Pool::runs_at_once(int from, int home) {
  if (size() == 1) return true;
  if (home >= 0 && home != from) return false;
  return workers_[from]->deque.holds_at_least(kMaxQueued);
}

void Pool::dispatch(Task* task, int from) {
  Worker& source = *workers_[from];
  const int target = options_.scheduler == Scheduler::adws && task->home >= 0 ? task->home : from;
  if (target == from) {
    source.deque.push(task);
  } else {
    Worker& there = *workers_[target];
    std::lock_guard lock(there.inbox_mutex);
    there.inbox.push_back(task);
    there.inbox_full.store(true, std::memory_order_seq_cst);
    if (counting()) ++source.stats.migrations;
  }
  wake();
}

// Everything sent here at once: the first to run now, the others onto this worker's deque, where its waits find
// them (and, as a migrated task in Itoyori's migration queue, thieves in their scope may take them).
Task* Pool::take_inbox(Worker& me) {
  if (!me.inbox_full.load(std::memory_order_acquire)) return nullptr;
  std::vector<Task*> sent;
  {
    std::lock_guard lock(me.inbox_mutex);
    sent.swap(me.inbox);
    me.inbox_full.store(false, std::memory_order_seq_cst);
  }
  if (sent.empty()) return nullptr;
  for (std::size_t k = sent.size(); k-- > 1;) me.deque.push(sent[k]);
  return sent.front();
}

Found Pool::find(Worker& me) {
  if (Task* t = take_inbox(me)) return {t, false};
  return {steal(me), true};
}

// A thief that went straight back for more after a tiny stolen task would take a loop of tiny children from its
// spawner one by one, every child crossing between the cores: the spawner's deque never filled up to where it runs
// children at once, and a linear spawn tree cost 130-500 ns a child on two cores (libgomp: 40-110). So a worker
// out of work pauses after such a task (work_loop), and the spawner runs them itself; a stolen task worth its
// steal is followed at once by the next look.
bool Pool::run_found(Worker& me, Found found) {
  if (!found.stolen) {
    run_taken(me, found.task);
    return false;
  }
  const auto started = std::chrono::steady_clock::now();
  run_taken(me, found.task);
  return std::chrono::steady_clock::now() - started < kStealWorth;
}

std::exception_ptr Pool::run_strand(Worker& me, Task& task) {
  const Strand outer = t_strand;
  const auto started = counting() ? std::chrono::steady_clock::now() : std::chrono::steady_clock::time_point{};
  t_strand = {&task, task.span, started};
  const TaskGroup* g = task.group;
  std::exception_ptr error;
  if (!g || !cancels_.load(std::memory_order_acquire) || !g->cancelled()) {
    try {
      task.execute();
    } catch (...) {
      error = std::current_exception();
    }
  }
  if (counting()) {
    const double own = seconds_since(t_strand.start);
    me.stats.busy_seconds += own;
    ++me.stats.tasks;
    task.span = t_strand.span + own;
  }
  t_strand = outer;  // an outer strand is one waiting on a group: its clock restarts when the wait ends
  return error;
}

void Pool::execute(Worker& me, Task& task) {
  const std::exception_ptr error = run_strand(me, task);
  if (task.group) {
    task.group->finish(finished(task), error, me.index);
  } else {  // the root, on its caller's stack: its wrapper caught what it threw
    root_span_ = task.span;
    root_done_.store(true, std::memory_order_release);
    root_done_.notify_all();
  }
}

void Pool::run_taken(Worker& me, Task* task) {
  TaskGroup* g = task->group;  // read first: the root's caller may be gone once it has run
  if (!g) {
    execute(me, *task);
    return;
  }
  // A spawned task, made by TaskGroup::submit and owned by whoever runs it, is freed before its group hears of it.
  // Once the group has, the run may end and the pool with it, and the block would go back to the lists of a worker
  // that has already exited (task_memory.cpp gives a block back to the thread that made it): lost, and written into
  // a dead thread's storage.
  const std::exception_ptr error = run_strand(me, *task);
  const detail::Finished done = finished(*task);
  delete task;
  g->finish(done, error, me.index);
}

void Pool::work_loop(Worker& me) {
  t_pool = this;
  t_worker = &me;
  IdleClock idle(counting());
  int fails = 0;
  while (!stop_.load(std::memory_order_relaxed)) {
    if (Task* t = me.deque.pop()) {
      idle.found(me);
      fails = 0;
      run_taken(me, t);
      continue;
    }
    if (const Found found = find(me); found.task) {
      idle.found(me);
      fails = 0;
      if (run_found(me, found)) {  // a stolen task too small to pay for its steal
        idle.failed();
        const auto until = std::chrono::steady_clock::now() + kStealBackoff;
        while (std::chrono::steady_clock::now() < until && !stop_.load(std::memory_order_relaxed)) spin_pause();
      }
      continue;
    }
    idle.failed();
    if (++fails < kSpinsBeforeSleep) {
      spin_pause();
    } else {
      sleep();
    }
  }
  t_pool = nullptr;
  t_worker = nullptr;
}

bool Pool::work_visible() const {
  for (const auto& w : workers_)
    if (!w->deque.looks_empty() || w->inbox_full.load(std::memory_order_seq_cst)) return true;
  return false;
}

// A worker with nothing to do sleeps until a task is pushed anywhere. The Dekker pair: it announces itself in
// sleepers_ and then looks for work; a pusher publishes its task (a seq_cst store: the deque's bottom, an inbox's
// flag) and then reads sleepers_, seq_cst both sides, so at least one of them sees the other.
void Pool::sleep() {
  const std::uint32_t seen = epoch_.load(std::memory_order_seq_cst);
  sleepers_.fetch_add(1, std::memory_order_seq_cst);
  if (!work_visible() && !stop_.load(std::memory_order_seq_cst)) epoch_.wait(seen, std::memory_order_seq_cst);
  sleepers_.fetch_sub(1, std::memory_order_seq_cst);
}

void Pool::wake() {
  if (sleepers_.load(std::memory_order_seq_cst) == 0) return;
  epoch_.fetch_add(1, std::memory_order_seq_cst);
  epoch_.notify_all();
}

double Pool::seconds_since(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

double Pool::span_now() const { return t_strand.span + seconds_since(t_strand.start); }

Statistics Pool::statistics() const {
  Statistics s;
  for (const auto& w : workers_) {
    s.workers.push_back(w->stats);
    s.work_seconds += w->stats.busy_seconds;
  }
  s.span_seconds = root_span_;
  return s;
}

void Pool::reset_statistics() {
  for (auto& w : workers_) w->stats = {};
  root_span_ = 0;
}

}  // namespace ulibc::tasks::detail
