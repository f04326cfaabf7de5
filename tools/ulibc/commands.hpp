// commands.hpp — the subcommands of `ulibc` and what they share.
//
// main.cpp only sets up CLI11 and dispatches: each subcommand registers its
// own options on the application and hands back the function that runs it,
// so adding `ulibc run` or `ulibc bench` is one new file and one table entry.
#pragma once
#include <functional>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json.hpp>

namespace ulibc::cli {

// A registered subcommand. `run` is called only when `app` was chosen on the
// command line; it reports failure by throwing (ulibc::Error, CLI::ParseError
// or std::exception), which main turns into the documented exit codes.
struct Command {
  CLI::App* app = nullptr;
  std::function<void()> run;
};

using CommandFactory = Command (*)(CLI::App& parent);

Command add_topology_command(CLI::App& parent);
Command add_map_command(CLI::App& parent);

// Options every subcommand takes (SPEC 1.7: each with --json and --fsroot).
struct CommonOptions {
  std::string fsroot;  // "" → $ULIBC_FSROOT, else the live machine
  bool json = false;
};
void add_common_options(CLI::App& sub, CommonOptions& opts);

// Writes `j` to stdout, indented, newline-terminated.
void print_json(const nlohmann::ordered_json& j);

}  // namespace ulibc::cli
