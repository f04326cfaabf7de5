// run_cli.cpp — runs the `ulibc` binary with posix_spawn and captures its
// stdout, stderr and exit status.
#include "run_cli.hpp"

#include <gtest/gtest.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <fstream>
#include <iterator>
#include <sstream>
#include <stdexcept>
#include <string_view>

extern char** environ;

namespace ulibc::testing {

namespace {

// ULIBC's variables, OpenMP's thread count and an MPI launcher's local rank, which the tool reads.
bool read_by_tool(std::string_view var) {
  return var.starts_with("ULIBC_") || var == "OMP_NUM_THREADS" || var.starts_with("OMPI_COMM_WORLD_LOCAL_") ||
         var.starts_with("MPI_LOCAL");
}

std::vector<std::string> child_environment(const std::map<std::string, std::string>& env) {
  std::vector<std::string> result;
  for (char** e = environ; *e; ++e) {
    const std::string_view entry(*e);
    if (!read_by_tool(entry.substr(0, entry.find('=')))) result.emplace_back(entry);
  }
  for (const auto& [name, value] : env) result.push_back(name + "=" + value);
  return result;
}

std::vector<char*> c_strings(std::vector<std::string>& strings) {
  std::vector<char*> result;
  for (std::string& s : strings) result.push_back(s.data());
  result.push_back(nullptr);
  return result;
}

// Reads both pipes until both close. Polling both avoids the deadlock of
// reading one while the tool blocks writing a full other.
void drain(int out_fd, int err_fd, CliResult& r) {
  std::array<pollfd, 2> fds = {pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<std::string*, 2> sinks = {&r.out, &r.err};
  int open_fds = 2;
  while (open_fds > 0) {
    if (poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      throw std::runtime_error("poll failed");
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
      char buf[65536];
      const ssize_t n = read(fds[i].fd, buf, sizeof buf);
      if (n > 0) {
        sinks[i]->append(buf, static_cast<std::size_t>(n));
      } else {
        close(fds[i].fd);
        fds[i].fd = -1;
        --open_fds;
      }
    }
  }
}

}  // namespace

CliResult run_cli(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  std::vector<std::string> command = {ULIBC_CLI_PATH};
  command.insert(command.end(), args.begin(), args.end());
  return run_program(command, env);
}

CliResult run_program(const std::vector<std::string>& command, const std::map<std::string, std::string>& env) {
  std::vector<std::string> argv_strings = command;
  std::vector<std::string> env_strings = child_environment(env);
  std::vector<char*> argv = c_strings(argv_strings);
  std::vector<char*> envp = c_strings(env_strings);

  int out_pipe[2], err_pipe[2];
  if (pipe(out_pipe) != 0 || pipe(err_pipe) != 0) throw std::runtime_error("pipe failed");
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_adddup2(&actions, out_pipe[1], STDOUT_FILENO);
  posix_spawn_file_actions_adddup2(&actions, err_pipe[1], STDERR_FILENO);
  for (int fd : {out_pipe[0], out_pipe[1], err_pipe[0], err_pipe[1]}) posix_spawn_file_actions_addclose(&actions, fd);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&actions);
  close(out_pipe[1]);
  close(err_pipe[1]);
  if (rc != 0) {
    close(out_pipe[0]);
    close(err_pipe[0]);
    throw std::runtime_error("cannot run " + command.front());
  }

  CliResult r;
  drain(out_pipe[0], err_pipe[0], r);
  int status = 0;
  while (waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

nlohmann::json run_cli_json(const std::vector<std::string>& args, const std::map<std::string, std::string>& env) {
  const CliResult r = run_cli(args, env);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  try {
    return nlohmann::json::parse(r.out);
  } catch (const nlohmann::json::exception& e) {
    ADD_FAILURE() << "not JSON (" << e.what() << "):\n" << r.out;
    return nlohmann::json::object();
  }
}

void expect_usage_error(const CliResult& r, std::initializer_list<std::string> needles) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  EXPECT_TRUE(r.err.starts_with("ulibc: error: ")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  for (const std::string& needle : needles)
    EXPECT_NE(r.err.find(needle), std::string::npos) << "missing \"" << needle << "\" in " << r.err;
}

std::map<std::string, std::string> mpi_alone_environment() { return {{"LSAN_OPTIONS", ULIBC_LSAN_OPTIONS}}; }

std::map<std::string, std::string> mpi_launcher_environment() {
  std::map<std::string, std::string> env = mpi_alone_environment();
  env.insert({{"OMPI_ALLOW_RUN_AS_ROOT", "1"},
              {"OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1"},
              {"OMPI_MCA_rmaps_base_oversubscribe", "1"},
              {"OMPI_MCA_mpi_yield_when_idle", "1"},
              {"OMP_WAIT_POLICY", "passive"}});
  return env;
}

bool have_mpirun() { return access(kMpirun, X_OK) == 0; }

CliResult run_cli_ranks(int ranks, const std::vector<std::string>& args) {
  std::vector<std::string> command = {kMpirun, "-n", std::to_string(ranks), ULIBC_CLI_PATH};
  command.insert(command.end(), args.begin(), args.end());
  return run_program(command, kMpiLauncher);
}

void expect_job_refused(const CliResult& r, const std::string& needle) {
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.out, "");
  std::size_t lines = 0;
  for (std::size_t at = r.err.find("ulibc: error: "); at != std::string::npos;
       at = r.err.find("ulibc: error: ", at + 1))
    ++lines;
  EXPECT_EQ(lines, 1u) << r.err;
  EXPECT_NE(r.err.find(needle), std::string::npos) << r.err;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& bytes) { std::ofstream(path, std::ios::binary) << bytes; }

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

std::vector<int> ints(const nlohmann::json& array) { return array.get<std::vector<int>>(); }

}  // namespace ulibc::testing
