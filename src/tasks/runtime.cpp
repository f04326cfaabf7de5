// tasks/runtime.cpp — the Runtime's own entry points, the scheduler names, and the checks of hints and loops.
#include <algorithm>
#include <cmath>
#include <limits>

#include "tasks/pool.hpp"
#include "ulibc/error.hpp"

namespace ulibc::tasks {

namespace {
constexpr std::array<std::pair<Scheduler, std::string_view>, 3> kSchedulers = {
    {{Scheduler::random, "random"}, {Scheduler::hierarchical, "hierarchical"}, {Scheduler::adws, "adws"}}};
}  // namespace

std::string scheduler_name(Scheduler s) {
  for (const auto& [kind, name] : kSchedulers)
    if (kind == s) return std::string(name);
  return "?";
}

Scheduler parse_scheduler(std::string_view name) {
  for (const auto& [kind, known] : kSchedulers)
    if (known == name) return kind;
  throw input_error("scheduler \"" + std::string(name) + "\": one of random, hierarchical, adws");
}

Runtime::Runtime(const Topology& topo, const Mapping& map, Options options)
    : pool_(std::make_unique<detail::Pool>(topo, map, options)) {}
Runtime::~Runtime() = default;

int Runtime::workers() const { return pool_->size(); }
const Options& Runtime::options() const { return pool_->options(); }
const Placement& Runtime::placement(int worker) const { return pool_->line().at(static_cast<std::size_t>(worker)); }
Statistics Runtime::statistics() const { return pool_->statistics(); }
void Runtime::reset_statistics() { pool_->reset_statistics(); }
void Runtime::run_root(detail::Task& root) { pool_->run_root(root); }
bool Runtime::inside() const { return detail::Pool::current() == pool_.get(); }

int current_worker() {
  const detail::Worker* w = detail::Pool::current_worker();
  return w ? w->index : -1;
}

namespace detail {

double checked_work(std::optional<double> work) {
  if (!work) return std::numeric_limits<double>::quiet_NaN();
  if (!(*work >= 0) || std::isinf(*work))
    throw input_error("work hint " + std::to_string(*work) + ": a finite number of at least 0");
  return *work;
}

void check_loop(std::size_t begin, std::size_t end, std::size_t grain, const WorkProfile* profile) {
  if (grain == 0) throw input_error("loop grain 0: a piece must hold at least one element");
  if (end < begin)
    throw input_error("loop range [" + std::to_string(begin) + ", " + std::to_string(end) + ") ends before it begins");
  if (profile && end > profile->size())
    throw input_error("loop range [" + std::to_string(begin) + ", " + std::to_string(end) +
                      ") runs past its work profile of " + std::to_string(profile->size()) + " elements");
}

std::size_t split_point(std::size_t begin, std::size_t end, const WorkProfile* profile) {
  return profile ? profile->middle(begin, end) : begin + (end - begin) / 2;
}

double range_share(double work, double work_left) {
  if (std::isnan(work) || std::isnan(work_left)) return 0.5;
  return work_left > work ? work / work_left : 1.0;
}

double loop_work(std::size_t begin, std::size_t end, const WorkProfile* profile) {
  return profile ? profile->work(begin, end) : static_cast<double>(end - begin);
}

}  // namespace detail

WorkProfile::WorkProfile(std::span<const double> per_element) : prefix_(per_element.size() + 1, 0.0) {
  for (std::size_t i = 0; i < per_element.size(); ++i) {
    const double w = per_element[i];
    if (!(w >= 0) || std::isinf(w))
      throw input_error("work profile: element " + std::to_string(i) + " has work " + std::to_string(w) +
                        ", not a finite number of at least 0");
    prefix_[i + 1] = prefix_[i] + w;
  }
}

// At least an eighth of the elements on either side, whatever the profile: a profile whose work doubles from each
// element to the next (or is all zero) would otherwise split off one element at a time, and the recursion would
// run as deep as the loop is long.
std::size_t WorkProfile::middle(std::size_t begin, std::size_t end) const {
  const std::size_t margin = std::max<std::size_t>(1, (end - begin) / 8);
  if (work(begin, end) <= 0) return begin + (end - begin) / 2;
  const double half = prefix_[begin] + work(begin, end) / 2;
  const auto first = prefix_.begin() + static_cast<std::ptrdiff_t>(begin + 1);
  const auto last = prefix_.begin() + static_cast<std::ptrdiff_t>(end);
  const auto at = std::lower_bound(first, last, half);
  return std::clamp(static_cast<std::size_t>(at - prefix_.begin()), begin + margin, end - margin);
}

}  // namespace ulibc::tasks
