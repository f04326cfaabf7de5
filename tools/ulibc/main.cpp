// main.cpp — `ulibc`: topology, map, run, inspect here; bench, tune, simpath, sssp, gmres, sdp, eigen handed to
// ulibc-kernels.
//
// The kernels live in a companion program because of OpenMP (commands.hpp says why).
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <iostream>
#include <string>
#include <string_view>

#include "commands.hpp"

namespace {

constexpr std::array<ulibc::cli::CommandFactory, 4> kCommands = {
    ulibc::cli::add_topology_command, ulibc::cli::add_map_command, ulibc::cli::add_run_command,
    ulibc::cli::add_inspect_command};

constexpr const char* kBenchProgram = "ulibc-kernels";

// The help's list of the commands handed over: CLI11 knows only this program's own.
constexpr const char* kKernelCommands =
    "Also:\n"
    "  bench                       Run a kernel under each policy and thread count: table, CSV, JSON, plot\n"
    "  tune                        Measure every policy on a kernel and name the fastest at each thread count\n"
    "  simpath                     Count the simple s-t paths of a graph exactly (ZDD, parallel EBA)\n"
    "  sssp                        Shortest paths on road graphs (DIMACS files or generated): checksums, queries/s\n"
    "  gmres                       Solve A x = b by GMRES(m) on MPI, tuned at run time (mpirun -n K ulibc gmres)\n"
    "  sdp                         Solve a semidefinite program (SDPA files) by SDPA's interior-point method\n"
    "  eigen                       A few eigenpairs of a sparse complex matrix by Jacobi-Davidson (JDQR)\n";

// ulibc-kernels sits next to ulibc, in the build tree and once installed.
int hand_over(char** argv) {
  std::error_code error;
  const auto self = std::filesystem::read_symlink("/proc/self/exe", error);
  const std::string companion = (error ? std::filesystem::path(argv[0]) : self).parent_path() / kBenchProgram;
  argv[0] = const_cast<char*>(kBenchProgram);
  ::execv(companion.c_str(), argv);
  std::cerr << "ulibc: error: cannot start " << companion << ": " << std::strerror(errno) << " (ulibc " << argv[1]
            << " runs in the ulibc-kernels program, installed next to ulibc)\n";
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc > 1) {
    const std::string_view command = argv[1];
    if (command == "bench" || command == "tune" || command == "simpath" || command == "sssp" || command == "gmres" ||
        command == "sdp" || command == "eigen")
      return hand_over(argv);
  }
  return ulibc::cli::cli_main(argc, argv, kCommands,
                              "ulibc: NUMA-aware thread placement. Shows the machine and the thread -> processor\n"
                              "mapping of each affinity policy (scatter, compact, compact+, list:<cpulist>, none),\n"
                              "runs OpenMP programs with that placement, and benchmarks kernels under every policy.",
                              std::string(kKernelCommands) + "\n" + ulibc::cli::kCommonOptionsHelp);
}
