// ulibc/process.hpp — running another program to its end (a plot's Python, a picture's converter).
#pragma once
#include <string>
#include <vector>

namespace ulibc {

// Runs argv[0] (found on PATH as execvp finds it) with argv and this process's environment, its output going where
// this process's goes, and waits for it to end. Returns its exit code, or 128 + the signal that killed it, as a
// shell says. Error(system) naming the program and why when it cannot start (not found, not executable).
int run_program(const std::vector<std::string>& argv);

}  // namespace ulibc
