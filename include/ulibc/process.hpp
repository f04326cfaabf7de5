// ulibc/process.hpp — running another program to its end (a plot's Python, a picture's converter), and the
// temporary files it reads.
#pragma once
#include <string>
#include <vector>

namespace ulibc {

// Runs argv[0] (found on PATH as execvp finds it) with argv and this process's environment, its output going where
// this process's goes, and waits for it to end. Returns its exit code, or 128 + the signal that killed it, as a
// shell says. Error(system) naming the program and why when it cannot start (not found, not executable).
int run_program(const std::vector<std::string>& argv);

// A file for another program to read: created empty, with a unique name (`prefix`, six characters, `suffix`) in the
// temporary directory ($TMPDIR, else /tmp), and removed when it goes out of scope, however the scope is left.
// Error(system) naming what it is for and why when it cannot be created.
class TempFile {
 public:
  TempFile(const std::string& prefix, const std::string& suffix, const std::string& what);
  ~TempFile();
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

}  // namespace ulibc
