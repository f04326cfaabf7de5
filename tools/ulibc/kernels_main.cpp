// kernels_main.cpp — `ulibc-kernels`: the commands that run the OpenMP kernels, started by `ulibc bench|tune|…`.
//
// They are a program apart from `ulibc` because of OpenMP's runtime (commands.hpp says why).
#include <array>

#include "commands.hpp"

int main(int argc, char** argv) {
  constexpr std::array<ulibc::cli::CommandFactory, 7> kCommands = {
      ulibc::cli::add_bench_command, ulibc::cli::add_tune_command,  ulibc::cli::add_simpath_command,
      ulibc::cli::add_sssp_command,  ulibc::cli::add_gmres_command, ulibc::cli::add_sdp_command,
      ulibc::cli::add_eigen_command};
  return ulibc::cli::cli_main(
      argc, argv, kCommands,
      "ulibc bench / tune / simpath / sssp / gmres / sdp / eigen: ULIBC's kernels under every affinity "
      "policy and thread count.",
      ulibc::cli::kCommonOptionsHelp);
}
