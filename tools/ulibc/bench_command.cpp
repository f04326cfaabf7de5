// bench_command.cpp — `ulibc bench <kernel>` and `ulibc tune <kernel>`: thin front ends over the harness.
//
// The harness (layers/harness/sweep.hpp) does the work: bench sweeps policies × thread counts and writes table /
// CSV / JSON / plot; tune (and bench --policy best) measures every policy and names the fastest. `ulibc bench mpi`
// sits among the kernels but runs apart from the harness (bench_mpi_command.cpp).
#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <functional>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>

#include "bench_report.hpp"
#include "catalog.hpp"
#include "commands.hpp"
#include "harness/sweep.hpp"
#include "io/file_io.hpp"
#include "plot.hpp"
#include "ulibc/error.hpp"

namespace ulibc::cli {

namespace {

using harness::BenchKernel;

enum class Mode { sweep, tune };

struct HarnessOptions {
  std::vector<std::string> policies;
  std::vector<int> threads;
  bool quick = false;
  bool dry_run = false;
  std::string fsroot;
  std::string csv, json, plot;
  std::optional<harness::Option> csv_opt;
  std::optional<harness::Option> json_opt;
  std::vector<std::string> plot_measurements;
};

// The program's kernel as a subcommand, with the harness's options and its own.
struct KernelCommand {
  std::unique_ptr<BenchKernel> kernel = program_kernel();
  std::optional<harness::Options> app;
  HarnessOptions options;  // CLI11 keeps pointers into it: the struct stays where make_shared put it
};

void add_harness_options(harness::Options& sub, HarnessOptions& o, Mode mode) {
  if (mode == Mode::sweep)
    sub.add("--policy,-p", o.policies,
            "all (none, scatter, compact, compact+; the default), best (the fastest of scatter, compact "
            "and compact+ at each thread count), or a comma list of none, scatter, compact, compact+, "
            "list:<cpulist>")
        .type_name("POLICY");
  sub.add("--threads,-n", o.threads, "Thread counts, e.g. 1,2,4; default 1, 2, 4, … and every usable processor")
      .list()
      .type_name("LIST");
  sub.flag("--quick", o.quick, "Small and short: for tests and a first look (breaks the kernels' size rules)");
  o.csv_opt = sub.add("--csv", o.csv, "Write CSV, one row per measurement, to FILE (no FILE or -: stdout)")
                  .optional_value()
                  .type_name("[FILE]");
  o.json_opt = add_json_file_option(sub, o.json);
  sub.add("--plot", o.plot, "Draw the results to FILE.png or FILE.svg (matplotlib)").type_name("FILE");
  sub.add("--plot-measurements", o.plot_measurements, "What to plot; default the headline and the next three")
      .list()
      .type_name("NAMES");
  sub.flag("--dry-run", o.dry_run, "Show the runs and their placements; run nothing");
  add_fsroot_option(sub, o.fsroot, FsrootUse::dry_run);
}

// "scatter,compact" → two policies; "list:0,2,1" is one (its commas are the list's).
std::vector<Policy> parse_policies(const std::vector<std::string>& texts) {
  std::vector<Policy> policies;
  for (const std::string& text : texts) {
    std::string_view rest = text;
    while (!rest.empty()) {
      const std::size_t comma = rest.starts_with("list:") ? std::string_view::npos : rest.find(',');
      const std::string_view word = rest.substr(0, comma);
      if (word == "all")
        for (PolicyKind k : {PolicyKind::none, PolicyKind::scatter, PolicyKind::compact, PolicyKind::compact_plus})
          policies.emplace_back(k);
      else if (word == "best")
        throw input_error("--policy best cannot be combined with other policies");
      else
        policies.push_back(Policy::parse(word));
      rest = comma == std::string_view::npos ? std::string_view() : rest.substr(comma + 1);
    }
  }
  return policies;
}

bool wants_best(const HarnessOptions& o) { return o.policies.size() == 1 && o.policies.front() == "best"; }

bool to_stdout(const std::optional<harness::Option>& opt, const std::string& path) {
  return opt->given() && (path.empty() || path == "-");
}

void check_outputs(const HarnessOptions& o) {
  if (to_stdout(o.csv_opt, o.csv) && to_stdout(o.json_opt, o.json))
    throw input_error("--csv and --json cannot both write to stdout: give one of them a FILE");
  if (!o.plot.empty()) check_plot_target(o.plot);
}

// Files first, so that a failing plot cannot cost the numbers. The text form
// is the table (bench) or the choices alone (tune).
void write_outputs(const BenchReport& report, const Topology& topo, const HarnessOptions& o, Mode mode) {
  const nlohmann::ordered_json record = to_json(report, topo);
  if (o.csv_opt->given() && !to_stdout(o.csv_opt, o.csv))
    io::write_file(o.csv, [&](std::ostream& out) { write_csv(out, report); });
  if (o.json_opt->given() && !to_stdout(o.json_opt, o.json))
    io::write_file(o.json, [&](std::ostream& out) { out << record.dump(2) << '\n'; });
  if (to_stdout(o.csv_opt, o.csv))
    write_csv(std::cout, report);
  else if (to_stdout(o.json_opt, o.json))
    print_json(record);
  else if (mode == Mode::tune)
    print_tuning(std::cout, report);
  else
    print_table(std::cout, report);
  if (!o.plot.empty()) draw_plot(record, o.plot, o.plot_measurements);
}

void print_plan(const BenchKernel& kernel, const Topology& topo, const std::vector<Policy>& policies,
                const std::vector<int>& threads, const HarnessOptions& o) {
  nlohmann::ordered_json runs = nlohmann::ordered_json::array();
  for (int t : threads)
    for (const Policy& p : policies) {
      const Mapping map = Mapping::build(topo, p, t);
      std::vector<int> procs;
      for (const Placement& place : map.threads()) procs.push_back(place.proc);
      runs.push_back({{"policy", p.name()}, {"threads", t}, {"procs", procs}});
    }
  if (o.json_opt->given()) {
    print_json({{"kernel", kernel.name()}, {"parameters", kernel.parameters()}, {"runs", runs}});
    return;
  }
  fmt::print("ulibc bench {}: {} runs\nparameters: {}\n", kernel.name(), runs.size(), kernel.parameters().dump());
  for (const auto& run : runs) {
    std::string procs;
    for (int proc : run["procs"]) procs += fmt::format(" {}", proc < 0 ? std::string("-") : std::to_string(proc));
    fmt::print("  {:>4} threads  {:<10} processors{}\n", run["threads"].get<int>(), run["policy"].get<std::string>(),
               procs);
  }
}

// Every rank of a kernel that runs across ranks comes here alike; one writes, the others leave quietly on failure
// (the writer says why).
void run_kernel(BenchKernel& kernel, HarnessOptions& o, Mode mode) {
  const Topology topo = load_topology(o.fsroot, o.dry_run, mode == Mode::tune ? "tune" : "bench");
  const Topology share = kernel.machine_share(topo, Policy(PolicyKind::scatter));  // what one team may fill
  const bool writer = kernel.writes_results();
  // A mistake every rank finds alike (not the kernel's: its own checks agree across ranks) is said by the writer.
  const auto alike = [writer](auto&& check) {
    try {
      return check();
    } catch (const Error& e) {
      if (!writer) throw Error(e.kind(), "");
      throw;
    }
  };
  const std::vector<int> threads = o.threads.empty() ? harness::default_thread_counts(share) : o.threads;
  alike([&] { harness::check_thread_counts(threads, topo); });
  const bool best = mode == Mode::tune || wants_best(o);
  const std::vector<Policy> policies = alike([&] {
    return best ? harness::tuning_candidates()
                : parse_policies(o.policies.empty() ? std::vector<std::string>{"all"} : o.policies);
  });
  const int largest_team = *std::max_element(threads.begin(), threads.end());
  kernel.prepare(topo, largest_team, o.quick);
  if (o.dry_run) return writer ? print_plan(kernel, topo, policies, threads, o) : void();
  alike([&] { check_outputs(o); });
  if (writer) warn_if_oversubscribed(Mapping::build(share, Policy(PolicyKind::scatter), largest_team));

  BenchReport report{.kernel = kernel.name(), .command = command_line(), .headline = kernel.headline()};
  harness::Progress progress(kernel.name(), static_cast<int>(threads.size() * policies.size()), writer);
  alike([&] {
    if (best)
      for (int t : threads) report.tuning.push_back(harness::tune(kernel, topo, t, progress, report.runs));
    else
      report.runs =
          harness::run_sweep(kernel, topo, harness::SweepPlan{.policies = policies, .threads = threads}, progress);
  });
  report.parameters =
      kernel.parameters();  // after the runs: some are resolved while running (EPCC's inner repetitions)

  if (writer) write_outputs(report, topo, o, mode);
  if (const int failed = report.failed_runs())
    throw system_error(writer ? fmt::format("{} of {} runs failed (see the check column)", failed, report.runs.size())
                              : "");
}

Command add_kernel_command(harness::Options& parent, Mode mode, const std::string& name) {
  auto command = std::make_shared<KernelCommand>();
  harness::Options app = parent.subcommand(name, std::string(summary_of(name)));
  app.require_subcommand(0, 1);
  if (command->kernel) {
    command->app = app.subcommand(command->kernel->name(), command->kernel->description());
    add_harness_options(*command->app, command->options, mode);
    command->kernel->add_options(*command->app);
  }
  auto run = [command, name, mode] {
    if (command->app && command->app->parsed()) return run_kernel(*command->kernel, command->options, mode);
    throw input_error("ulibc " + name + " needs a kernel" +
                      (command->kernel ? ": " + command->kernel->name() : std::string()));
  };
  return {app, run};
}

}  // namespace

Command add_bench_command(harness::Options& parent) { return add_kernel_command(parent, Mode::sweep, "bench"); }

Command add_tune_command(harness::Options& parent) { return add_kernel_command(parent, Mode::tune, "tune"); }

}  // namespace ulibc::cli
