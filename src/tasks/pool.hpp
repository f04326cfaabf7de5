// tasks/pool.hpp — the workers of a tasks::Runtime and how each finds its next task.
#pragma once
#include <atomic>
#include <chrono>
#include <cstdint>
#include <limits>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

#include "tasks/deque.hpp"
#include "ulibc/tasks.hpp"

namespace ulibc::tasks::detail {

struct alignas(64) Worker {
  int index = 0;
  int node = 0;  // the mapping's node index
  TaskDeque deque;
  std::mutex inbox_mutex;  // adws: tasks other workers sent here
  std::vector<Task*> inbox;
  std::atomic<bool> inbox_full{false};
  std::vector<int> nearest;  // the other workers, nearest first (hierarchical and adws victims)
  std::minstd_rand rng;
  WorkerStatistics stats;
  std::thread thread;
};

// What the running strand of a worker is: its task, and with statistics the span and clock of its work so far.
struct Strand {
  Task* task = nullptr;
  double span = 0;  // the task's span up to strand_start
  std::chrono::steady_clock::time_point start;
};

// The calling thread's place. initial-exec: one load from the thread pointer per access, where a shared library's
// default TLS model calls __tls_get_addr; spawn and wait read these several times per task. (The library is linked,
// not dlopen'ed.)
extern thread_local Pool* t_pool __attribute__((tls_model("initial-exec")));
extern thread_local Worker* t_worker __attribute__((tls_model("initial-exec")));
extern thread_local Strand t_strand __attribute__((tls_model("initial-exec")));

struct Found {
  Task* task = nullptr;
  bool stolen = false;  // from another worker's deque, not sent to this one's inbox
};

// adws: where a worker may steal: from workers first..last, tasks whose range begins in [begin, end) (the tasks of
// one group and of the groups made under it). The default: anywhere, anything.
struct StealScope {
  int first = 0, last = -1;
  double begin = -std::numeric_limits<double>::infinity(), end = std::numeric_limits<double>::infinity();
  bool empty() const { return last <= first; }  // no other worker to steal from
};

class Pool {
 public:
  Pool(const Topology& topo, const Mapping& map, Options options);
  ~Pool();

  const Options& options() const { return options_; }
  const std::vector<Placement>& line() const { return line_; }  // by worker: its place (thread = worker index)
  int size() const { return static_cast<int>(workers_.size()); }
  bool counting() const { return options_.statistics; }

  // The calling thread's pool and worker (nullptr outside every pool's workers).
  static Pool* current() { return t_pool; }
  static Worker* current_worker() { return t_worker; }
  static Strand& strand() { return t_strand; }

  void run_root(Task& root);
  // A new child of a group owned by worker `from`: onto that worker's deque, or (adws) to the worker its range
  // begins on.
  void dispatch(Task* task, int from);
  // Whether a new child of worker `from`, bound for worker `home` (-1: from's), runs at once in its maker: when no
  // other worker could start it sooner.
  bool runs_at_once(int from, int home);
  // A task for `me` from elsewhere than its own deque: its inbox, then a steal as the scheduler allows (nullptr
  // when none was found); running one, and whether it was a stolen task too small to pay for its steal.
  Found find(Worker& me);
  bool run_found(Worker& me, Found found);
  std::exception_ptr run_strand(Worker& me, Task& task);  // runs it as `me`'s strand: what it threw
  void execute(Worker& me, Task& task);                   // runs it and tells its group (or the root's caller)
  void run_taken(Worker& me, Task* task);  // a task from a deque or an inbox: runs it, frees a spawned one, tells
  void wake();                             // after making work visible: wakes the sleeping workers

  // adws: the worker a range begins on; the groups whose range crosses a worker boundary, for stealing (a group
  // enrolls when made and retires when its wait ends).
  int worker_at(double x) const;
  void enroll(const TaskGroup* g);
  void retire(const TaskGroup* g);

  // With statistics: the span of the calling strand now, and the seconds since `since`.
  double span_now() const;
  static double seconds_since(std::chrono::steady_clock::time_point since);

  Statistics statistics() const;
  void reset_statistics();

  // A group of this run was cancelled: only then is a task's whole chain of groups looked at before it runs.
  void note_cancel() { cancels_.store(true, std::memory_order_release); }

 private:
  void work_loop(Worker& me);
  void stop_workers();
  Task* steal(Worker& me);
  Task* steal_from(Worker& me, int victim, const StealScope& scope = {});
  std::pair<int, int> workers_of(const TaskGroup& g) const;  // adws: the first and last worker its range covers
  StealScope steal_scope(const Worker& me);
  Task* take_inbox(Worker& me);
  bool work_visible() const;
  void sleep();

  Options options_;
  std::vector<Placement> line_;
  std::vector<std::unique_ptr<Worker>> workers_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> cancels_{false};     // some group of the current run was cancelled (note_cancel)
  std::atomic<std::uint32_t> epoch_{0};  // bumped to wake sleeping workers
  std::atomic<int> sleepers_{0};
  std::mutex groups_mutex_;
  std::vector<const TaskGroup*> spanning_;  // adws: the live groups whose range crosses a worker boundary
  std::mutex root_mutex_;                   // one root at a time
  std::atomic<bool> root_done_{false};
  double root_span_ = 0;
};

// A worker's idle time (with statistics): from its first failed look for work to the next success. Counted before
// the found task runs: its end may end the run after which the statistics are read.
class IdleClock {
 public:
  explicit IdleClock(bool on) : on_(on) {}
  void failed() {
    if (on_ && !idle_) since_ = std::chrono::steady_clock::now();
    idle_ = true;
  }
  void found(Worker& me) {
    if (on_ && idle_) me.stats.idle_seconds += Pool::seconds_since(since_);
    idle_ = false;
  }

 private:
  bool on_, idle_ = false;
  std::chrono::steady_clock::time_point since_;
};

}  // namespace ulibc::tasks::detail
