// os/process_control.cpp — fork/exec/waitpid/kill and whole-file reads for ulibc/inspect.hpp and `ulibc run --report`.
#include "os/process_control.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <filesystem>

namespace ulibc::os {

namespace {

// A corrupt or endless file (a fake tree's) must not take all memory: far above any real numa_maps.
constexpr std::size_t kWholeFileLimit = std::size_t{1} << 30;

std::atomic<int> g_forward_to{-1};

// A signal the terminal sent (Ctrl-C) reached the whole foreground process group, the child included: sending it
// again would be a second Ctrl-C, which some programs take as "quit now".
void forward_signal(int sig, siginfo_t* info, void*) {
  const int pid = g_forward_to.load();
  if (pid > 0 && info->si_code != SI_KERNEL) ::kill(pid, sig);
}

[[noreturn]] void exec_child(const std::vector<std::string>& argv, int report_fd) {
  std::vector<char*> words;
  for (const auto& w : argv) words.push_back(const_cast<char*>(w.c_str()));
  words.push_back(nullptr);
  ::execvp(words[0], words.data());
  const int error = errno;
  [[maybe_unused]] const ssize_t n = ::write(report_fd, &error, sizeof error);
  ::_exit(127);
}

}  // namespace

FileText read_whole_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {std::nullopt, errno};
  std::string out;
  char buf[65536];
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0 || out.size() > kWholeFileLimit) {
      const int error = n < 0 ? errno : EFBIG;
      ::close(fd);
      return {std::nullopt, error};
    }
    if (n == 0) break;
    out.append(buf, static_cast<std::size_t>(n));
  }
  ::close(fd);
  return {std::move(out), 0};
}

Spawned spawn_program(const std::vector<std::string>& argv) {
  if (argv.empty()) return {-1, ENOENT};
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) return {-1, errno};
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int error = errno;
    ::close(fds[0]);
    ::close(fds[1]);
    return {-1, error};
  }
  if (pid == 0) exec_child(argv, fds[1]);
  ::close(fds[1]);
  int error = 0;
  ssize_t n;
  do n = ::read(fds[0], &error, sizeof error);
  while (n < 0 && errno == EINTR);
  ::close(fds[0]);
  if (n == static_cast<ssize_t>(sizeof error)) {
    ::waitpid(pid, nullptr, 0);
    return {-1, error};
  }
  return {pid, 0};
}

CreatedFile create_temp_file(const std::string& prefix, const std::string& suffix) {
  std::error_code ec;
  const std::filesystem::path dir = std::filesystem::temp_directory_path(ec);
  if (ec) return {"", ec.value()};
  std::string path = (dir / (prefix + "XXXXXX" + suffix)).string();
  const int fd = ::mkstemps(path.data(), static_cast<int>(suffix.size()));
  if (fd < 0) return {"", errno};
  ::close(fd);
  return {path, 0};
}

int remove_file(const std::string& path) { return ::unlink(path.c_str()) == 0 ? 0 : errno; }

std::optional<ChildEnd> poll_child(int pid) {
  int status = 0;
  const pid_t got = ::waitpid(pid, &status, WNOHANG);
  if (got == 0 || (got < 0 && errno == EINTR)) return std::nullopt;
  if (got < 0) return ChildEnd{.error = errno};
  if (WIFSIGNALED(status)) return ChildEnd{.code = 128 + WTERMSIG(status), .signal = WTERMSIG(status)};
  return ChildEnd{.code = WEXITSTATUS(status)};
}

ChildEnd wait_child(int pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0)
    if (errno != EINTR) return ChildEnd{.error = errno};
  if (WIFSIGNALED(status)) return ChildEnd{.code = 128 + WTERMSIG(status), .signal = WTERMSIG(status)};
  return ChildEnd{.code = WEXITSTATUS(status)};
}

void forward_termination_signals(int pid) {
  g_forward_to.store(pid);
  struct sigaction sa {};
  sa.sa_sigaction = forward_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESTART | SA_SIGINFO;
  for (int sig : {SIGINT, SIGTERM, SIGHUP, SIGQUIT}) ::sigaction(sig, &sa, nullptr);
}

}  // namespace ulibc::os
