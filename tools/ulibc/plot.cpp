// plot.cpp — runs the compiled-in plot.py on a benchmark record.
#include "plot.hpp"

#include <cstdlib>
#include <filesystem>

#include "io/file_io.hpp"
#include "plot_script.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process.hpp"

namespace ulibc::cli {

namespace {

std::string python() {
  if (const char* chosen = std::getenv("ULIBC_PYTHON"); chosen && *chosen) return chosen;
  return std::filesystem::exists("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
}

// Runs Python with `args`, its output going where ours goes; its exit status.
int run_python(const std::vector<std::string>& args) {
  std::vector<std::string> words = {python()};
  words.insert(words.end(), args.begin(), args.end());
  return run_program(words);
}

}  // namespace

void check_plot_target(const std::string& path) {
  if (!path.ends_with(".png") && !path.ends_with(".svg"))
    throw input_error("--plot " + path + ": the file name must end in .png or .svg");
  int status = 1;
  try {
    status = run_python({"-c", "import matplotlib"});
  } catch (const Error&) {
    // no Python at all: said below as no matplotlib, with where to get both
  }
  if (status != 0)
    throw system_error("--plot needs Python with matplotlib (" + python() +
                       " has none; Debian: python3-matplotlib, which scripts/setup.sh installs; "
                       "or point ULIBC_PYTHON at another Python)");
}

void draw_plot(const nlohmann::ordered_json& record, const std::string& path, const std::vector<std::string>& names) {
  const TempFile record_file("ulibc-plot-", ".json", "the plot's data");
  io::write_file(record_file.path(), [&](std::ostream& out) { out << record.dump(); });
  std::vector<std::string> args = {"-c", kPlotScript, record_file.path(), path};
  args.insert(args.end(), names.begin(), names.end());
  const int status = run_python(args);
  if (status != 0)
    throw system_error("drawing " + path + " failed: " + python() + " exited with status " + std::to_string(status));
}

}  // namespace ulibc::cli
