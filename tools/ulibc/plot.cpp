// plot.cpp — runs the compiled-in plot.py on a benchmark record.
#include "plot.hpp"

#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "plot_script.hpp"
#include "ulibc/error.hpp"

extern char** environ;

namespace ulibc::cli {

namespace {

constexpr int kCouldNotStart = 127;  // as a shell reports a missing command

std::string python() {
  if (const char* chosen = std::getenv("ULIBC_PYTHON"); chosen && *chosen) return chosen;
  if (access("/usr/bin/python3", X_OK) == 0) return "/usr/bin/python3";
  return "python3";
}

// Runs Python with `args`, its output going where ours goes; its exit status.
int run_python(const std::vector<std::string>& args) {
  std::vector<std::string> words = {python()};
  words.insert(words.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  if (posix_spawnp(&pid, argv[0], nullptr, nullptr, argv.data(), environ) != 0) return kCouldNotStart;
  int status = 0;
  while (waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return kCouldNotStart;
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

}  // namespace

void check_plot_target(const std::string& path) {
  if (!path.ends_with(".png") && !path.ends_with(".svg"))
    throw input_error("--plot " + path + ": the file name must end in .png or .svg");
  if (run_python({"-c", "import matplotlib"}) != 0)
    throw system_error("--plot needs Python with matplotlib (" + python() +
                       " has none; Debian: python3-matplotlib, which scripts/setup.sh installs; "
                       "or point ULIBC_PYTHON at another Python)");
}

void draw_plot(const nlohmann::ordered_json& record, const std::string& path, const std::vector<std::string>& names) {
  std::string record_path = (std::filesystem::temp_directory_path() / "ulibc-plot-XXXXXX.json").string();
  const int fd = mkstemps(record_path.data(), 5);
  if (fd < 0) throw system_error("cannot create a temporary file for the plot's data");
  close(fd);
  std::ofstream(record_path) << record.dump();
  std::vector<std::string> args = {"-c", kPlotScript, record_path, path};
  args.insert(args.end(), names.begin(), names.end());
  const int status = run_python(args);
  std::filesystem::remove(record_path);
  if (status != 0)
    throw system_error("drawing " + path + " failed: " + python() + " exited with status " + std::to_string(status));
}

}  // namespace ulibc::cli
