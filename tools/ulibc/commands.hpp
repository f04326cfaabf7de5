// commands.hpp — the subcommands of `ulibc` and what they share.
//
// cli_main only sets up CLI11, parses and dispatches: each subcommand registers its own options through the
// harness's (harness/options.hpp, so that no command file compiles CLI11) and hands back the function that runs it. The
// commands live in several programs. `ulibc` (topology, map, run, inspect) stays free of OpenMP, whose runtime would
// read OMP_* variables and pin the process as it starts (ruining `ulibc run`). Every other command runs in its kernel's
// program, `ulibc-<k>` (bench and tune of k, and k's own command: simpath, sssp, gmres, sdp, eigen, bench mpi), which
// `ulibc` starts with the words typed; each program links only its kernel. Adding a command is one file defining
// add_<words>_command and one ulibc_command() entry in CMakeLists.txt, from which the dispatch, the help (catalog.hpp)
// and the program's command list are made.
#pragma once
#include <functional>
#include <memory>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "harness/options.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc::harness {
class BenchKernel;
}

namespace ulibc::cli {

// A registered subcommand. `run` is called only when `app` was chosen on the
// command line; it reports failure by throwing (ulibc::Error or std::exception),
// which main turns into the documented exit codes.
struct Command {
  std::optional<harness::Options> app;
  std::function<void()> run;
  // For a subcommand that runs a program: where main puts the words after
  // "--" (CLI11 would hand them to the parent). nullptr: "--" is an error.
  std::vector<std::string>* program = nullptr;
};

using CommandFactory = Command (*)(harness::Options& parent);

// Thrown by a command whose outcome has its own exit code (gmres: 3 when it did not converge): main prints
// "ulibc: <message>" when there is one and exits with `code`.
struct ExitStatus {
  int code = 1;
  std::string message;
};

Command add_topology_command(harness::Options& parent);
Command add_map_command(harness::Options& parent);
Command add_run_command(harness::Options& parent);
Command add_inspect_command(harness::Options& parent);
// The handed-over commands, each in its kernel's program (catalog.hpp lists them).
Command add_bench_command(harness::Options& parent);
Command add_tune_command(harness::Options& parent);
Command add_simpath_command(harness::Options& parent);
Command add_sssp_command(harness::Options& parent);
Command add_gmres_command(harness::Options& parent);
Command add_sdp_command(harness::Options& parent);
Command add_eigen_command(harness::Options& parent);
Command add_bench_mpi_command(harness::Options& parent);

// The kernel that bench and tune measure in this program (nullptr: none), defined by the program's generated main.
std::unique_ptr<harness::BenchKernel> program_kernel();

// The body of every program's main: parses argv against `factories`' commands,
// runs the chosen one and returns the exit code (0, 1 or 2).
int cli_main(int argc, char** argv, std::span<const CommandFactory> factories, const std::string& description,
             const std::string& footer = "");

// The one line a failure prints, "ulibc: error: MESSAGE", and an outcome's, "ulibc: MESSAGE" (none without a
// message), written out at once.
void print_error(const std::string& message);
void print_status(const ExitStatus& status);

// The command line as typed, for records that say how they were made.
void set_command_line(int argc, char** argv);
const std::string& command_line();

// The options every subcommand shares, one rule for all, stated here and in
// `ulibc --help` (kCommonOptionsHelp):
//  - --json, everywhere: JSON on stdout instead of text. bench and tune run
//    many measurements whose record is large, so theirs is --json [FILE]: the
//    record to FILE, or to stdout without one (or with -).
//  - --fsroot DIR, where a topology is only read, to show or to plan: topology,
//    map, and run, bench and tune with --dry-run (without it they run here, on
//    a machine the snapshot does not describe, so --fsroot is refused). simpath
//    and sssp only run on this machine: they take no --fsroot, and their help says so.
// Each option is registered by the helpers below, never by a command itself.
struct CommonOptions {
  std::string fsroot;  // "" → $ULIBC_FSROOT, else the live machine
  bool json = false;
};
// Whether a command reads --fsroot's machine whenever it runs, or only to plan (--dry-run).
enum class FsrootUse { always, dry_run };
// --fsroot and --json, for the commands that show or plan (topology, map, run).
void add_common_options(harness::Options& sub, CommonOptions& opts, FsrootUse use = FsrootUse::always);
void add_fsroot_option(harness::Options& sub, std::string& fsroot, FsrootUse use);
void add_json_flag(harness::Options& sub, bool& json);
// bench and tune's --json [FILE]; the option tells whether it was given at all.
harness::Option add_json_file_option(harness::Options& sub, std::string& file);
// The machine a command works on. To plan (dry_run), the one below `fsroot` ("" → $ULIBC_FSROOT, else this
// one). To run, this one: Error(input) when --fsroot or $ULIBC_FSROOT names another root, since the command would
// lay out its threads by another machine's processors and bind them on this one's.
Topology load_topology(const std::string& fsroot, bool dry_run, const std::string& command,
                       Detail detail = Detail::full);
// Says in `sub`'s help that it runs on this machine and takes no --fsroot.
void say_runs_here_only(harness::Options& sub);
// The rule above in two lines, for the programs' help.
extern const char* const kCommonOptionsHelp;

// --policy and --threads, for the subcommands that build a mapping.
struct PlacementOptions {
  std::string policy;
  int threads = 0;
  std::optional<harness::Option> policy_opt;
  std::optional<harness::Option> threads_opt;
};
void add_placement_options(harness::Options& sub, PlacementOptions& opts);
// --policy alone, for a command whose every rank runs one thread (bench mpi).
void add_policy_option(harness::Options& sub, PlacementOptions& opts);
// The command line wins, then the environment (ULIBC_POLICY; ULIBC_NUM_THREADS,
// OMP_NUM_THREADS), then scatter and one thread per usable processor. The
// environment is read only when needed, so that a bad value there cannot
// break a command line that overrides it.
Mapping resolve_mapping(const PlacementOptions& opts, const Topology& topo);
// The policy and the thread count alone, by the same precedence (the count's default: `topo`'s usable processors).
Policy resolve_policy(const PlacementOptions& opts);
int resolve_threads(const PlacementOptions& opts, const Topology& topo);
// A warning on stderr when threads share processors.
void warn_if_oversubscribed(const Mapping& map);

// Writes `j` to stdout, indented, newline-terminated.
void print_json(const nlohmann::ordered_json& j);

}  // namespace ulibc::cli
