// cli_main.cpp — what every program of the command line shares: CLI11's setup, dispatch, and errors.
//
// Every failure becomes one "ulibc: error:" line and an exit code (CONTRIBUTING.md): 0 ok, 2 usage or input error,
// 1 any other failure.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <iostream>
#include <nlohmann/json.hpp>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "commands.hpp"
#include "ulibc/error.hpp"

namespace {

using ulibc::cli::Command;

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

int fail(int code, const std::string& message) {
  ulibc::cli::print_error(message);
  return code;
}

std::string command_names(const std::vector<Command>& commands) {
  std::string names;
  for (const Command& c : commands) names += (names.empty() ? "" : ", ") + c.app->name();
  return names;
}

bool names_fsroot(int argc, char** argv) {
  return std::any_of(argv + 1, argv + argc,
                     [](std::string_view word) { return word == "--fsroot" || word.starts_with("--fsroot="); });
}

// CLI11 reports a mistyped subcommand as an unexpected extra argument; say
// what actually went wrong and what would have been accepted.
int report_parse_error(CLI::App& app, const CLI::ParseError& e, const std::vector<Command>& commands, int argc,
                       char** argv) {
  if (e.get_exit_code() == static_cast<int>(CLI::ExitCodes::Success)) return app.exit(e);  // --help, --version
  const bool no_subcommand = app.get_subcommands().empty();
  if (dynamic_cast<const CLI::ExtrasError*>(&e) && no_subcommand && argc > 1 && argv[1][0] != '-')
    return fail(kExitUsage,
                "unknown subcommand \"" + std::string(argv[1]) + "\"; available: " + command_names(commands));
  if (!no_subcommand) {
    // `ulibc bench strem`: a mistyped kernel is the first word after the subcommand.
    CLI::App* chosen = app.get_subcommands().front();
    const auto kernels = chosen->get_subcommands([](CLI::App*) { return true; });
    if (dynamic_cast<const CLI::ExtrasError*>(&e) && !kernels.empty() && chosen->get_subcommands().empty() &&
        argc > 2 && argv[2][0] != '-') {
      std::string names;
      for (const CLI::App* k : kernels) names += (names.empty() ? "" : ", ") + k->get_name();
      return fail(kExitUsage, "unknown kernel \"" + std::string(argv[2]) + "\" for ulibc " + chosen->get_name() +
                                  "; available: " + names);
    }
    // simpath and sssp take no --fsroot by the common rule (commands.hpp): say why, not just "not expected".
    if (dynamic_cast<const CLI::ExtrasError*>(&e) && kernels.empty() && !chosen->get_option_no_throw("--fsroot") &&
        names_fsroot(argc, argv))
      return fail(kExitUsage, "ulibc " + chosen->get_name() + " runs on this machine only: it takes no --fsroot");
  }
  const std::string help =
      no_subcommand ? "ulibc --help" : "ulibc " + app.get_subcommands().front()->get_name() + " --help";
  return fail(kExitUsage, std::string(e.what()) + " (see '" + help + "')");
}

int run(const Command& command) {
  try {
    command.run();
    return kExitOk;
  } catch (const ulibc::cli::ExitStatus& e) {
    ulibc::cli::print_status(e);
    return e.code;
  } catch (const ulibc::Error& e) {
    const int code = e.kind() == ulibc::ErrorKind::input ? kExitUsage : kExitFailure;
    // No message: another rank of the same MPI job has reported it (mpi/comm.hpp's FailedElsewhere).
    return *e.what() ? fail(code, e.what()) : code;
  } catch (const std::exception& e) {
    return fail(kExitFailure, e.what());
  }
}

}  // namespace

namespace ulibc::cli {

void print_error(const std::string& message) { std::cerr << "ulibc: error: " << message << std::endl; }

void print_status(const ExitStatus& status) {
  if (!status.message.empty()) std::cerr << "ulibc: " << status.message << std::endl;
}

int cli_main(int argc, char** argv, std::span<const CommandFactory> factories, const std::string& description,
             const std::string& footer) {
  CLI::App app(description, "ulibc");
  app.set_version_flag("--version", ULIBC_VERSION);
  app.require_subcommand(0, 1);  // none chosen → help and exit 2 below, not CLI11's terse message
  if (!footer.empty()) app.footer(footer);
  std::vector<Command> commands;
  harness::Options root(app);
  for (CommandFactory add : factories) commands.push_back(add(root));

  // The words after "--" are a program and its arguments (ulibc run), never ours.
  const auto dashes = std::find(argv + 1, argv + argc, std::string_view("--"));
  const std::vector<std::string> program(dashes == argv + argc ? dashes : dashes + 1, argv + argc);
  const int own_argc = static_cast<int>(dashes - argv);
  set_command_line(argc, argv);
  try {
    app.parse(own_argc, argv);
  } catch (const CLI::ParseError& e) {
    return report_parse_error(app, e, commands, own_argc, argv);
  }
  const auto chosen = std::find_if(commands.begin(), commands.end(), [](const Command& c) { return c.app->parsed(); });
  if (chosen == commands.end()) {
    std::cerr << app.help();
    return kExitUsage;
  }
  if (dashes != argv + argc) {
    if (!chosen->program) return fail(kExitUsage, "ulibc " + chosen->app->name() + " takes no program after \"--\"");
    if (!chosen->app->remaining().empty())
      return fail(kExitUsage, "a program both before and after \"--\": " + chosen->app->remaining().front());
    *chosen->program = program;
  }
  return run(*chosen);
}

}  // namespace ulibc::cli
