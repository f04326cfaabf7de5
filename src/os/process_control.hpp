// os/process_control.hpp — starting, watching and signalling another process, and reading its /proc files whole.
// Convention (os/os.hpp's rule): nothing throws; a failure is a result carrying errno (0 when it worked), the layer
// above decides what it means.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ulibc::os {

// A file read to its end (numa_maps of a large process exceeds FsRoot::read's limit), or the errno that stopped it.
struct FileText {
  std::optional<std::string> text;
  int error = 0;
};
FileText read_whole_file(const std::string& path);

// fork + execvp in the child with this process's environment. pid -1 and the errno when fork or exec failed
// (exec's errno comes back through a close-on-exec pipe, so a missing program is this result, not a child's exit).
struct Spawned {
  int pid = -1;
  int error = 0;
};
Spawned spawn_program(const std::vector<std::string>& argv);

// How a child ended: its exit code, or the signal that killed it.
struct ChildEnd {
  int code = 0;
  int signal = 0;  // 0 when it exited
  int error = 0;   // waitpid's errno; then code and signal mean nothing
};
// nullopt while the child runs (waitpid WNOHANG); reaps it once it has ended.
std::optional<ChildEnd> poll_child(int pid);
// Waits for the child to end and reaps it (waitpid, again after a signal interrupts it).
ChildEnd wait_child(int pid);

// A new empty file named `prefix`, six unique characters and `suffix`, in the temporary directory ($TMPDIR, else
// /tmp), created only by this call (mkstemps). Its path, or the errno that refused it.
struct CreatedFile {
  std::string path;
  int error = 0;
};
CreatedFile create_temp_file(const std::string& prefix, const std::string& suffix);
// Removes a file (unlink): 0 or the errno.
int remove_file(const std::string& path);

// From now on SIGINT, SIGTERM, SIGHUP and SIGQUIT sent to this process go to `pid` instead: the child decides how
// it ends, and this process reports it. Those the terminal sends (Ctrl-C) are not sent again: the child, in the
// same foreground process group, has them already.
void forward_termination_signals(int pid);

}  // namespace ulibc::os
