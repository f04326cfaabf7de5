// tasks/loop_layout.cpp — where ADWS runs a loop's elements, so that the loop's data can be laid out node by node.
//
// parallel_for halves [begin, end) at split_point, and the two halves' tasks take their hints' shares of the
// range as a TaskGroup hands them out (range_share); without stealing a leaf runs on the worker its range begins
// on. Those workers only rise along the loop, so each worker's elements begin at the first leaf on it or past it,
// found by walking down one path of the halving tree rather than by running the loop.
#include <utility>

#include "tasks/worker_line.hpp"
#include "ulibc/tasks.hpp"

namespace ulibc::tasks {

namespace {

struct Piece {
  std::size_t begin, end;  // its elements
  double from, to;         // its range of the worker line
};

class HalvingTree {
 public:
  HalvingTree(std::size_t grain, const WorkProfile* profile, int workers)
      : grain_(grain), profile_(profile), workers_(workers) {}

  // The first element of a leaf that runs on worker w or a later one; p.end when there is none in p.
  std::size_t first_on(Piece p, int w) const {
    while (worker_at(p) < w) {
      if (one_worker(p)) return p.end;
      const auto [left, right] = halves(p);
      p = last_worker(left) >= w ? left : right;
    }
    return p.begin;
  }

 private:
  int worker_at(const Piece& p) const { return detail::worker_at(p.from, workers_); }

  // A leaf, or a piece whose group does not cross a worker boundary: all of it runs on worker_at(p).
  bool one_worker(const Piece& p) const { return p.end - p.begin <= grain_ || !detail::spans_workers(p.from, p.to); }

  int last_worker(Piece p) const {
    while (!one_worker(p)) p = halves(p).second;
    return worker_at(p);
  }

  // The arithmetic of detail::for_range's group and TaskGroup::share_range, step for step.
  std::pair<Piece, Piece> halves(const Piece& p) const {
    const std::size_t mid = detail::split_point(p.begin, p.end, profile_);
    const double left_work = detail::loop_work(p.begin, mid, profile_);
    const double right_work = detail::loop_work(mid, p.end, profile_);
    double work_left = detail::loop_work(p.begin, p.end, profile_);
    const double cut = p.from + (p.to - p.from) * detail::range_share(left_work, work_left);
    work_left -= left_work;
    const double to = cut + (p.to - cut) * detail::range_share(right_work, work_left);
    return {{p.begin, mid, p.from, cut}, {mid, p.end, cut, to}};
  }

  std::size_t grain_;
  const WorkProfile* profile_;
  int workers_;
};

}  // namespace

std::vector<std::size_t> adws_node_begins(const Mapping& map, std::size_t n, std::size_t grain,
                                          const WorkProfile* profile) {
  detail::check_loop(0, n, grain, profile);
  const HalvingTree tree(grain, profile, map.size());
  const Piece loop{0, n, 0.0, static_cast<double>(map.size())};
  // The worker line holds each node's workers together, in node order (worker_line).
  std::vector<std::size_t> begins;
  int first_worker = 0;
  for (const int threads : map.threads_per_node()) {
    begins.push_back(n == 0 ? 0 : tree.first_on(loop, first_worker));
    first_worker += threads;
  }
  return begins;
}

}  // namespace ulibc::tasks
