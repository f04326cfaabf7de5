// process/run_program.cpp — another program run to its end, over the OS layer's spawn and wait.
#include <cstring>

#include "os/process_control.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process.hpp"

namespace ulibc {

int run_program(const std::vector<std::string>& argv) {
  const std::string name = argv.empty() ? std::string() : argv.front();
  const os::Spawned child = os::spawn_program(argv);
  if (child.pid < 0) throw system_error("cannot run \"" + name + "\": " + std::strerror(child.error));
  const os::ChildEnd end = os::wait_child(child.pid);
  if (end.error) throw system_error("waiting for \"" + name + "\": " + std::strerror(end.error));
  return end.code;
}

}  // namespace ulibc
