// tasks/task_group.cpp — spawning children, placing them by their share of the range, and joining them.
#include <algorithm>
#include <cmath>
#include <thread>

#include "tasks/pool.hpp"
#include "tasks/worker_line.hpp"
#include "ulibc/error.hpp"
#include "ulibc/spin.hpp"

namespace ulibc::tasks {

using detail::Pool;
using detail::Task;

namespace {

constexpr int kSpinsBeforeYield = 64;  // failed looks for work in a wait before it yields the processor

}  // namespace

TaskGroup::TaskGroup(std::optional<double> total_work)
    : pool_(Pool::current()),
      maker_(Pool::strand().task),
      parent_(maker_ ? maker_->group : nullptr),
      owner_(-1),
      mark_(0),
      range_begin_(0),
      range_end_(0),
      begin_(0),
      work_left_(detail::checked_work(total_work)),
      spans_workers_(false) {
  if (!pool_ || !maker_) {
    pool_ = nullptr;
    return;
  }
  detail::Worker& me = *Pool::current_worker();
  owner_ = me.index;
  mark_ = me.deque.bottom();
  if (pool_->options().scheduler != Scheduler::adws) return;
  range_begin_ = begin_ = maker_->begin;
  range_end_ = maker_->end;
  spans_workers_ = detail::spans_workers(range_begin_, range_end_);
  if (spans_workers_) {
    pool_->enroll(this);
    enrolled_ = true;
  }
}

TaskGroup::~TaskGroup() {
  if (pool_ && !all_finished()) cancel();
  join();
}

void TaskGroup::check_maker(const char* what) const {
  if (Pool::strand().task != maker_)
    throw input_error(std::string("task group: ") + what + " from a task other than the one that made the group");
}

detail::ChildPlace TaskGroup::place_child(double work) {
  detail::ChildPlace place;
  if (!pool_) {  // outside a runtime: every child runs at once
    place.now = true;
    return place;
  }
  check_maker("spawn");
  if (spans_workers_) {
    share_range(place, work);
  } else {  // within one worker: the child stays there, its range the maker's (a thief's scope checks it)
    place.begin = range_begin_;
    place.end = range_end_;
  }
  place.now = pool_->runs_at_once(owner_, place.home);
  return place;
}

// The child takes the next part of the range, in spawn order: its hint's share of the work not yet handed out
// (half of what is left without hints). It goes to the worker its part begins on.
void TaskGroup::share_range(detail::ChildPlace& place, double work) {
  const double share = detail::range_share(work, work_left_);
  if (!std::isnan(work)) work_left_ -= work;
  place.begin = begin_;
  place.end = begin_ + (range_end_ - begin_) * share;
  begin_ = place.end;
  place.home = pool_->worker_at(place.begin);
}

void TaskGroup::adopt(Task& task, const detail::ChildPlace& place) {
  task.group = this;
  task.begin = place.begin;
  task.end = place.end;
  task.home = place.home;
  if (pool_ && pool_->counting()) task.span = pool_->span_now();
}

void TaskGroup::run_now(Task& task, const detail::ChildPlace& place) {
  adopt(task, place);
  if (!pool_) {
    if (cancelled()) return;
    try {
      task.execute();
    } catch (...) {
      fail(std::current_exception());
    }
    return;
  }
  ++spawned_;
  pool_->execute(*Pool::current_worker(), task);
}

void TaskGroup::submit(std::unique_ptr<Task> task, const detail::ChildPlace& place) {
  adopt(*task, place);
  ++spawned_;
  pool_->dispatch(task.release(), owner_);
}

void TaskGroup::fail(std::exception_ptr error) {
  if (exceptions_.fetch_add(1, std::memory_order_acq_rel) == 0) first_ = error;
  cancel();
}

void TaskGroup::finish(const detail::Finished& child, std::exception_ptr error, int worker) {
  if (error) fail(error);
  if (pool_->counting()) {
    double seen = child_span_.load(std::memory_order_relaxed);
    while (child.span > seen && !child_span_.compare_exchange_weak(seen, child.span, std::memory_order_relaxed)) {
    }
  }
  // A child whose range crossed a worker boundary has done its deterministic share: the group's workers may
  // steal among themselves. Before the count: once every child is counted the maker may end the group.
  if (spans_workers_ && detail::spans_workers(child.begin, child.end) &&
      !finished_somewhere_.exchange(true, std::memory_order_acq_rel))
    pool_->wake();
  if (worker == owner_) {
    ++run_by_owner_;
  } else {
    finished_.fetch_add(1, std::memory_order_acq_rel);
  }
}

void TaskGroup::join() {
  if (!pool_) return;
  detail::Worker& me = *Pool::current_worker();
  detail::Strand& strand = Pool::strand();
  if (pool_->counting()) {  // the maker's strand stops here; what runs during the wait is other strands
    const double own = Pool::seconds_since(strand.start);
    me.stats.busy_seconds += own;
    strand.span += own;
  }
  detail::IdleClock idle(pool_->counting());
  int fails = 0;
  while (!all_finished()) {
    if (Task* t = me.deque.pop(mark_)) {
      idle.found(me);
      pool_->run_taken(me, t);
      continue;
    }
    // The maker has run every child left to it: its own share is done.
    if (spans_workers_ && !finished_somewhere_.exchange(true, std::memory_order_acq_rel)) pool_->wake();
    if (Task* t = pool_->find(me).task) {  // run at once, unpaced: the continuation waits on this group
      idle.found(me);
      fails = 0;
      pool_->run_taken(me, t);
      continue;
    }
    idle.failed();
    if (++fails < kSpinsBeforeYield) {
      spin_pause();
    } else {
      std::this_thread::yield();
    }
  }
  idle.found(me);
  if (enrolled_) {
    pool_->retire(this);
    enrolled_ = false;
  }
  if (pool_->counting()) {
    strand.span = std::max(strand.span, child_span_.load(std::memory_order_relaxed));
    strand.start = std::chrono::steady_clock::now();
  }
}

void TaskGroup::wait() {
  if (pool_) check_maker("wait");
  join();
  if (first_) {
    std::exception_ptr e = first_;
    first_ = nullptr;
    std::rethrow_exception(e);
  }
}

void TaskGroup::cancel() {
  cancelled_.store(true, std::memory_order_release);
  if (pool_) pool_->note_cancel();
}

bool TaskGroup::cancelled() const {
  for (const TaskGroup* g = this; g; g = g->parent_)
    if (g->cancelled_.load(std::memory_order_acquire)) return true;
  return false;
}

}  // namespace ulibc::tasks
