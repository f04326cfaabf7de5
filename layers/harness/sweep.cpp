// harness/sweep.cpp — runs a kernel under each policy and thread count on a bound team, and chooses the fastest.
#include "harness/sweep.hpp"

#include <fmt/format.h>
#include <omp.h>

#include <algorithm>
#include <iostream>
#include <optional>

#include "harness/stats.hpp"
#include "harness/timer.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::harness {

namespace {

// Progress appears only after this long, so that tests and --quick stay quiet.
constexpr double kQuietSeconds = 3.0;

// Where each member of a bound team is allowed to run now, against its
// mapping: a run measures the policy only if no thread moved. OpenMP runtimes
// keep thread t on the same pool thread between regions of one size; this
// catches one that does not.
std::string placement_drift(const Mapping& map) {
  std::vector<CpuSet> masks(static_cast<std::size_t>(map.size()));
#pragma omp parallel num_threads(map.size())
  masks[omp_get_thread_num()] = current_affinity();
  for (int t = 0; t < map.size(); ++t) {
    const CpuSet& mask = masks[t];
    if (!(mask == CpuSet{map[t].proc}))
      return fmt::format("thread {} ended the run allowed on {}, mapped to processor {}", t, mask.to_list(),
                         map[t].proc);
  }
  return "";
}

// What the team's binding says about the run: where it ran, or why it was not bound.
void record_binding(const TeamBinding& binding, RunRecord& record) {
  if (binding.bound)
    record.cpus = binding.cpus;
  else
    record.not_bound = binding.reason;
}

RunRecord run_once(BenchKernel& kernel, const Topology& topo, const Policy& policy, int threads) {
  const Topology share = kernel.machine_share(topo, policy);
  const Mapping map = Mapping::build(share, policy, threads);
  RunRecord record{.policy = policy.name(), .threads = threads};
  const Timer timer;
  {
    // Policy none is the unbound baseline: no team is bound, and no reason recorded.
    std::optional<ScopedOpenMPTeam> team;
    if (policy.kind() != PolicyKind::none) team.emplace(map);
    const bool bound = team && team->bound();
    if (team) record_binding(team->binding(), record);
    try {
      record.results = kernel.run(RunContext{.topo = share, .map = map, .bound = bound});
    } catch (const std::exception& e) {
      record.error = e.what();
    }
    // Read while the team is still bound: the guard gives back the masks as it goes.
    if (bound) record.drift = placement_drift(map);
  }
  record.seconds = timer.seconds();
  return record;
}

double headline_value(const RunRecord& run, const std::string& headline) { return headline_of(run, headline).value; }

bool same_placement(const Mapping& a, const Mapping& b) {
  for (int t = 0; t < a.size(); ++t)
    if (a[t].proc != b[t].proc) return false;
  return true;
}

// How much better `best` is than `other`, as a fraction of the worse one.
double margin_over(double best, double other, Better better) {
  return better == Better::higher ? best / other - 1 : other / best - 1;
}

}  // namespace

bool RunRecord::valid() const {
  return drift.empty() && error.empty() && !results.empty() &&
         std::all_of(results.begin(), results.end(), [](const RunResult& r) { return r.valid; });
}

const Measurement& headline_of(const RunRecord& run, const std::string& headline) {
  const Measurement* best = nullptr;
  for (const RunResult& r : run.results)
    for (const Measurement& m : r.measurements)
      if (m.name == headline && (!best || better_than(m.value, best->value, m.better))) best = &m;
  if (!best) throw system_error("the kernel reported no \"" + headline + "\" measurement");
  return *best;
}

Progress::Progress(std::string kernel, int total_runs, bool enabled)
    : kernel_(std::move(kernel)), total_(total_runs), enabled_(enabled), start_(now_seconds()) {}

void Progress::finished(const RunRecord& run) {
  ++done_;
  const double elapsed = now_seconds() - start_;
  if (!enabled_ || elapsed < kQuietSeconds) return;
  std::string line = fmt::format("{}: {}/{} runs ({} threads, {}: {:.1f} s)", kernel_, done_, total_, run.threads,
                                 run.policy, run.seconds);
  if (done_ < total_) line += fmt::format(", about {:.0f} s left", elapsed / done_ * (total_ - done_));
  std::cerr << line << '\n';
}

std::vector<RunRecord> run_sweep(BenchKernel& kernel, const Topology& topo, const SweepPlan& plan, Progress& progress) {
  std::vector<RunRecord> records;
  for (int threads : plan.threads)
    for (const Policy& policy : plan.policies) {
      records.push_back(run_once(kernel, topo, policy, threads));
      progress.finished(records.back());
    }
  return records;
}

std::vector<Policy> tuning_candidates() {
  return {Policy(PolicyKind::scatter), Policy(PolicyKind::compact), Policy(PolicyKind::compact_plus)};
}

TuneChoice tune(BenchKernel& kernel, const Topology& topo, int threads, Progress& progress,
                std::vector<RunRecord>& records) {
  TuneChoice choice{.threads = threads};
  std::vector<Mapping> measured;
  for (const Policy& policy : tuning_candidates()) {
    const Mapping map = Mapping::build(kernel.machine_share(topo, policy), policy, threads);
    const auto twin =
        std::find_if(measured.begin(), measured.end(), [&](const Mapping& m) { return same_placement(m, map); });
    if (kernel.everywhere(twin != measured.end())) {
      choice.notes.push_back(
          fmt::format("{} gives the same placement as {}: measured once", policy.name(), twin->policy().name()));
      continue;
    }
    measured.push_back(map);
    choice.runs.push_back(records.size());
    records.push_back(run_once(kernel, topo, policy, threads));
    progress.finished(records.back());
  }
  choose_best(choice, records, kernel.headline());
  return choice;
}

void choose_best(TuneChoice& choice, const std::vector<RunRecord>& records, const std::string& headline) {
  std::vector<std::size_t> ranked;
  for (std::size_t i : choice.runs) {
    if (records[i].valid())
      ranked.push_back(i);
    else
      choice.notes.push_back(records[i].policy + " failed its checks: not a candidate");
  }
  if (ranked.empty()) throw system_error(fmt::format("no policy passed the checks at {} threads", choice.threads));
  const Better better = headline_of(records[ranked.front()], headline).better;
  std::stable_sort(ranked.begin(), ranked.end(), [&](std::size_t a, std::size_t b) {
    return better_than(headline_value(records[a], headline), headline_value(records[b], headline), better);
  });
  choice.best = records[ranked[0]].policy;
  if (ranked.size() > 1) {
    choice.runner_up = records[ranked[1]].policy;
    choice.margin =
        margin_over(headline_value(records[ranked[0]], headline), headline_value(records[ranked[1]], headline), better);
  }
}

void check_thread_counts(const std::vector<int>& threads, const Topology& topo) {
  const int usable = topo.usable().count();
  if (threads.empty()) throw input_error("--threads: no thread count given");
  for (int t : threads) {
    if (t < 1) throw input_error(fmt::format("--threads {}: a team needs at least one thread", t));
    if (t > kMaxOversubscription * usable)
      throw input_error(
          fmt::format("--threads {}: more than {} threads per usable processor ({} usable); "
                      "a benchmark that oversubscribed measures only the scheduler",
                      t, kMaxOversubscription, usable));
  }
}

std::vector<int> default_thread_counts(const Topology& topo) {
  const int usable = std::max(1, topo.usable().count());
  std::vector<int> counts;
  for (int t = 1; t < usable; t *= 2) counts.push_back(t);
  counts.push_back(usable);
  return counts;
}

}  // namespace ulibc::harness
