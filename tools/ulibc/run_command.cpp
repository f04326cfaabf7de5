// run_command.cpp — `ulibc run`: starts an unmodified OpenMP program with a policy's placement.
//
// The program's runtime is handed the mapping as explicit places, the way one would by hand with OMP_PLACES and
// OMP_PROC_BIND (docs/BINDING.md); which variables are set and unset is decided once, by openmp_environment().
// Started by an MPI launcher (mpirun -n K ulibc run ...), each process takes its local rank's share of the machine
// (ulibc/rank_share.hpp) and places its threads inside it, so that hybrid MPI + OpenMP programs need no change.
// With --report the program is a child instead, watched until it ends, and the report says where it really ran.
#include <fmt/format.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "commands.hpp"
#include "inspect_report.hpp"
#include "ulibc/error.hpp"
#include "ulibc/inspect.hpp"
#include "ulibc/openmp_environment.hpp"
#include "ulibc/rank_share.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::cli {

namespace {

struct RunOptions {
  CommonOptions common;
  PlacementOptions placement;
  bool dry_run = false;
  bool report = false;
  std::vector<std::string> command;
};

// Says which of the user's settings the launch replaces: never silently.
void report_replaced(const OpenMPEnvironment& env) {
  auto report = [](const std::string& name, const std::string& with) {
    const char* old = std::getenv(name.c_str());
    if (old && with != old) fmt::print(stderr, "ulibc: run: replacing {}={} ({})\n", name, old, with);
  };
  for (const auto& [name, value] : env.set) report(name, "now " + value);
  for (const auto& name : env.unset) report(name, "unset");
}

std::string shell_quote(const std::string& word) {
  if (!word.empty() &&
      word.find_first_not_of("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-+=/.,:@%") ==
          std::string::npos)
    return word;
  std::string quoted = "'";
  for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// The launch as one shell command: env -u … NAME=value … program args.
std::string as_shell_command(const OpenMPEnvironment& env, const std::vector<std::string>& command) {
  std::string line = "env";
  for (const auto& name : env.unset) line += " -u " + name;
  for (const auto& [name, value] : env.set) line += " " + shell_quote(name + "=" + value);
  for (const auto& word : command) line += " " + shell_quote(word);
  return line;
}

// `view`: the machine the program's threads go on, a local rank's share when a launcher started this process.
void print_plan(const RunOptions& o, const Mapping& map, const OpenMPEnvironment& env, const ProcessView& view) {
  if (o.common.json) {
    nlohmann::ordered_json j;
    j["policy"] = map.policy().name();
    j["threads"] = map.size();
    if (view.rank)
      j["local_rank"] = {
          {"rank", view.rank->rank}, {"ranks", view.rank->ranks}, {"processors", view.topo.usable().to_list()}};
    j["set"] = nlohmann::ordered_json::object();
    for (const auto& [name, value] : env.set) j["set"][name] = value;
    j["unset"] = env.unset;
    j["command"] = o.command;
    print_json(j);
    return;
  }
  if (view.rank)
    fmt::print("# local rank {} of {}: processors {}\n", view.rank->rank, view.rank->ranks,
               view.topo.usable().to_list());
  for (const auto& [name, value] : env.set) fmt::print("{}={}\n", name, value);
  for (const auto& name : env.unset) fmt::print("unset {}\n", name);
  fmt::print("{}\n", as_shell_command(env, o.command));
}

void apply_environment(const OpenMPEnvironment& env) {
  for (const auto& [name, value] : env.set) ::setenv(name.c_str(), value.c_str(), 1);
  for (const auto& name : env.unset) ::unsetenv(name.c_str());
}

[[noreturn]] void exec(const OpenMPEnvironment& env, const std::vector<std::string>& command) {
  apply_environment(env);
  std::vector<char*> argv;
  for (const auto& word : command) argv.push_back(const_cast<char*>(word.c_str()));
  argv.push_back(nullptr);
  ::execvp(argv[0], argv.data());
  throw system_error("cannot run \"" + command.front() + "\": " + std::strerror(errno));
}

// --report: the program runs as a child, sampled until it ends (ulibc/inspect.hpp), and this process exits as it did.
[[noreturn]] void run_and_report(const RunOptions& o, const OpenMPEnvironment& env) {
  const Topology here = Topology::load("", Detail::placement);
  apply_environment(env);
  const WatchedRun run = run_inspected(here, o.command);
  std::fflush(stdout);
  if (run.report)
    print_report(*run.report, {.json = o.common.json, .age_ms = run.age.count()});
  else
    fmt::print(stderr, "ulibc: run: {} ended before it could be inspected\n", o.command.front());
  throw ExitStatus{run.exit_code, ""};
}

void run_run(RunOptions& o, const harness::Options& sub) {
  if (o.command.empty()) o.command = sub.remaining();  // no "--": the program is the first positional
  if (o.command.empty() && !o.dry_run)
    throw input_error("no program to run (ulibc run [options] -- PROGRAM [ARGS...])");
  const Policy policy = resolve_policy(o.placement);
  // One of several processes on this machine: its threads go inside its share.
  const ProcessView view = launcher_view(load_topology(o.common.fsroot, o.dry_run, "run", Detail::placement), policy);
  const Mapping map = Mapping::build(view.topo, policy, resolve_threads(o.placement, view.topo));
  warn_if_oversubscribed(map);
  const OpenMPEnvironment env = openmp_environment(map);
  if (o.dry_run) return print_plan(o, map, env, view);
  report_replaced(env);
  if (o.report) run_and_report(o, env);
  exec(env, o.command);
}

}  // namespace

Command add_run_command(harness::Options& parent) {
  auto opts = std::make_shared<RunOptions>();
  harness::Options sub = parent.subcommand(
      "run", "Run an OpenMP program with a policy's placement (sets OMP_PLACES, OMP_PROC_BIND, OMP_NUM_THREADS)");
  add_placement_options(sub, opts->placement);
  sub.flag("--dry-run", opts->dry_run, "Print the environment and command instead of running it");
  sub.flag("--report", opts->report,
           "Run the program as a child and, when it ends, print where its threads and memory were "
           "(ulibc inspect's report); exit with its status");
  add_common_options(sub, opts->common, FsrootUse::dry_run);
  // Everything from the program name on belongs to the program, options
  // included; main hands over what follows a "--".
  sub.prefix_command();
  sub.footer(
      "Usage: ulibc run [OPTIONS] [--] PROGRAM [ARGS...]\nExample: ulibc run --policy compact -n 8 -- ./stream\n");
  return {sub, [opts, sub] { run_run(*opts, sub); }, &opts->command};
}

}  // namespace ulibc::cli
