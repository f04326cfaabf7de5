// main.cpp — `ulibc`: topology, map, run, inspect here; every other command handed to its kernel's program.
//
// The kernels' commands run in programs of their own, ulibc-<k> (commands.hpp says why); catalog.hpp, generated
// from the ulibc_command() entries, says which program runs which words.
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "catalog.hpp"
#include "commands.hpp"
#include "ulibc/error.hpp"

namespace {

using ulibc::cli::Command;
using ulibc::cli::HandedOver;
using ulibc::cli::kBenchKernels;
using ulibc::cli::kHandedOver;

constexpr std::string_view kAnyKernel = "<kernel>";

bool is_bench_kernel(std::string_view name) {
  return std::any_of(std::begin(kBenchKernels), std::end(kBenchKernels), [&](const auto& k) { return k.name == name; });
}

// The kernel whose program runs the words typed ("bench stream", "bench mpi", "simpath"), or "" when no program does.
std::string_view program_kernel_for(int argc, char** argv) {
  const std::string_view first = argc > 1 ? argv[1] : "";
  const std::string_view second = argc > 2 ? argv[2] : "";
  for (const HandedOver& c : kHandedOver) {
    if (c.kernel == kAnyKernel && c.words == first && is_bench_kernel(second)) return second;
    const bool two_words = c.words.size() > first.size() && c.words.starts_with(first) &&
                           c.words[first.size()] == ' ' && c.words.substr(first.size() + 1) == second;
    if (c.kernel != kAnyKernel && !first.empty() && (c.words == first || two_words)) return c.kernel;
  }
  return {};
}

// The program sits next to ulibc, in the build tree and once installed.
int hand_over(std::string_view kernel, char** argv) {
  const std::string program = "ulibc-" + std::string(kernel);
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::string path = (error ? std::filesystem::path(argv[0]) : self).parent_path() / program;
  argv[0] = const_cast<char*>(program.c_str());
  ::execv(path.c_str(), argv);
  ulibc::cli::print_error("cannot start " + path + ": " + std::strerror(errno) + " (ulibc " + argv[1] +
                          " runs in the " + program + " program, installed next to ulibc)");
  return 1;
}

// What `ulibc bench` and `ulibc tune` say without a kernel, or with one they do not know: the kernels, as
// subcommands without options (their options are their programs'), so that help and errors name them.
Command add_kernel_chooser(ulibc::harness::Options& parent, std::string_view word) {
  ulibc::harness::Options app = parent.subcommand(std::string(word), std::string(ulibc::cli::summary_of(word)));
  std::string names;
  for (const auto& k : kBenchKernels) {
    app.subcommand(std::string(k.name), std::string(k.summary));
    names += (names.empty() ? "" : ", ") + std::string(k.name);
  }
  for (const HandedOver& c : kHandedOver)
    if (c.words.starts_with(std::string(word) + " ")) {
      app.subcommand(std::string(c.words.substr(word.size() + 1)), std::string(c.summary));
      names += ", " + std::string(c.words.substr(word.size() + 1));
    }
  const std::string command(word);
  return {app, [command, names] { throw ulibc::input_error("ulibc " + command + " needs a kernel: " + names); }};
}

Command add_bench_chooser(ulibc::harness::Options& parent) { return add_kernel_chooser(parent, "bench"); }
Command add_tune_chooser(ulibc::harness::Options& parent) { return add_kernel_chooser(parent, "tune"); }

// The help's list of the other handed-over commands: CLI11 knows only this program's own.
std::string other_commands() {
  std::string lines = "Also (each in its kernel's program, ulibc-<kernel>):\n";
  for (const HandedOver& c : kHandedOver)
    if (c.kernel != kAnyKernel && c.words.find(' ') == std::string_view::npos)
      lines += "  " + std::string(c.words) + std::string(std::max<std::size_t>(2, 28 - c.words.size()), ' ') +
               std::string(c.summary) + "\n";
  return lines;
}

}  // namespace

int main(int argc, char** argv) {
  if (const std::string_view kernel = program_kernel_for(argc, argv); !kernel.empty()) return hand_over(kernel, argv);
  constexpr std::array<ulibc::cli::CommandFactory, 6> kCommands = {
      ulibc::cli::add_topology_command, ulibc::cli::add_map_command, ulibc::cli::add_run_command,
      ulibc::cli::add_inspect_command,  add_bench_chooser,           add_tune_chooser};
  return ulibc::cli::cli_main(argc, argv, kCommands,
                              "ulibc: NUMA-aware thread placement. Shows the machine and the thread -> processor\n"
                              "mapping of each affinity policy (scatter, compact, compact+, list:<cpulist>, none),\n"
                              "runs OpenMP programs with that placement, and benchmarks kernels under every policy.",
                              other_commands() + "\n" + ulibc::cli::kCommonOptionsHelp);
}
