// run_cli.hpp — runs the built `ulibc` binary as a user would and captures
// what it prints, so the tests check the real command line, exit codes included.
#pragma once
#include <map>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace ulibc::testing {

struct CliResult {
  int exit_code = -1;  // the exit status; 128 + signal if the tool was killed
  std::string out;
  std::string err;
};

// Runs `ulibc args...` with the test's environment minus every variable the
// tool reads (ULIBC_*, OMP_NUM_THREADS), plus `env`: each test states the
// environment it depends on.
CliResult run_cli(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {});

// The same for another program (its path, then its arguments), e.g. a launcher that runs the tool.
CliResult run_program(const std::vector<std::string>& command, const std::map<std::string, std::string>& env = {});

// Expects exit code 2, nothing on stdout, and one "ulibc: error:" line
// containing each of `needles`.
void expect_usage_error(const CliResult& r, std::initializer_list<std::string> needles);

// Runs the tool, expects exit 0 and an empty stderr, and parses stdout as JSON.
nlohmann::json run_cli_json(const std::vector<std::string>& args, const std::map<std::string, std::string>& env = {});

// What the tests of the MPI commands add to the environment: under ASan, LeakSanitizer ignores what Open MPI keeps
// until exit (tests/mpi/lsan.supp); under a launcher, Open MPI also runs as root and more ranks than processors,
// each yielding its core when idle (CI has two).
std::map<std::string, std::string> mpi_alone_environment();
std::map<std::string, std::string> mpi_launcher_environment();
inline const std::map<std::string, std::string> kMpiAlone = mpi_alone_environment();
inline const std::map<std::string, std::string> kMpiLauncher = mpi_launcher_environment();

// Debian's launcher (scripts/setup.sh installs openmpi-bin); tests that need it skip without it.
inline constexpr const char* kMpirun = "/usr/bin/mpirun";
bool have_mpirun();
#define SKIP_WITHOUT_MPIRUN() \
  if (!have_mpirun()) GTEST_SKIP() << kMpirun << " not found (scripts/setup.sh installs openmpi-bin)"
// `args` and then `more`: a command line and a variation of it.
inline std::vector<std::string> with(std::vector<std::string> args, std::initializer_list<std::string> more) {
  args.insert(args.end(), more);
  return args;
}
// `mpirun -n ranks ulibc args...` in kMpiLauncher's environment.
CliResult run_cli_ranks(int ranks, const std::vector<std::string>& args);
// Under a launcher every rank leaves with exit code 2, printing nothing on stdout and one "ulibc: error:" line
// between them that contains `needle`, whichever rank found the fault.
void expect_job_refused(const CliResult& r, const std::string& needle);

// The whole of a file the tool wrote ("" when it is missing).
std::string read_file(const std::string& path);
// Writes `bytes` to `path`, for the tool to read.
void write_file(const std::string& path, const std::string& bytes);
// `text` cut at its line ends.
std::vector<std::string> lines_of(const std::string& text);
// A JSON array of whole numbers.
std::vector<int> ints(const nlohmann::json& array);

}  // namespace ulibc::testing
