// inspect/watch.cpp — run a program and keep the last report read while it ran (ulibc/inspect.hpp).
//
// Sampling rather than ptrace(PTRACE_O_TRACEEXIT): stopping every thread at its exit needs every thread traced
// (PTRACE_O_TRACECLONE), fails where ptrace is forbidden (containers, Yama's ptrace_scope, a program that is
// itself traced by a debugger) and changes how the program sees signals. A sample a few tens of milliseconds old
// says the same for a program whose threads stay put, and its age is reported.
#include <cstring>
#include <thread>

#include "os/process_control.hpp"
#include "ulibc/error.hpp"
#include "ulibc/inspect.hpp"

namespace ulibc {

namespace {

// A zombie's /proc says nothing of where it ran: only its main thread is left, and no memory.
bool still_running(const ProcessReport& r) {
  return !r.threads.empty() && r.threads.front().state != 'Z' && r.threads.front().state != 'X';
}

std::optional<ProcessReport> sample(const Topology& topo, int pid) {
  try {
    ProcessReport r = inspect_process(topo, pid);
    if (still_running(r)) return r;
  } catch (const Error&) {
    // It ended, or was between states, while being read: the previous sample stands.
  }
  return std::nullopt;
}

}  // namespace

WatchedRun run_inspected(const Topology& topo, const std::vector<std::string>& argv,
                         std::chrono::milliseconds interval) {
  using Clock = std::chrono::steady_clock;
  const os::Spawned child = os::spawn_program(argv);
  if (child.pid < 0)
    throw system_error("cannot run \"" + (argv.empty() ? std::string() : argv.front()) +
                       "\": " + std::strerror(child.error));
  os::forward_termination_signals(child.pid);
  WatchedRun run;
  Clock::time_point taken{};
  for (;;) {
    if (auto r = sample(topo, child.pid)) {
      run.report = std::move(r);
      taken = Clock::now();
    }
    if (const auto end = os::poll_child(child.pid)) {
      if (end->error) throw system_error("waiting for \"" + argv.front() + "\": " + std::strerror(end->error));
      run.exit_code = end->code;
      break;
    }
    std::this_thread::sleep_for(interval);
  }
  if (run.report) run.age = std::chrono::duration_cast<std::chrono::milliseconds>(Clock::now() - taken);
  return run;
}

}  // namespace ulibc
