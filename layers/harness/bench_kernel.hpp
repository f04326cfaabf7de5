// harness/bench_kernel.hpp — what every benchmarked kernel gives the harness.
//
// The harness (sweep.hpp) owns the loop over policies and thread counts, the
// binding of the OpenMP team, progress and the choice of the best policy; the
// front end (`ulibc bench`) owns the table, CSV, JSON and plot. A kernel only
// says what it measures: it resolves its options, runs once on a bound team,
// checks its own result and hands back every repetition.
#pragma once
#include <limits>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>
#include <vector>

#include "harness/options.hpp"
#include "ulibc/mapping.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::harness {

enum class Better { higher, lower };

// One figure of one run, e.g. STREAM's Triad bandwidth or EPCC's BARRIER overhead.
struct Measurement {
  std::string name;  // "Triad", "BARRIER", "zdotc"
  std::string unit;  // "MB/s", "us", "GFLOP/s"
  Better better = Better::higher;
  double value = 0;  // the reported figure; the kernel says which (STREAM: best, EPCC: mean)
  double ci95 = std::numeric_limits<double>::quiet_NaN();  // ± half-width of a 95% interval, NaN if none
  std::vector<double> reps;                                // every repetition in `unit`, in the order measured
  // The same figure in other units: {"cycles", 412.0}, {"GB/s", 25.1}.
  std::vector<std::pair<std::string, double>> also;
};

// What one run of a kernel produced. A kernel may return several results per
// run when it compares variants under the same placement (STREAM: ordinary
// and node-distributed arrays).
struct RunResult {
  std::string variant;  // "" when the kernel has one
  std::vector<Measurement> measurements;
  bool valid = false;  // the kernel's own check of its result passed
  std::string check;   // what that check found, one line ("max relative error 1.1e-16")
  // A block of lines in the kernel's own established format (Graph500's
  // "name: value" statistics), printed with the table; "" when none.
  std::string report;
  // The kernel's own record of the run for the JSON (BFS: every search's
  // root, time and edges); null when none.
  nlohmann::ordered_json details;
};

struct RunContext {
  const Topology& topo;
  const Mapping& map;  // thread t of the OpenMP team runs at map[t]
  bool bound = false;  // false under policy none, or when OpenMP's own binding was respected
  int threads() const { return map.size(); }
};

class BenchKernel {
 public:
  virtual ~BenchKernel() = default;
  virtual std::string name() const = 0;         // the subcommand: "stream"
  virtual std::string description() const = 0;  // one line for `ulibc bench --help`
  // Registers the kernel's own options on its subcommand; values live in the kernel.
  virtual void add_options(Options& options) = 0;
  // Called once after parsing, before any run: resolves defaults (`quick`:
  // small and fast, for tests and smoke runs), checks the options and refuses
  // what cannot fit in memory before allocating. Throws Error(input) naming
  // the option or the size it would need. max_threads: the largest team.
  virtual void prepare(const Topology& topo, int max_threads, bool quick) = 0;
  virtual nlohmann::ordered_json parameters() const = 0;  // the resolved options, for the record
  // The measurement --policy best ranks by and the plot leads with ("Triad").
  virtual std::string headline() const = 0;
  // One run on a team of ctx.threads() OpenMP threads, already placed: use
  // `#pragma omp parallel num_threads(ctx.threads())`, so that thread t is map[t].
  virtual std::vector<RunResult> run(const RunContext& ctx) = 0;

  // A kernel that runs across the ranks of an MPI job (BFS under mpirun) says so through the three below; every
  // rank runs the same sweep, and these are called by all of them alike (collective there).
  // The part of the machine this process places its team on under `policy`: the whole of it, or this rank's share
  // (mpi/rank_placement.hpp), inside which the harness builds the run's mapping.
  virtual Topology machine_share(const Topology& topo, const Policy& /*policy*/) { return topo; }
  // Whether `mine` holds on every process of the run: a choice of which runs to make must be the same everywhere.
  virtual bool everywhere(bool mine) { return mine; }
  // Whether this process writes the results (table, CSV, JSON, plot, progress): across ranks, rank 0 alone.
  virtual bool writes_results() const { return true; }
};

}  // namespace ulibc::harness
