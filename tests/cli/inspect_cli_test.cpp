// inspect_cli_test.cpp — `ulibc inspect PID` on live processes (this test's own threads, bound as it chooses, a
// child that exits while being read, another user's process) and `ulibc run --report`.
#include <grp.h>
#include <gtest/gtest.h>
#include <sched.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstring>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "run_cli.hpp"

namespace {

using ulibc::testing::run_cli;
using ulibc::testing::run_cli_json;

// Threads of this process, each bound to one processor by sched_setaffinity, holding touched memory until the
// test ends.
class BoundThreads {
 public:
  explicit BoundThreads(const std::vector<int>& processors) {
    for (int proc : processors) threads_.emplace_back([this, proc] { run(proc); });
    std::unique_lock lock(mutex_);
    ready_cv_.wait(lock, [&] { return tids_.size() == threads_.size(); });
  }
  ~BoundThreads() {
    {
      std::lock_guard lock(mutex_);
      done_ = true;
    }
    done_cv_.notify_all();
    for (auto& t : threads_) t.join();
  }
  // The tid of the thread bound to `proc`.
  int tid_on(int proc) {
    std::lock_guard lock(mutex_);
    for (const auto& [tid, p] : tids_)
      if (p == proc) return tid;
    return -1;
  }
  std::vector<std::pair<int, int>> tids_and_processors() {
    std::lock_guard lock(mutex_);
    return tids_;
  }

 private:
  void run(int proc) {
    cpu_set_t set;
    CPU_ZERO(&set);
    CPU_SET(proc, &set);
    ASSERT_EQ(sched_setaffinity(0, sizeof set, &set), 0) << std::strerror(errno);
    std::vector<char> memory(4 << 20, 1);  // touched: resident
    {
      std::lock_guard lock(mutex_);
      tids_.emplace_back(static_cast<int>(gettid()), proc);
    }
    ready_cv_.notify_all();
    std::unique_lock lock(mutex_);
    done_cv_.wait(lock, [&] { return done_; });
    memory[1] = 2;
  }

  std::mutex mutex_;
  std::condition_variable ready_cv_, done_cv_;
  bool done_ = false;
  std::vector<std::pair<int, int>> tids_;  // (tid, processor)
  std::vector<std::thread> threads_;
};

std::vector<int> my_processors() {
  cpu_set_t set;
  CPU_ZERO(&set);
  sched_getaffinity(0, sizeof set, &set);
  std::vector<int> out;
  for (int p = 0; p < CPU_SETSIZE; ++p)
    if (CPU_ISSET(p, &set)) out.push_back(p);
  return out;
}

const nlohmann::json& thread_of(const nlohmann::json& report, int tid) {
  for (const auto& t : report["threads"])
    if (t["tid"] == tid) return t;
  static const nlohmann::json none;
  ADD_FAILURE() << "no thread " << tid << " in " << report.dump();
  return none;
}

TEST(InspectCli, ThreadsBoundByThisProcess) {
  const std::vector<int> procs = my_processors();
  if (procs.size() < 2) GTEST_SKIP() << "needs two processors to bind to";
  BoundThreads bound({procs[0], procs[1]});
  const auto report = run_cli_json({"inspect", std::to_string(getpid()), "--json", "--mappings"});
  EXPECT_EQ(report["pid"], getpid());
  EXPECT_EQ(thread_of(report, getpid())["verdict"], "unbound");
  for (const auto& [tid, proc] : bound.tids_and_processors()) {
    const auto& t = thread_of(report, tid);
    EXPECT_EQ(t["allowed"], std::to_string(proc));
    EXPECT_EQ(t["binding"], "processor");
    EXPECT_EQ(t["bound_to"], proc);
    EXPECT_EQ(t["last_processor"], proc);  // a bound thread that has run since it was bound ran there
    EXPECT_EQ(t["verdict"], "bound") << t.dump();
  }
  EXPECT_TRUE(report["memory"]["readable"]);
  ASSERT_FALSE(report["memory"]["nodes"].empty());
  EXPECT_EQ(report["memory"]["nodes"][0]["node"], 0);
  EXPECT_GE(report["memory"]["resident_bytes"].get<std::uint64_t>(), 2u * (4 << 20));
  EXPECT_FALSE(report["memory"]["mappings"].empty());

  const auto text = run_cli({"inspect", std::to_string(getpid())});
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Memory per node"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("thread " + std::to_string(bound.tid_on(procs[0])) + " "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("bound to processor " + std::to_string(procs[0])), std::string::npos) << text.out;
}

TEST(InspectCli, NoSuchProcessIsAnInputError) {
  ulibc::testing::expect_usage_error(run_cli({"inspect", "999999999"}), {"process 999999999: no such process"});
}

// A child that ends while ulibc reads it, reaped at once by another thread: a report or a clear error, never more.
TEST(InspectCli, ProcessThatExitsWhileBeingRead) {
  for (int i = 0; i < 8; ++i) {
    const pid_t child = fork();
    ASSERT_GE(child, 0);
    if (child == 0) {
      usleep(static_cast<useconds_t>(i * 700));
      _exit(0);
    }
    std::thread reaper([child] { waitpid(child, nullptr, 0); });
    const auto r = run_cli({"inspect", std::to_string(child)});
    reaper.join();
    if (r.exit_code == 0) {
      EXPECT_NE(r.out.find("Process " + std::to_string(child)), std::string::npos) << r.out;
      continue;
    }
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_TRUE(r.err.find("no such process") != std::string::npos ||
                r.err.find("exited while being read") != std::string::npos)
        << r.err;
  }
}

// The command run as user nobody (65534) in a forked child, its stdout and stderr together.
ulibc::testing::CliResult run_as_nobody(const std::vector<std::string>& args) {
  int fds[2];
  EXPECT_EQ(pipe(fds), 0);
  const pid_t child = fork();
  if (child == 0) {
    dup2(fds[1], STDOUT_FILENO);
    dup2(fds[1], STDERR_FILENO);
    close(fds[0]);
    if (setgroups(0, nullptr) != 0 || setgid(65534) != 0 || setuid(65534) != 0) _exit(126);
    std::vector<char*> argv{const_cast<char*>(ULIBC_CLI_PATH)};
    for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    execv(argv[0], argv.data());
    _exit(127);
  }
  close(fds[1]);
  ulibc::testing::CliResult r;
  char buf[4096];
  for (ssize_t n; (n = read(fds[0], buf, sizeof buf)) > 0;) r.out.append(buf, static_cast<std::size_t>(n));
  close(fds[0]);
  int status = 0;
  waitpid(child, &status, 0);
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return r;
}

TEST(InspectCli, AnotherUsersMemoryIsUnreadableWithANote) {
  const bool root = geteuid() == 0;
  const std::string pid = root ? std::to_string(getpid()) : "1";
  const auto r = root ? run_as_nobody({"inspect", pid}) : run_cli({"inspect", pid});
  if (root && (r.exit_code == 126 || r.exit_code == 127))
    GTEST_SKIP() << "user nobody cannot run the built ulibc here (exit " << r.exit_code << ")";
  const std::string text = r.out + (root ? "" : r.err);
  EXPECT_EQ(r.exit_code, 0) << text;
  EXPECT_NE(text.find("Memory per node: unreadable"), std::string::npos) << text;
  EXPECT_NE(text.find("/proc/" + pid + "/numa_maps: cannot be read: Permission denied (another user's process"),
            std::string::npos)
      << text;
}

TEST(InspectCli, RunReportPrintsTheReportAndExitsAsTheProgram) {
  const auto r = run_cli({"run", "--report", "--", "sh", "-c", "sleep 0.2; echo done; exit 3"});
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_NE(r.out.find("done\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(" ms before it ended"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("Memory per node"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("(sh)"), std::string::npos) << r.out;
}

TEST(InspectCli, RunReportJsonAndAKilledProgram) {
  const auto r = run_cli({"run", "--report", "--json", "--", "sh", "-c", "sleep 0.2; kill -TERM $$"});
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.err;
  const auto report = nlohmann::json::parse(r.out);
  EXPECT_GE(report["age_ms"].get<int>(), 0);
  ASSERT_EQ(report["threads"].size(), 1u);
  EXPECT_EQ(report["threads"][0]["name"], "sh");
}

TEST(InspectCli, RunReportOfAMissingProgramFails) {
  const auto r = run_cli({"run", "--report", "--", "/nonexistent/program"});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("cannot run \"/nonexistent/program\": No such file or directory"), std::string::npos) << r.err;
}

}  // namespace

namespace {

// SIGTERM sent to `ulibc run --report` goes to the program; ulibc itself exits, as the program did, 128 + 15.
TEST(InspectCli, RunReportForwardsSigtermToTheProgram) {
  int out[2];
  ASSERT_EQ(pipe(out), 0);
  const pid_t ulibc = fork();
  ASSERT_GE(ulibc, 0);
  if (ulibc == 0) {
    dup2(out[1], STDOUT_FILENO);
    close(out[0]);
    execl(ULIBC_CLI_PATH, ULIBC_CLI_PATH, "run", "--report", "--", "sleep", "30", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(out[1]);
  usleep(300 * 1000);  // a few samples
  ASSERT_EQ(kill(ulibc, SIGTERM), 0);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = read(out[0], buf, sizeof buf)) > 0;) text.append(buf, static_cast<std::size_t>(n));
  close(out[0]);
  int status = 0;
  ASSERT_EQ(waitpid(ulibc, &status, 0), ulibc);
  ASSERT_TRUE(WIFEXITED(status)) << "ulibc itself was killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 128 + SIGTERM);
  EXPECT_NE(text.find("(sleep)"), std::string::npos) << text;
}

}  // namespace
