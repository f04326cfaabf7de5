// ulibc/tasks.hpp — fork/join task parallelism on the mapping's threads: task groups, parallel_invoke, parallel_for
// and parallel_reduce, scheduled by random, hierarchical or almost deterministic work stealing (ADWS).
//
// A Runtime starts one worker per mapping entry, bound to its processor. Workers are numbered along a line grouped by
// node, in the mapping's order within a node, so that a contiguous range of workers is processors of one node under
// every policy (under compact the mapping's own thread order; under scatter, whose threads alternate nodes, a
// reordering of it), which is what ADWS's ranges of workers need. Spawning is help-first: spawn()
// makes the child available and the caller goes on; wait() runs the group's children itself, newest first, and
// steals while thieves hold the rest, until every child has finished. The continuation of a join therefore always
// resumes on the worker that made the group. Where no other worker could start a child sooner (a runtime of one
// worker, or a maker whose deque already holds 256 tasks) the child runs at once instead, inside spawn().
//
// Schedulers (Options::scheduler):
//   random        a worker out of work tries victims in a random order;
//   hierarchical  victims nearest first: the siblings of its core, its node, then the other nodes by distance;
//   adws          Shiina and Taura, "Almost Deterministic Work Stealing" (SC'19): every task carries a distribution
//                 range, a real interval of the worker line; a group splits its maker's range between its children
//                 in proportion to their work hints, in spawn order, and a child whose range begins on another
//                 worker is sent there. A worker steals only the tasks of the widest group whose own work is
//                 finished somewhere, from that group's workers (docs/TASKS.md); with Options::stealing off the
//                 placement is exactly that of the ranges, run after run.
#pragma once
#include <atomic>
#include <cmath>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>
#include <variant>
#include <vector>

#include "ulibc/mapping.hpp"

namespace ulibc::tasks {

enum class Scheduler { random, hierarchical, adws };
std::string scheduler_name(Scheduler s);
Scheduler parse_scheduler(std::string_view name);  // "random", "hierarchical", "adws"; Error(input) otherwise

struct Options {
  Scheduler scheduler = Scheduler::random;
  bool stealing = true;     // adws only: false places every task by its range alone
  bool statistics = false;  // count per worker (below); off, the counters cost nothing
};

struct WorkerStatistics {
  std::uint64_t tasks = 0;                // tasks run
  std::uint64_t steals_in_node = 0;       // tasks stolen from a worker of the same node
  std::uint64_t steals_across_nodes = 0;  // ... of another node
  std::uint64_t migrations = 0;           // adws: tasks this worker sent to the worker their range names
  double busy_seconds = 0;                // running tasks (nested ones counted once)
  double idle_seconds = 0;                // looking for work with none to run
};
struct Statistics {
  std::vector<WorkerStatistics> workers;
  double work_seconds = 0;  // the root's tasks' running time, summed (T1)
  double span_seconds = 0;  // the longest chain of running time that forks and joins allow (T∞)
};

namespace detail {
class Pool;
struct Task;
}  // namespace detail

class Runtime {
 public:
  // Throws Error(input) for a mapping of no threads.
  Runtime(const Topology& topo, const Mapping& map, Options options = {});
  ~Runtime();
  Runtime(const Runtime&) = delete;
  Runtime& operator=(const Runtime&) = delete;

  int workers() const;
  const Options& options() const;
  const Placement& placement(int worker) const;  // its processor, node and core; .thread is the worker index

  // Runs root() as the root task on worker 0, its range the whole worker line, and returns what it returns (or
  // rethrows what it throws). From a thread that is not one of this runtime's workers; from inside one of its
  // tasks, root() simply runs there.
  template <class F>
  std::invoke_result_t<F&> run(F&& root);

  // Since construction or reset_statistics(); zeros unless Options::statistics. Between runs, not during one.
  Statistics statistics() const;
  void reset_statistics();

 private:
  void run_root(detail::Task& root);
  bool inside() const;
  std::unique_ptr<detail::Pool> pool_;
};

// The calling thread's worker index in the runtime that runs it, -1 outside every runtime.
int current_worker();

class TaskGroup;

namespace detail {

struct Task {
  virtual ~Task() = default;
  virtual void execute() = 0;
  // Small tasks take blocks from per-thread lists, and a block freed by another thread goes back to the thread
  // that made it (task_memory.cpp): a spawn costs tens of nanoseconds, and the C allocator's share was a third.
  static void* operator new(std::size_t bytes);
  static void operator delete(void* p, std::size_t bytes);
  TaskGroup* group = nullptr;
  double begin = 0, end = 0;  // the distribution range (adws)
  int home = -1;              // adws: the worker the range sends it to; -1: its maker's
  double span = 0;            // with statistics: the span up to the task's start
};

// What a task's group learns when it has run: told after the task is freed (pool.cpp says why).
struct Finished {
  double begin = 0, end = 0;  // its distribution range
  double span = 0;            // with statistics: the span up to its end
};

template <class F>
struct TaskOf final : Task {
  explicit TaskOf(F&& fn) : f(std::forward<F>(fn)) {}
  void execute() override { f(); }
  std::decay_t<F> f;
};

// The hint as the scheduler uses it: NaN for none; Error(input) for a negative, infinite or NaN one.
double checked_work(std::optional<double> work);

// A child's share of what is left of its group's range: its hint over the work not yet handed out; half of it
// where either is unknown (NaN); all of it once the hints have run out.
double range_share(double work, double work_left);

// Where a new child goes: its share of the group's range (adws), the worker that share begins on (-1: its maker's),
// and whether it runs at once, in its maker, before spawn returns.
struct ChildPlace {
  double begin = 0, end = 0;
  int home = -1;
  bool now = false;
};

}  // namespace detail

// Tasks spawned together and joined together. Made and waited on by the same task (on the same worker). An
// exception thrown by a child cancels the group: children not yet started are skipped, and so is the work of
// groups they made; wait() rethrows the first exception and exceptions() counts them all.
class TaskGroup {
 public:
  // With the children's total work, each spawn's hint is its share of it; without, or for a spawn without a hint,
  // the child takes half of what is left of the group's range (adws; the other schedulers ignore hints).
  explicit TaskGroup(std::optional<double> total_work = std::nullopt);
  ~TaskGroup();  // cancels what has not started and waits; wait() first to see errors
  TaskGroup(const TaskGroup&) = delete;
  TaskGroup& operator=(const TaskGroup&) = delete;

  template <class F>
  void spawn(F&& f, std::optional<double> work = std::nullopt) {
    const detail::ChildPlace place = place_child(detail::checked_work(work));
    if (place.now) {  // on this stack: nothing allocated, nothing queued
      detail::TaskOf<F> task(std::forward<F>(f));
      run_now(task, place);
    } else {
      submit(std::make_unique<detail::TaskOf<F>>(std::forward<F>(f)), place);
    }
  }
  void wait();  // until every child has finished; rethrows the first exception thrown in one
  void cancel();
  bool cancelled() const;  // this group's cancel(), an exception in it, or the same of a group it runs in
  int exceptions() const { return exceptions_.load(std::memory_order_acquire); }

 private:
  friend class detail::Pool;
  detail::ChildPlace place_child(double work);                      // where the next child goes (hint: NaN for none)
  void share_range(detail::ChildPlace& place, double work);         // adws: the child's share of the range
  void adopt(detail::Task& task, const detail::ChildPlace& place);  // the child's group, range and start of span
  void run_now(detail::Task& task, const detail::ChildPlace& place);
  void submit(std::unique_ptr<detail::Task> task, const detail::ChildPlace& place);
  void fail(std::exception_ptr error);  // a child threw: the first is kept, all are counted, the group cancelled
  // A child has run on `worker` (or was skipped).
  void finish(const detail::Finished& child, std::exception_ptr error, int worker);
  bool all_finished() const { return run_by_owner_ + finished_.load(std::memory_order_acquire) >= spawned_; }
  void join();  // wait() without the rethrow
  void check_maker(const char* what) const;

  detail::Pool* pool_;              // nullptr outside a runtime's workers: the children run at once, in the caller
  detail::Task* maker_;             // the task that made the group, the only one that may spawn into it and wait
  TaskGroup* parent_;               // the group of the task that made this one
  int owner_;                       // the worker that made it
  std::int64_t mark_;               // the owner's deque bottom when made: wait() pops only above it
  double range_begin_, range_end_;  // adws: the maker's range, which the children share
  double begin_, work_left_;        // adws: where the next child's range begins, and the work not yet handed out
  bool spans_workers_;              // adws: the range crosses a worker boundary (the group takes part in stealing)
  bool enrolled_ = false;           // adws: in the pool's list of such groups
  std::atomic<bool> finished_somewhere_{false};  // adws: stealing among its workers is allowed
  std::atomic<double> child_span_{0};
  std::int64_t spawned_ = 0;       // by the maker alone: no atomic operation per spawn
  std::int64_t run_by_owner_ = 0;  // children the maker's worker ran: counted without an atomic
  // Children other workers ran: on a line of its own, so that the thieves' counting does not evict the maker's
  // fields (spawned_, run_by_owner_) from its core on every stolen child.
  alignas(64) std::atomic<std::int64_t> finished_{0};
  std::atomic<bool> cancelled_{false};
  std::atomic<int> exceptions_{0};
  std::exception_ptr first_;
};

// The work of a loop's elements, reusable across loops over the same range: the work of [i, j) is a difference
// of prefix sums, so recursive halving splits each range by the work on either side.
class WorkProfile {
 public:
  explicit WorkProfile(std::span<const double> per_element);  // Error(input) for a negative or NaN element
  std::size_t size() const { return prefix_.size() - 1; }
  double work(std::size_t begin, std::size_t end) const { return prefix_[end] - prefix_[begin]; }
  // Where [begin, end) (at least two elements) splits into two halves of about equal work, each holding at least an
  // eighth of the elements (so that recursive halving stays O(log n) deep for any profile).
  std::size_t middle(std::size_t begin, std::size_t end) const;

 private:
  std::vector<double> prefix_;
};

namespace detail {

template <class R>
using Slot = std::conditional_t<std::is_void_v<R>, std::monostate, R>;

template <class F>
auto call(F& f) {
  if constexpr (std::is_void_v<std::invoke_result_t<F&>>) {
    f();
    return std::monostate{};
  } else {
    return f();
  }
}

void check_loop(std::size_t begin, std::size_t end, std::size_t grain, const WorkProfile* profile);

// Splits [begin, end) at the middle of its work (the middle index without a profile).
std::size_t split_point(std::size_t begin, std::size_t end, const WorkProfile* profile);
double loop_work(std::size_t begin, std::size_t end, const WorkProfile* profile);

template <class Body>
void for_range(std::size_t begin, std::size_t end, std::size_t grain, const WorkProfile* profile, Body& body) {
  if (end - begin <= grain) {
    body(begin, end);
    return;
  }
  const std::size_t mid = split_point(begin, end, profile);
  TaskGroup g(loop_work(begin, end, profile));
  g.spawn([&] { for_range(begin, mid, grain, profile, body); }, loop_work(begin, mid, profile));
  g.spawn([&] { for_range(mid, end, grain, profile, body); }, loop_work(mid, end, profile));
  g.wait();
}

template <class T, class Map, class Combine>
T reduce_range(std::size_t begin, std::size_t end, std::size_t grain, const WorkProfile* profile, const T& identity,
               Map& map, Combine& combine) {
  if (end - begin <= grain) return map(begin, end);
  const std::size_t mid = split_point(begin, end, profile);
  T left = identity, right = identity;
  TaskGroup g(loop_work(begin, end, profile));
  g.spawn([&] { left = reduce_range(begin, mid, grain, profile, identity, map, combine); },
          loop_work(begin, mid, profile));
  g.spawn([&] { right = reduce_range(mid, end, grain, profile, identity, map, combine); },
          loop_work(mid, end, profile));
  g.wait();
  return combine(std::move(left), std::move(right));
}

}  // namespace detail

// A callable with its work hint, for parallel_invoke: parallel_invoke(with_work(3, f), with_work(1, g)).
template <class F>
struct Hinted {
  F f;
  double work;
};
template <class F>
Hinted<F> with_work(double work, F f) {
  return {std::move(f), work};
}

namespace detail {
template <class G>
double hint(const G&) {
  return 1.0;
}
template <class G>
double hint(const Hinted<G>& h) {
  return checked_work(h.work);
}
template <class G>
G& callable(G& g) {
  return g;
}
template <class G>
G& callable(Hinted<G>& h) {
  return h.f;
}
}  // namespace detail

// Runs every callable as a child task and returns their results as a tuple (std::monostate for void ones; the
// others default-constructible). Outside a runtime's tasks they run one after the other on the calling thread.
template <class... F>
auto parallel_invoke(F&&... fs) {
  std::tuple<detail::Slot<std::invoke_result_t<decltype(detail::callable(fs))>>...> out;
  TaskGroup g((detail::hint(fs) + ...));
  [&]<std::size_t... I>(std::index_sequence<I...>) {
    (g.spawn([&] { std::get<I>(out) = detail::call(detail::callable(fs)); }, detail::hint(fs)), ...);
  }
  (std::index_sequence_for<F...>{});
  g.wait();
  return out;
}

// body(i, j) on pieces of [begin, end) of at most `grain` elements, split by recursive halving (at the middle of
// the work when a profile is given). Error(input) for a grain of 0, end < begin or a profile of another size.
template <class Body>
void parallel_for(std::size_t begin, std::size_t end, std::size_t grain, Body&& body,
                  const WorkProfile* profile = nullptr) {
  detail::check_loop(begin, end, grain, profile);
  if (begin < end) detail::for_range(begin, end, grain, profile, body);
}

// Where ADWS without stealing runs parallel_for(0, n, grain, body, profile) called by the root task of a
// Runtime over `map`: the element each node's leaves begin at, by the mapping's node index (n for a node given
// none). NodeArray(topo, map, n, these) then holds every leaf's elements on the node that runs it, but for the
// elements of a node's first page that belong to the node before it. Error(input) as parallel_for.
std::vector<std::size_t> adws_node_begins(const Mapping& map, std::size_t n, std::size_t grain,
                                          const WorkProfile* profile = nullptr);

// combine(map(i, j) over the pieces), the pieces as parallel_for makes them; identity when the range is empty.
template <class T, class Map, class Combine>
T parallel_reduce(std::size_t begin, std::size_t end, std::size_t grain, const T& identity, Map&& map,
                  Combine&& combine, const WorkProfile* profile = nullptr) {
  detail::check_loop(begin, end, grain, profile);
  if (begin == end) return identity;
  return detail::reduce_range(begin, end, grain, profile, identity, map, combine);
}

template <class F>
std::invoke_result_t<F&> Runtime::run(F&& root) {
  using R = std::invoke_result_t<F&>;
  if (inside()) return root();
  detail::Slot<R> out{};
  std::exception_ptr error;
  detail::TaskOf task([&] {
    try {
      out = detail::call(root);
    } catch (...) {
      error = std::current_exception();
    }
  });
  run_root(task);
  if (error) std::rethrow_exception(error);
  if constexpr (!std::is_void_v<R>) return out;
}

}  // namespace ulibc::tasks
