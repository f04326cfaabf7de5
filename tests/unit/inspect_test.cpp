// inspect_test.cpp — ulibc/inspect.hpp on fake /proc trees: the three parsers, every verdict, threads and
// processes that vanish while being read, malformed files.
#include "ulibc/inspect.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "ulibc/mapping.hpp"

namespace {

using ulibc::BindingKind;
using ulibc::CpuSet;
using ulibc::Verdict;
using ulibc::testing::expect_input_error;

// A stat line as the kernel writes it: pid (comm) state, then fields 4..52, with field 39 the processor.
std::string stat_line(int tid, const std::string& comm, char state, int processor) {
  std::string line = std::to_string(tid) + " (" + comm + ") " + state;
  for (int field = 4; field <= 52; ++field) line += " " + std::to_string(field == 39 ? processor : field * 3);
  return line + "\n";
}

std::string status_text(const std::string& cpus, const std::string& mems) {
  return "Name:\tx\nState:\tS (sleeping)\nCpus_allowed:\tff\nCpus_allowed_list:\t" + cpus +
         "\nMems_allowed:\t00000003\nMems_allowed_list:\t" + mems + "\nvoluntary_ctxt_switches:\t3\n";
}

// 2 nodes, each one package of 2 cores × 2 SMT threads, numbered SMT last: node 0 = 0,1,4,5 (core 0 = 0,4), node 1 =
// 2,3,6,7 (core 2 = 2,6).
ulibc::testing::FakeMachine two_nodes() { return {.packages = 2, .cores_per_package = 2, .smt = 2}; }

class FakeProc {
 public:
  FakeProc() { ulibc::testing::write_fake_sysfs(two_nodes(), dir_.path()); }
  ulibc::Topology topology() const { return ulibc::Topology::load(dir_.path(), ulibc::Detail::placement); }
  void thread(int pid, int tid, const std::string& comm, int processor, const std::string& cpus,
              const std::string& mems = "0-1") {
    put(task(pid, tid) + "/stat", stat_line(tid, comm, 'S', processor));
    put(task(pid, tid) + "/status", status_text(cpus, mems));
  }
  void put(const std::string& rel, const std::string& text) const {
    const std::filesystem::path p = dir_.path() + rel;
    std::filesystem::create_directories(p.parent_path());
    std::ofstream(p) << text;
  }
  void mkdir(const std::string& rel) const { std::filesystem::create_directories(dir_.path() + rel); }
  static std::string task(int pid, int tid) { return "/proc/" + std::to_string(pid) + "/task/" + std::to_string(tid); }

 private:
  ulibc::testing::TempDir dir_;
};

const ulibc::ThreadReport& by_tid(const ulibc::ProcessReport& r, int tid) {
  for (const auto& t : r.threads)
    if (t.tid == tid) return t;
  throw std::runtime_error("no thread " + std::to_string(tid));
}

TEST(InspectParse, StatTakesTheTextAfterTheLastParenthesis) {
  const auto s = ulibc::parse_stat(stat_line(7, "a) (b c", 'R', 5), "stat");
  EXPECT_EQ(s.comm, "a) (b c");
  EXPECT_EQ(s.state, 'R');
  EXPECT_EQ(s.processor, 5);
  EXPECT_EQ(ulibc::parse_stat(stat_line(7, ") 1 2 3 (", 'S', 12), "stat").processor, 12);
  EXPECT_EQ(ulibc::parse_stat(stat_line(7, "", 'D', 0), "stat").comm, "");
}

TEST(InspectParse, MalformedStatIsRefusedNamingTheFile) {
  expect_input_error([] { ulibc::parse_stat("12 (x S 1 2 3", "/proc/12/task/12/stat"); },
                     "/proc/12/task/12/stat: no command name");
  expect_input_error([] { ulibc::parse_stat("12 (x) S 1 2 3\n", "f"); }, "f: 6 fields, the processor is field 39");
  std::string bad = stat_line(1, "x", 'S', 3);
  bad.replace(bad.find(" 3 ", bad.find(" 114 ")), 3, " -3 ");  // field 38 is 38*3 = 114; field 39 follows
  expect_input_error([&] { ulibc::parse_stat(bad, "f"); }, "bad processor (field 39) \"-3\"");
  std::string two_states = stat_line(1, "x", 'S', 3);
  two_states.replace(two_states.find(") S "), 4, ") SS ");
  expect_input_error([&] { ulibc::parse_stat(two_states, "f"); }, "f: bad state \"SS\"");
}

TEST(InspectParse, StatusGivesBothLists) {
  const auto l = ulibc::parse_status(status_text("0-2,7", "1"), "status");
  EXPECT_EQ(l.cpus, (CpuSet{0, 1, 2, 7}));
  EXPECT_EQ(l.mems, CpuSet{1});
  expect_input_error([] { ulibc::parse_status("Cpus_allowed_list:\t0-3\n", "st"); }, "st: no Mems_allowed_list line");
  expect_input_error([] { ulibc::parse_status(status_text("3-1", "0"), "st"); }, "st: Cpus_allowed_list: ");
}

TEST(InspectParse, NumaMapsLinesOfEveryKind) {
  const std::string text =
      "00400000 default file=/usr/bin/my\\040prog mapped=3 N0=3 kernelpagesize_kB=4\n"
      "01a2b000 default heap anon=40 dirty=40 N0=30 N1=10 kernelpagesize_kB=4\n"
      "7f0000000000 bind:1 anon=512 dirty=512 N1=512 kernelpagesize_kB=4\n"
      "7f1000000000 interleave:0-1 file=/dev/hugepages/x huge dirty=2 N0=1 N1=1 kernelpagesize_kB=2048\n"
      "7f2000000000 prefer:1\n"
      "7ffc00000000 default stack anon=5 dirty=5 N0=5 kernelpagesize_kB=4 future_word=1\n"
      "7ffd00000000 default stack:4242 anon=1 N0=1 kernelpagesize_kB=4\n";
  const auto maps = ulibc::parse_numa_maps(text, "numa_maps");
  ASSERT_EQ(maps.size(), 7u);
  EXPECT_EQ(maps[0].kind, "file");
  EXPECT_EQ(maps[0].file, "/usr/bin/my\\040prog");
  EXPECT_EQ(maps[0].address, 0x400000u);
  EXPECT_EQ(maps[1].kind, "heap");
  EXPECT_EQ(maps[1].pages, (std::vector<std::uint64_t>{30, 10}));
  EXPECT_EQ(maps[2].kind, "anon");
  EXPECT_EQ(maps[2].policy, "bind:1");
  EXPECT_EQ(maps[2].resident_bytes(), 512u * 4096);
  EXPECT_EQ(maps[3].kind, "huge");
  EXPECT_EQ(maps[3].page_bytes, 2048u * 1024);
  EXPECT_EQ(maps[3].resident_bytes(), 2u * 2048 * 1024);
  EXPECT_EQ(maps[4].policy, "prefer:1");
  EXPECT_TRUE(maps[4].pages.empty());
  EXPECT_EQ(maps[4].resident_bytes(), 0u);
  EXPECT_EQ(maps[5].kind, "stack");
  EXPECT_EQ(maps[6].kind, "stack");
}

TEST(InspectParse, MalformedNumaMapsIsRefused) {
  expect_input_error([] { ulibc::parse_numa_maps("zz default N0=1\n", "nm"); }, "nm: a line that does not start");
  expect_input_error([] { ulibc::parse_numa_maps("1000\n", "nm"); }, "does not start with an address and a policy");
  expect_input_error([] { ulibc::parse_numa_maps("1000 default N0=x kernelpagesize_kB=4\n", "nm"); },
                     "bad page count \"N0=x\"");
  expect_input_error([] { ulibc::parse_numa_maps("1000 default N99999999=1 kernelpagesize_kB=4\n", "nm"); },
                     "bad page count");
  expect_input_error([] { ulibc::parse_numa_maps("1000 default N0=1\n", "nm"); }, "pages without kernelpagesize_kB");
  expect_input_error([] { ulibc::parse_numa_maps("1000 default N0=1 kernelpagesize_kB=0\n", "nm"); }, "bad page size");
}

TEST(Inspect, EveryVerdict) {
  FakeProc proc;
  proc.thread(10, 10, "main", 0, "0-7");
  proc.thread(10, 11, "worker one", 2, "2");
  proc.thread(10, 12, "w(2)", 4, "0,4");
  proc.thread(10, 13, "w3", 3, "2-3,6-7");
  proc.thread(10, 14, "w4", 0, "0,2");
  proc.thread(10, 15, "w5", 6, "1");
  // Half on each node: not more than half elsewhere for anyone.
  proc.put("/proc/10/numa_maps", "1000 default heap anon=8 N0=4 N1=4 kernelpagesize_kB=4\n");
  const auto topo = proc.topology();
  const auto r = ulibc::inspect_process(topo, 10);
  ASSERT_EQ(r.threads.size(), 6u);
  EXPECT_TRUE(r.notes.empty());
  EXPECT_EQ(r.node_bytes, (std::vector<std::uint64_t>{4 * 4096, 4 * 4096}));

  const auto& main = by_tid(r, 10);
  EXPECT_EQ(main.binding, BindingKind::unbound);
  EXPECT_EQ(main.verdict, Verdict::unbound);
  EXPECT_EQ(main.node, 0);
  EXPECT_DOUBLE_EQ(main.remote_fraction, 0.5);
  EXPECT_FALSE(main.memory_elsewhere);

  const auto& one = by_tid(r, 11);
  EXPECT_EQ(one.name, "worker one");
  EXPECT_EQ(one.binding, BindingKind::processor);
  EXPECT_EQ(one.verdict, Verdict::bound);
  EXPECT_EQ(one.node, 1);
  // Which policies put thread 1 of 6 on processor 2 is their mapping's business; the report must agree with it.
  for (auto kind : {ulibc::PolicyKind::scatter, ulibc::PolicyKind::compact, ulibc::PolicyKind::compact_plus}) {
    const auto map = ulibc::Mapping::build(topo, ulibc::Policy(kind), 6);
    const bool named = std::find(one.policies.begin(), one.policies.end(), map.policy().name()) != one.policies.end();
    EXPECT_EQ(named, map[1].proc == 2) << map.policy().name();
  }
  EXPECT_EQ(ulibc::Mapping::build(topo, ulibc::Policy(ulibc::PolicyKind::scatter), 6)[1].proc, 2);
  EXPECT_NE(one.explanation.find("bound to processor 2 = scatter"), std::string::npos) << one.explanation;
  EXPECT_NE(one.explanation.find("'s thread 1"), std::string::npos) << one.explanation;

  const auto& core = by_tid(r, 12);
  EXPECT_EQ(core.name, "w(2)");
  EXPECT_EQ(core.binding, BindingKind::core);
  EXPECT_EQ(core.verdict, Verdict::bound);
  EXPECT_EQ(core.binding_node, 0);

  const auto& node = by_tid(r, 13);
  EXPECT_EQ(node.binding, BindingKind::node);
  EXPECT_EQ(node.bound_to, 1);
  EXPECT_EQ(node.verdict, Verdict::bound);
  EXPECT_NE(node.explanation.find("bound to node 1 (processors 2-3,6-7)"), std::string::npos) << node.explanation;

  const auto& some = by_tid(r, 14);
  EXPECT_EQ(some.binding, BindingKind::other);
  EXPECT_EQ(some.verdict, Verdict::restricted);

  const auto& moved = by_tid(r, 15);
  EXPECT_EQ(moved.binding, BindingKind::processor);
  EXPECT_TRUE(moved.moved);
  EXPECT_EQ(moved.verdict, Verdict::moved);
  EXPECT_NE(moved.explanation.find("last ran on processor 6, outside its allowed processors"), std::string::npos)
      << moved.explanation;
}

TEST(Inspect, MemoryMostlyOnAnotherNode) {
  FakeProc proc;
  proc.thread(20, 20, "main", 0, "0");
  proc.thread(20, 21, "far", 6, "6");
  proc.put("/proc/20/numa_maps",
           "1000 default anon=6 N0=5 N1=1 kernelpagesize_kB=4\n"
           "200000 default file=/lib/x N0=1 kernelpagesize_kB=4\n");
  const auto r = ulibc::inspect_process(proc.topology(), 20);
  EXPECT_EQ(by_tid(r, 20).verdict, Verdict::bound);
  const auto& far = by_tid(r, 21);
  EXPECT_TRUE(far.memory_elsewhere);
  EXPECT_EQ(far.verdict, Verdict::memory_elsewhere);
  EXPECT_NEAR(far.remote_fraction, 6.0 / 7.0, 1e-12);
  EXPECT_NE(far.explanation.find("86% of the process's memory is on other nodes than its node 1"), std::string::npos)
      << far.explanation;
}

TEST(Inspect, NoSuchProcess) {
  FakeProc proc;
  const auto topo = proc.topology();
  expect_input_error([&] { ulibc::inspect_process(topo, 12345); }, "process 12345: no such process");
  expect_input_error([&] { ulibc::inspect_process(topo, -1); }, "process -1: no such process");
}

TEST(Inspect, ThreadThatVanishedIsANote) {
  FakeProc proc;
  proc.thread(30, 30, "main", 1, "0-7");
  proc.mkdir(FakeProc::task(30, 31));  // listed, then gone before its files were read
  proc.put(FakeProc::task(30, 32) + "/stat", stat_line(32, "half", 'S', 1));  // gone between its two files
  proc.put("/proc/30/numa_maps", "");
  const auto r = ulibc::inspect_process(proc.topology(), 30);
  ASSERT_EQ(r.threads.size(), 1u);
  EXPECT_EQ(r.notes,
            (std::vector<std::string>{"thread 31 exited while being read", "thread 32 exited while being read"}));
  EXPECT_TRUE(r.memory_readable);
  EXPECT_EQ(r.resident_bytes(), 0u);
  EXPECT_FALSE(by_tid(r, 30).memory_elsewhere);
}

TEST(Inspect, ProcessWhoseThreadsAllVanishedExited) {
  FakeProc proc;
  proc.mkdir(FakeProc::task(40, 40));
  expect_input_error([&] { ulibc::inspect_process(proc.topology(), 40); }, "process 40 exited while being read");
}

TEST(Inspect, UnreadableMemoryIsANote) {
  FakeProc proc;
  proc.thread(50, 50, "main", 1, "0-7");
  const auto r = ulibc::inspect_process(proc.topology(), 50);
  EXPECT_FALSE(r.memory_readable);
  ASSERT_EQ(r.notes.size(), 1u);
  EXPECT_NE(r.notes[0].find("/proc/50/numa_maps: cannot be read: No such file or directory"), std::string::npos)
      << r.notes[0];
  EXPECT_EQ(by_tid(r, 50).verdict, Verdict::unbound);
}

TEST(Inspect, MalformedFilesNameTheFile) {
  FakeProc proc;
  proc.thread(60, 60, "main", 1, "0-7");
  proc.put("/proc/60/numa_maps", "1000 default N0=1\n");
  expect_input_error([&] { ulibc::inspect_process(proc.topology(), 60); },
                     "/proc/60/numa_maps: pages without kernelpagesize_kB");
  proc.put(FakeProc::task(60, 60) + "/status", "Name:\tx\n");
  expect_input_error([&] { ulibc::inspect_process(proc.topology(), 60); },
                     "/proc/60/task/60/status: no Cpus_allowed_list line");
  proc.put(FakeProc::task(60, 60) + "/stat", "60 (main S 1\n");
  expect_input_error([&] { ulibc::inspect_process(proc.topology(), 60); }, "/proc/60/task/60/stat: no command name");
}

}  // namespace
