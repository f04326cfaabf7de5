// harness/stage_log.cpp — one log of where a run's time went.
#include "harness/stage_log.hpp"

#include <fmt/format.h>

#include <nlohmann/json.hpp>
#include <stdexcept>

#include "harness/timer.hpp"

namespace ulibc::harness {

StageLog::StageLog(std::string run) : stages_{{std::move(run), -1, 1, 0}}, start_(now_seconds()) {}

StageLog::Timed::Timed(StageLog& log, std::string_view name)
    : log_(log), stage_(log.child(log.open_, name)), outer_(log.open_), start_(now_seconds()) {
  log_.open_ = stage_;
}

StageLog::Timed::~Timed() {
  Stage& s = log_.stages_[stage_];
  s.seconds += now_seconds() - start_;
  ++s.count;
  log_.open_ = outer_;
}

void StageLog::add(std::string_view name, double seconds) {
  Stage& s = stages_[child(open_, name)];
  s.seconds += seconds;
  ++s.count;
}

void StageLog::finish() { stages_.front().seconds = now_seconds() - start_; }

// A solver opens a handful of stages inside each: a linear search is quicker than any map.
int StageLog::child(int parent, std::string_view name) {
  for (std::size_t i = static_cast<std::size_t>(parent) + 1; i < stages_.size(); ++i)
    if (stages_[i].parent == parent && stages_[i].name == name) return static_cast<int>(i);
  stages_.push_back({std::string(name), parent, 0, 0});
  return static_cast<int>(stages_.size() - 1);
}

int StageLog::find(std::string_view path) const {
  int at = 0;
  while (!path.empty()) {
    const std::size_t slash = path.find('/');
    const std::string_view name = path.substr(0, slash);
    int next = -1;
    for (std::size_t i = 0; i < stages_.size() && next < 0; ++i)
      if (stages_[i].parent == at && stages_[i].name == name) next = static_cast<int>(i);
    if (next < 0) return -1;
    at = next;
    path = slash == std::string_view::npos ? std::string_view{} : path.substr(slash + 1);
  }
  return at;
}

double StageLog::seconds(std::string_view path) const {
  const int s = find(path);
  return s < 0 ? 0 : stages_[s].seconds;
}

std::int64_t StageLog::count(std::string_view path) const {
  const int s = find(path);
  return s < 0 ? 0 : stages_[s].count;
}

double StageLog::total(std::string_view name) const {
  double sum = 0;
  for (std::size_t i = 1; i < stages_.size(); ++i)
    if (stages_[i].name == name) sum += stages_[i].seconds;
  return sum;
}

double StageLog::unaccounted(std::string_view path) const {
  const int s = find(path);
  if (s < 0) return 0;
  double inside = 0;
  for (const Stage& t : stages_)
    if (t.parent == s) inside += t.seconds;
  return stages_[s].seconds - inside;
}

std::vector<double> StageLog::all_seconds() const {
  std::vector<double> out;
  for (const Stage& s : stages_) out.push_back(s.seconds);
  return out;
}

void StageLog::set_all_seconds(std::span<const double> seconds) {
  if (seconds.size() != stages_.size())
    throw std::invalid_argument(
        fmt::format("StageLog: {} seconds given for a log of {} stages", seconds.size(), stages_.size()));
  for (std::size_t i = 0; i < stages_.size(); ++i) stages_[i].seconds = seconds[i];
}

void StageLog::rows_of(int stage, int depth, std::string& out) const {
  const Stage& s = stages_[stage];
  const double whole = stages_.front().seconds;
  const std::string name(static_cast<std::size_t>(2 * depth), ' ');
  out += fmt::format("{:<28} {:>9} {:>10.4f} {:>7.1f}%\n", name + s.name, s.count, s.seconds,
                     whole > 0 ? 100 * s.seconds / whole : 0.0);
  for (std::size_t i = static_cast<std::size_t>(stage) + 1; i < stages_.size(); ++i)
    if (stages_[i].parent == stage) rows_of(static_cast<int>(i), depth + 1, out);
}

std::string StageLog::table() const {
  std::string out = fmt::format("{:<28} {:>9} {:>10} {:>8}\n", "stage", "count", "seconds", "of run");
  rows_of(0, 0, out);
  return out;
}

nlohmann::ordered_json StageLog::json_of(int stage) const {
  const Stage& s = stages_[stage];
  nlohmann::ordered_json j = {{"name", s.name}, {"count", s.count}, {"seconds", s.seconds}};
  nlohmann::ordered_json inside = nlohmann::ordered_json::array();
  for (std::size_t i = static_cast<std::size_t>(stage) + 1; i < stages_.size(); ++i)
    if (stages_[i].parent == stage) inside.push_back(json_of(static_cast<int>(i)));
  if (!inside.empty()) j["stages"] = std::move(inside);
  return j;
}

nlohmann::ordered_json StageLog::json() const { return json_of(0); }

}  // namespace ulibc::harness
