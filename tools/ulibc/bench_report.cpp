// bench_report.cpp — the table, CSV and JSON forms of a benchmark's record.
#include "bench_report.hpp"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sys/utsname.h>

#include <algorithm>
#include <chrono>
#include <cmath>

#include "harness/build_info.hpp"
#include "harness/stats.hpp"
#include "json.hpp"
#include "table.hpp"

namespace ulibc::cli {

namespace {

using harness::Measurement;
using harness::RunRecord;
using harness::RunResult;
using nlohmann::ordered_json;

// Beyond this many measurements a run reads better as one line per measurement.
constexpr std::size_t kMaxWideColumns = 6;

std::string with_ci(const Measurement& m) {
  return std::isnan(m.ci95) ? number(m.value) : number(m.value) + " ±" + number(m.ci95);
}

std::string check_cell(const RunRecord& run, const RunResult& result) {
  if (!run.drift.empty()) return "MOVED: " + run.drift;
  if (!result.valid) return "FAILED: " + result.check;
  return run.not_bound.empty() ? "ok" : "ok, unbound";
}

// Measurement names in the order the first run reported them.
std::vector<std::pair<std::string, std::string>> measurement_columns(const BenchReport& report) {
  std::vector<std::pair<std::string, std::string>> names;
  for (const RunRecord& run : report.runs)
    for (const RunResult& r : run.results)
      for (const Measurement& m : r.measurements)
        if (std::none_of(names.begin(), names.end(), [&](const auto& n) { return n.first == m.name; }))
          names.emplace_back(m.name, m.unit);
  return names;
}

const Measurement* find(const RunResult& r, const std::string& name) {
  const auto it =
      std::find_if(r.measurements.begin(), r.measurements.end(), [&](const Measurement& m) { return m.name == name; });
  return it == r.measurements.end() ? nullptr : &*it;
}

std::string policy_cell(const BenchReport& report, std::size_t run) {
  return report.runs[run].policy + (report.chosen(run) ? " *" : "");
}

void print_wide(std::ostream& out, const BenchReport& report) {
  const auto columns = measurement_columns(report);
  std::vector<Table::Column> header = {{"policy", true}, {"threads"}, {"variant", true}};
  for (const auto& [name, unit] : columns) header.push_back({name + " " + unit});
  header.push_back({"check", true});
  Table t(header);
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    if (!report.runs[i].error.empty()) {
      std::vector<std::string> row(header.size(), "-");
      row[0] = policy_cell(report, i);
      row[1] = std::to_string(report.runs[i].threads);
      row.back() = "ERROR: " + report.runs[i].error;
      t.add(row);
    }
    for (const RunResult& r : report.runs[i].results) {
      std::vector<std::string> row = {policy_cell(report, i), std::to_string(report.runs[i].threads),
                                      r.variant.empty() ? "-" : r.variant};
      for (const auto& column : columns) {
        const Measurement* m = find(r, column.first);
        row.push_back(m ? with_ci(*m) : "-");
      }
      row.push_back(check_cell(report.runs[i], r));
      t.add(row);
    }
  }
  t.print(out);
}

void print_long(std::ostream& out, const BenchReport& report) {
  Table t({{"policy", true},
           {"threads"},
           {"variant", true},
           {"measurement", true},
           {"value"},
           {"unit", true},
           {"also", true},
           {"check", true}});
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    if (!report.runs[i].error.empty())
      t.add({policy_cell(report, i), std::to_string(report.runs[i].threads), "-", "-", "-", "-", "-",
             "ERROR: " + report.runs[i].error});
    for (const RunResult& r : report.runs[i].results)
      for (const Measurement& m : r.measurements) {
        std::string also;
        for (const auto& [unit, value] : m.also) also += (also.empty() ? "" : ", ") + number(value) + " " + unit;
        t.add({policy_cell(report, i), std::to_string(report.runs[i].threads), r.variant.empty() ? "-" : r.variant,
               m.name, with_ci(m), m.unit, also.empty() ? "-" : also, check_cell(report.runs[i], r)});
      }
  }
  t.print(out);
}

// CSV fields are quoted only when they must be (RFC 4180).
std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_number(double x) { return std::isnan(x) ? "" : fmt::format("{}", x); }

ordered_json measurement_json(const Measurement& m) {
  ordered_json also = ordered_json::object();
  for (const auto& [unit, value] : m.also) also[unit] = value;
  return {{"name", m.name},
          {"unit", m.unit},
          {"better", m.better == harness::Better::higher ? "higher" : "lower"},
          {"value", m.value},
          {"ci95", std::isnan(m.ci95) ? ordered_json(nullptr) : ordered_json(m.ci95)},
          {"median", harness::median(m.reps)},
          {"reps", m.reps},
          {"also", also}};
}

ordered_json run_json(const BenchReport& report, std::size_t i) {
  const RunRecord& run = report.runs[i];
  ordered_json results = ordered_json::array();
  for (const RunResult& r : run.results) {
    ordered_json measurements = ordered_json::array();
    for (const Measurement& m : r.measurements) measurements.push_back(measurement_json(m));
    ordered_json result = {
        {"variant", r.variant}, {"valid", r.valid}, {"check", r.check}, {"measurements", measurements}};
    if (!r.report.empty()) result["report"] = r.report;
    if (!r.details.is_null()) result["details"] = r.details;
    results.push_back(std::move(result));
  }
  return {{"policy", run.policy}, {"threads", run.threads}, {"cpus", run.cpus},           {"not_bound", run.not_bound},
          {"drift", run.drift},   {"error", run.error},     {"chosen", report.chosen(i)}, {"seconds", run.seconds},
          {"valid", run.valid()}, {"results", results}};
}

ordered_json tuning_json(const BenchReport& report, const harness::TuneChoice& c) {
  ordered_json candidates = ordered_json::array();
  for (std::size_t i : c.runs)
    candidates.push_back(
        {{"policy", report.runs[i].policy},
         {"value", report.runs[i].valid() ? ordered_json(harness::headline_of(report.runs[i], report.headline).value)
                                          : ordered_json(nullptr)}});
  return {{"threads", c.threads}, {"best", c.best},           {"runner_up", c.runner_up},
          {"margin", c.margin},   {"candidates", candidates}, {"notes", c.notes}};
}

}  // namespace

ordered_json machine_json(const Topology& topo) {
  utsname u{};
  const bool named = uname(&u) == 0;
  return {{"hostname", named ? u.nodename : ""},
          {"kernel", named ? std::string(u.sysname) + " " + u.release : ""},
          {"arch", named ? u.machine : ""},
          {"topology", to_json(topo)}};
}

std::string record_date() {
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(std::chrono::system_clock::now()));
}

ordered_json build_json() {
  const harness::BuildInfo build = harness::build_info();
  return {{"ulibc", build.version},
          {"compiler", build.compiler},
          {"build_type", build.build_type},
          {"flags", build.flags},
          {"openmp", build.openmp}};
}

bool BenchReport::chosen(std::size_t run) const {
  return std::any_of(tuning.begin(), tuning.end(), [&](const harness::TuneChoice& c) {
    return std::find(c.runs.begin(), c.runs.end(), run) != c.runs.end() && runs[run].policy == c.best;
  });
}

int BenchReport::failed_runs() const {
  return static_cast<int>(std::count_if(runs.begin(), runs.end(), [](const RunRecord& r) { return !r.valid(); }));
}

// Each run's own report block, headed by the run it belongs to.
void print_run_reports(std::ostream& out, const BenchReport& report) {
  for (const RunRecord& run : report.runs)
    for (const RunResult& r : run.results) {
      if (r.report.empty()) continue;
      out << fmt::format("# {} {}, {} thread{}{}\n", report.kernel, run.policy, run.threads,
                         run.threads == 1 ? "" : "s", r.variant.empty() ? "" : ", " + r.variant)
          << r.report << (r.report.ends_with('\n') ? "\n" : "\n\n");
    }
}

void print_table(std::ostream& out, const BenchReport& report) {
  print_run_reports(out, report);
  if (measurement_columns(report).size() <= kMaxWideColumns)
    print_wide(out, report);
  else
    print_long(out, report);
  if (!report.tuning.empty()) print_tuning(out, report);
}

void print_tuning(std::ostream& out, const BenchReport& report) {
  for (const harness::TuneChoice& c : report.tuning) {
    const auto winner =
        std::find_if(c.runs.begin(), c.runs.end(), [&](std::size_t i) { return report.runs[i].policy == c.best; });
    const harness::Measurement& value = harness::headline_of(report.runs[*winner], report.headline);
    std::string line = fmt::format("best at {} thread{}: {} ({} {} {})", c.threads, c.threads == 1 ? "" : "s", c.best,
                                   report.headline, number(value.value), value.unit);
    if (!c.runner_up.empty())
      line += fmt::format(", {:.1f}% {} than {}", 100 * c.margin,
                          value.better == harness::Better::higher ? "higher" : "lower", c.runner_up);
    out << line << '\n';
    for (const std::string& note : c.notes) out << "  " << note << '\n';
  }
}

void write_csv(std::ostream& out, const BenchReport& report) {
  out << "kernel,policy,threads,variant,measurement,unit,value,ci95,median,reps,valid,chosen\n";
  for (std::size_t i = 0; i < report.runs.size(); ++i) {
    if (!report.runs[i].error.empty())
      out << fmt::format("{},{},{},,,,,,,,false,false\n", csv_field(report.kernel), csv_field(report.runs[i].policy),
                         report.runs[i].threads);
    for (const RunResult& r : report.runs[i].results)
      for (const Measurement& m : r.measurements) {
        std::string reps;
        for (double x : m.reps) reps += (reps.empty() ? "" : ";") + csv_number(x);
        out << fmt::format("{},{},{},{},{},{},{},{},{},{},{},{}\n", csv_field(report.kernel),
                           csv_field(report.runs[i].policy), report.runs[i].threads, csv_field(r.variant),
                           csv_field(m.name), csv_field(m.unit), csv_number(m.value), csv_number(m.ci95),
                           csv_number(harness::median(m.reps)), reps, r.valid && report.runs[i].valid(),
                           report.chosen(i));
      }
  }
}

ordered_json to_json(const BenchReport& report, const Topology& topo) {
  ordered_json runs = ordered_json::array();
  for (std::size_t i = 0; i < report.runs.size(); ++i) runs.push_back(run_json(report, i));
  ordered_json tuning = ordered_json::array();
  for (const harness::TuneChoice& c : report.tuning) tuning.push_back(tuning_json(report, c));
  return {{"kernel", report.kernel},
          {"command", report.command},
          {"date", record_date()},
          {"machine", machine_json(topo)},
          {"build", build_json()},
          {"parameters", report.parameters},
          {"headline", report.headline},
          {"runs", runs},
          {"tuning", tuning},
          {"failed_runs", report.failed_runs()}};
}

}  // namespace ulibc::cli
