// harness/stage_log.hpp — one log of where a run's time went, as PETSc's -log_view is one: named stages, nested as
// they ran, each with how often it ran and its seconds, printed the same way by every solver (a table and JSON).
//
//   StageLog log("solve");                      // the whole run, its clock started
//   { StageLog::Timed t(log, "correction");     // a stage inside the one open when it starts
//     { StageLog::Timed s(log, "spmv"); ... } } // correction/spmv: another stage than a top-level spmv
//   log.add("comm", seconds);                   // a time measured elsewhere, as one run inside the open stage
//   log.finish();                               // the whole run's seconds
//   log.seconds("correction/spmv"); log.total("spmv"); log.table(); log.json();
//
// Stages of one name inside one parent are one entry: their runs are counted and their seconds added. A log is kept
// by the one thread that runs the solver's steps (the OpenMP teams it starts time nothing themselves).
#pragma once
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace ulibc::harness {

class StageLog {
 public:
  explicit StageLog(std::string run = "total");

  // Times one stage from construction to destruction, however the scope is left.
  class Timed {
   public:
    Timed(StageLog& log, std::string_view name);
    ~Timed();
    Timed(const Timed&) = delete;
    Timed& operator=(const Timed&) = delete;

   private:
    StageLog& log_;
    int stage_, outer_;
    double start_;
  };

  // One run of `name`, inside the open stage, that took `seconds` measured elsewhere.
  void add(std::string_view name, double seconds);
  // The whole run's seconds: from construction to now.
  void finish();

  // The seconds and runs of the stage at `path` ("correction/spmv": spmv inside correction; "": the whole run), 0
  // when it never ran.
  double seconds(std::string_view path = {}) const;
  std::int64_t count(std::string_view path) const;
  // The seconds of every stage named `name`, wherever it ran.
  double total(std::string_view name) const;
  // The seconds of the stage at `path` that none of its own stages account for.
  double unaccounted(std::string_view path = {}) const;

  // Every stage's seconds, in the log's order, and back: for a reduction across the ranks of a job, whose logs have
  // the same stages when the ranks ran the same steps.
  std::vector<double> all_seconds() const;
  void set_all_seconds(std::span<const double> seconds);

  // One row per stage, inside its parent and indented: runs, seconds, share of the whole run.
  std::string table() const;
  // {"name", "count", "seconds", "stages": [the stages inside, the same way]}.
  nlohmann::ordered_json json() const;

 private:
  struct Stage {
    std::string name;
    int parent = -1;
    std::int64_t count = 0;
    double seconds = 0;
  };
  int child(int parent, std::string_view name);
  int find(std::string_view path) const;
  nlohmann::ordered_json json_of(int stage) const;
  void rows_of(int stage, int depth, std::string& out) const;

  std::vector<Stage> stages_;  // [0]: the whole run; a stage after its parent
  int open_ = 0;               // the innermost stage running
  double start_;
};

}  // namespace ulibc::harness
