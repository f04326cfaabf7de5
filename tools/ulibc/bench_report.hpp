// bench_report.hpp — what `ulibc bench` and `ulibc tune` record, and its three
// forms: a table for people, CSV for spreadsheets (one row per measurement),
// JSON for everything (every repetition, the machine, the build, the command).
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "harness/sweep.hpp"

namespace ulibc::cli {

struct BenchReport {
  std::string kernel;
  std::string command;  // the command line, as typed
  std::string headline;
  nlohmann::ordered_json parameters;
  std::vector<harness::RunRecord> runs;
  std::vector<harness::TuneChoice> tuning;  // --policy best / ulibc tune; indices into runs

  bool chosen(std::size_t run) const;  // the winner of its tuning (always false without tuning)
  int failed_runs() const;
};

void print_table(std::ostream& out, const BenchReport& report);
void print_tuning(std::ostream& out, const BenchReport& report);  // "at 2 threads: compact, 3.1% over scatter"
void write_csv(std::ostream& out, const BenchReport& report);
nlohmann::ordered_json to_json(const BenchReport& report, const Topology& topo);

// What every benchmark record says of when and where it ran and how ULIBC was built (`ulibc bench mpi` writes
// them too): the UTC date; the host name, kernel and architecture with the whole topology; the version, compiler,
// build type and flags.
std::string record_date();
nlohmann::ordered_json machine_json(const Topology& topo);
nlohmann::ordered_json build_json();

}  // namespace ulibc::cli
