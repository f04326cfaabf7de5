// common.cpp — options and output shared by every subcommand.
#include <fmt/format.h>

#include <iostream>
#include <nlohmann/json.hpp>
#include <set>

#include "commands.hpp"
#include "ulibc/error.hpp"

namespace ulibc::cli {

const char* const kCommonOptionsHelp =
    "Every subcommand takes --json (bench and tune: --json [FILE], the full record to FILE or stdout).\n"
    "--fsroot DIR (a sysfs/procfs snapshot): topology, map, and run/bench/tune with --dry-run;\n"
    "simpath and sssp run on this machine and take no --fsroot.";

void add_fsroot_option(harness::Options& sub, std::string& fsroot, FsrootUse use) {
  const std::string help =
      use == FsrootUse::always
          ? "Read sysfs/procfs below DIR (a snapshot of another machine); default $ULIBC_FSROOT, else /"
          : "With --dry-run: plan for the machine whose sysfs/procfs snapshot is below DIR";
  sub.add("--fsroot", fsroot, help).type_name("DIR");
}

void add_json_flag(harness::Options& sub, bool& json) { sub.flag("--json", json, "Print JSON instead of text"); }

harness::Option add_json_file_option(harness::Options& sub, std::string& file) {
  return sub
      .add("--json", file, "Write the JSON record (every repetition, machine, build) to FILE (no FILE or -: stdout)")
      .optional_value()
      .type_name("[FILE]");
}

void add_common_options(harness::Options& sub, CommonOptions& opts, FsrootUse use) {
  add_fsroot_option(sub, opts.fsroot, use);
  add_json_flag(sub, opts.json);
}

Topology load_topology(const std::string& fsroot, bool dry_run, const std::string& command, Detail detail) {
  if (dry_run) return Topology::load(fsroot, detail);
  if (!fsroot.empty())
    throw input_error("--fsroot " + fsroot + " describes another machine: ulibc " + command +
                      " runs only on this one (--fsroot goes with --dry-run)");
  Topology topo = Topology::load("", detail);
  if (!topo.is_live())
    throw input_error("ULIBC_FSROOT=" + topo.fsroot() + " describes another machine: ulibc " + command +
                      " runs only on this one (unset it; --dry-run --fsroot DIR plans for another)");
  return topo;
}

void say_runs_here_only(harness::Options& sub) {
  sub.footer("Runs on this machine: no --fsroot (ulibc bench " + sub.name() +
             " --dry-run --fsroot DIR plans for another).");
}

void add_policy_option(harness::Options& sub, PlacementOptions& opts) {
  opts.policy_opt = sub.add("--policy,-p", opts.policy,
                            "scatter, compact, compact+, none or list:<cpulist>; default $ULIBC_POLICY, else scatter")
                        .type_name("POLICY");
}

void add_placement_options(harness::Options& sub, PlacementOptions& opts) {
  add_policy_option(sub, opts);
  opts.threads_opt =
      sub.add("--threads,-n", opts.threads,
              "Number of threads; default $ULIBC_NUM_THREADS, else $OMP_NUM_THREADS, else one per usable processor")
          .type_name("N");
}

Policy resolve_policy(const PlacementOptions& opts) {
  return opts.policy_opt->given() ? Policy::parse(opts.policy) : policy_from_env();
}

int resolve_threads(const PlacementOptions& opts, const Topology& topo) {
  return opts.threads_opt->given() ? opts.threads : threads_from_env(topo);
}

Mapping resolve_mapping(const PlacementOptions& opts, const Topology& topo) {
  return Mapping::build(topo, resolve_policy(opts), resolve_threads(opts, topo));
}

void warn_if_oversubscribed(const Mapping& map) {
  if (!map.oversubscribed()) return;
  // Distinct processors: for a list policy with repeats this is fewer than
  // the usable processors, and it is what the threads share.
  std::set<int> procs;
  for (const Placement& p : map.threads()) procs.insert(p.proc);
  fmt::print(stderr, "ulibc: warning: {} threads on {} usable processor{}: oversubscribed, wrapping around\n",
             map.size(), procs.size(), procs.size() == 1 ? "" : "s");
}

void print_json(const nlohmann::ordered_json& j) { std::cout << j.dump(2) << '\n'; }

namespace {
std::string& stored_command_line() {
  static std::string line;
  return line;
}
}  // namespace

// Words with blanks or quotes are single-quoted, so the line can be pasted back.
void set_command_line(int argc, char** argv) {
  std::string line;
  for (int i = 0; i < argc; ++i) {
    std::string word = i == 0 ? std::string("ulibc") : std::string(argv[i]);
    if (word.empty() || word.find_first_of(" \t'\"\\$") != std::string::npos) {
      std::string quoted = "'";
      for (char c : word) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
      word = quoted + "'";
    }
    line += (line.empty() ? "" : " ") + word;
  }
  stored_command_line() = line;
}

const std::string& command_line() { return stored_command_line(); }

}  // namespace ulibc::cli
