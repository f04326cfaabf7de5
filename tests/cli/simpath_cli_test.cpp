// simpath_cli_test.cpp — `ulibc simpath` as a user runs it: the count alone on the last line, the
// JSON record, every placement policy agreeing, the ZDD file, sampled paths,
// messy edge lists cleaned with a note, and bad input refused with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {
namespace {

// The last line of a successful text run: the count alone.
std::string count_line(const std::vector<std::string>& args) {
  std::vector<std::string> all = {"simpath"};
  all.insert(all.end(), args.begin(), args.end());
  const CliResult r = run_cli(all);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.ends_with("\n")) << r.out;
  const std::vector<std::string> lines = lines_of(r.out);
  if (lines.empty()) {
    ADD_FAILURE() << "no output; stderr: " << r.err;
    return "";
  }
  return lines.back();
}

class SimpathCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return dir_.path() + "/" + name; }

 private:
  TempDir dir_;
};

TEST_F(SimpathCli, LastLineIsTheCountAlone) {
  EXPECT_EQ(count_line({"--grid", "4", "--threads", "1"}), "8512");
  EXPECT_EQ(count_line({"--grid", "1", "--threads", "1"}), "2");
  for (const char* order : {"auto", "input", "bfs", "greedy"})
    EXPECT_EQ(count_line({"--grid", "4,4", "--threads", "1", "--order", order}), "8512") << order;
  // 3 x 5 cells either way round (5382: simpath_test checks it by brute force).
  EXPECT_EQ(count_line({"--grid", "3,5", "--threads", "1"}), "5382");
  EXPECT_EQ(count_line({"--grid", "5,3", "--threads", "1"}), "5382");
  // Beyond 128 bits: the 1 x 130 ladder has 2^130 paths.
  EXPECT_EQ(count_line({"--grid", "1,130", "--threads", "1"}), "1361129467683753853853498429727072845824");
  // Other ends on a grid: on the 1-cell square, two paths between neighbours.
  EXPECT_EQ(count_line({"--grid", "1", "--s", "0", "--t", "1", "--threads", "1"}), "2");
}

TEST_F(SimpathCli, JsonRecordsTheSearch) {
  const auto j = run_cli_json({"simpath", "--grid", "4", "--threads", "1", "--sample", "2", "--json"});
  EXPECT_EQ(j["count"], "8512");
  EXPECT_EQ(j["vertices"], 25);
  EXPECT_EQ(j["edges"], 40);
  EXPECT_EQ(j["s"], 0);
  EXPECT_EQ(j["t"], 24);
  EXPECT_EQ(j["threads"], 1);
  EXPECT_GT(j["states"].get<std::uint64_t>(), 0u);
  EXPECT_GT(j["zdd_nodes"].get<std::uint64_t>(), 0u);
  EXPECT_GE(j["seconds"]["total"].get<double>(), 0.0);
  EXPECT_GT(j["max_frontier"].get<int>(), 0);
  const std::string order = j["order"].get<std::string>();  // the order automatic chose
  EXPECT_TRUE(order == "input" || order == "greedy" || order == "bfs") << order;
  ASSERT_EQ(j["nodes_per_edge"].size(), 40u);
  ASSERT_EQ(j["states_per_edge"].size(), 40u);
  std::uint64_t nodes = 0, states = 0;
  for (const auto& n : j["nodes_per_edge"]) nodes += n.get<std::uint64_t>();
  for (const auto& n : j["states_per_edge"]) states += n.get<std::uint64_t>();
  EXPECT_EQ(j["zdd_nodes"], nodes);
  EXPECT_EQ(j["states"], states);
  ASSERT_EQ(j["samples"].size(), 2u);
  for (const auto& path : j["samples"]) {
    ASSERT_GE(path.size(), 9u);  // at least 8 steps from corner to corner
    EXPECT_EQ(path.front(), 0);
    EXPECT_EQ(path.back(), 24);
  }
  // Without --sample, an empty list; the count stays a string when it is huge.
  const auto big = run_cli_json({"simpath", "--grid", "1,130", "--threads", "1", "--json"});
  EXPECT_EQ(big["count"], "1361129467683753853853498429727072845824");
  EXPECT_TRUE(big["samples"].empty());
  EXPECT_EQ(big["nodes_per_edge"].size(), big["edges"].get<std::size_t>());
}

TEST_F(SimpathCli, EveryPolicyCountsTheSame) {
  if (Topology::load().usable().count() < 2) GTEST_SKIP() << "two threads without oversubscription";
  for (const char* policy : {"none", "scatter", "compact", "compact+"}) {
    SCOPED_TRACE(policy);
    const auto j = run_cli_json({"simpath", "--grid", "5", "--threads", "2", "--policy", policy, "--json"});
    EXPECT_EQ(j["count"], "1262816");
    EXPECT_EQ(j["threads"], 2);
    EXPECT_EQ(j["policy"], policy);
    const std::string text = count_line({"--grid", "5", "--threads", "2", "--policy", policy});
    EXPECT_EQ(text, "1262816");
  }
}

TEST_F(SimpathCli, WritesTheZddAndSamplesPaths) {
  const CliResult r =
      run_cli({"simpath", "--grid", "3", "--threads", "1", "--zdd", file("g.zdd"), "--sample", "3", "--seed", "5"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.ends_with("\n184\n")) << r.out;
  EXPECT_NE(r.out.find("ZDD written to " + file("g.zdd")), std::string::npos) << r.out;
  const std::string zdd = read_file(file("g.zdd"));
  EXPECT_TRUE(zdd.starts_with("ulibc-zdd 1\n")) << zdd.substr(0, 100);
  EXPECT_NE(zdd.find("\ns 0\nt 15\nedges 24\n"), std::string::npos) << zdd.substr(0, 300);
  EXPECT_NE(zdd.find("\nroot "), std::string::npos);

  // "3 paths drawn uniformly (seed 5):" then one line per path, s first, t last.
  const std::vector<std::string> lines = lines_of(r.out);
  std::size_t at = 0;
  while (at < lines.size() && lines[at].find("paths drawn uniformly") == std::string::npos) ++at;
  ASSERT_LT(at + 3, lines.size()) << r.out;
  EXPECT_TRUE(lines[at].starts_with("3 paths")) << lines[at];
  for (int k = 1; k <= 3; ++k) {
    std::istringstream in(lines[at + k]);
    std::vector<int> path;
    for (int v; in >> v;) path.push_back(v);
    ASSERT_GE(path.size(), 7u) << lines[at + k];
    EXPECT_EQ(path.front(), 0) << lines[at + k];
    EXPECT_EQ(path.back(), 15) << lines[at + k];
  }
  // The same seed draws the same paths.
  const CliResult again = run_cli({"simpath", "--grid", "3", "--threads", "1", "--sample", "3", "--seed", "5"});
  ASSERT_EQ(again.exit_code, 0) << again.err;
  const std::vector<std::string> again_lines = lines_of(again.out);
  std::size_t at2 = 0;
  while (at2 < again_lines.size() && again_lines[at2].find("paths drawn uniformly") == std::string::npos) ++at2;
  ASSERT_LT(at2 + 3, again_lines.size());
  for (int k = 1; k <= 3; ++k) EXPECT_EQ(again_lines[at2 + k], lines[at + k]);

  // A ZDD file that cannot be written: a system failure, exit 1, naming it.
  const CliResult bad = run_cli({"simpath", "--grid", "2", "--threads", "1", "--zdd", file("no/such/dir.zdd")});
  EXPECT_EQ(bad.exit_code, 1) << bad.err;
  EXPECT_TRUE(bad.err.starts_with("ulibc: error: ")) << bad.err;
  EXPECT_NE(bad.err.find("no/such/dir.zdd"), std::string::npos) << bad.err;
}

TEST_F(SimpathCli, EdgeListsAreCleanedWithANote) {
  // A 4-cycle 0-1-2-3 with chord 0-2, plus self-loops and repeats: 0 to 2 has
  // 0-2, 0-1-2, 0-3-2.
  write_file(file("messy.el"), "# a messy graph\n0 1\n1 1\n1 0\n1 2\n2 3\n3 0\n0 2\n2 0\n3 3\n0 1\n");
  const CliResult r = run_cli({"simpath", "--file", file("messy.el"), "--s", "0", "--t", "2", "--threads", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(r.out.ends_with("\n3\n")) << r.out;
  EXPECT_NE(r.out.find("2 self-loop"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("3 repeated edge"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("5 edges"), std::string::npos) << r.out;
  const auto j =
      run_cli_json({"simpath", "--file", file("messy.el"), "--s", "2", "--t", "0", "--threads", "1", "--json"});
  EXPECT_EQ(j["count"], "3");
  EXPECT_EQ(j["edges"], 5);

  // A clean file: no note.
  write_file(file("clean.el"), "0 1\n1 2\n");
  const CliResult clean = run_cli({"simpath", "--file", file("clean.el"), "--s", "0", "--t", "2", "--threads", "1"});
  ASSERT_EQ(clean.exit_code, 0) << clean.err;
  EXPECT_EQ(clean.out.find("self-loop"), std::string::npos) << clean.out;
  EXPECT_EQ(clean.out.find("repeated"), std::string::npos) << clean.out;
  EXPECT_TRUE(clean.out.ends_with("\n1\n")) << clean.out;
}

TEST_F(SimpathCli, DisconnectedEndsCountZero) {
  write_file(file("split.el"), "# Nodes: 6\n0 1\n1 2\n3 4\n");  // 5 has no edge at all
  EXPECT_EQ(count_line({"--file", file("split.el"), "--s", "0", "--t", "4", "--threads", "1"}), "0");
  EXPECT_EQ(count_line({"--file", file("split.el"), "--s", "0", "--t", "5", "--threads", "2"}), "0");
  EXPECT_EQ(count_line({"--file", file("split.el"), "--s", "4", "--t", "3", "--threads", "1"}), "1");
  const auto j = run_cli_json(
      {"simpath", "--file", file("split.el"), "--s", "0", "--t", "4", "--threads", "1", "--sample", "3", "--json"});
  EXPECT_EQ(j["count"], "0");
  EXPECT_EQ(j["zdd_nodes"], 0);
  EXPECT_TRUE(j["samples"].empty());
}

TEST_F(SimpathCli, BadInputIsRefusedWithTheReason) {
  write_file(file("g.el"), "0 1\n1 2\n2 3\n");
  const std::string g = file("g.el");
  expect_usage_error(run_cli({"simpath", "--file", g, "--s", "1", "--t", "1"}), {"s and t", "1"});
  expect_usage_error(run_cli({"simpath", "--file", g, "--s", "9", "--t", "1"}), {"s = 9", "0..3"});
  expect_usage_error(run_cli({"simpath", "--file", g, "--s", "0", "--t", "-1"}), {"t = -1"});
  expect_usage_error(run_cli({"simpath", "--grid", "2", "--s", "0", "--t", "9"}), {"t = 9", "0..8"});
  expect_usage_error(run_cli({"simpath", "--grid", "2", "--s", "4", "--t", "4"}), {"s and t"});
  expect_usage_error(run_cli({"simpath", "--file", g}), {"--file", "--s", "--t"});
  expect_usage_error(run_cli({"simpath", "--file", g, "--s", "0"}), {"--t"});
  expect_usage_error(run_cli({"simpath", "--grid", "3", "--file", g, "--s", "0", "--t", "1"}), {"--grid", "--file"});
  expect_usage_error(run_cli({"simpath"}), {"--grid", "--file"});
  expect_usage_error(run_cli({"simpath", "--grid", "0"}), {"grid 0x0"});
  expect_usage_error(run_cli({"simpath", "--grid", "2,0"}), {"grid 2x0"});
  expect_usage_error(run_cli({"simpath", "--grid", "1,2,3"}), {"--grid", "3 numbers"});
  expect_usage_error(run_cli({"simpath", "--file", file("absent.el"), "--s", "0", "--t", "1"}), {"absent.el"});
  write_file(file("bad.el"), "0 1\n1 x\n");
  expect_usage_error(run_cli({"simpath", "--file", file("bad.el"), "--s", "0", "--t", "1"}), {"bad.el", "line 2"});
  expect_usage_error(run_cli({"simpath", "--grid", "2", "--order", "foo"}), {"foo", "bfs", "greedy"});
  expect_usage_error(run_cli({"simpath", "--grid", "9", "--memory-limit", "1M", "--threads", "1"}),
                     {"memory limit", "1 MiB", "--memory-limit"});
  expect_usage_error(run_cli({"simpath", "--grid", "2", "--sample", "-1"}), {"--sample -1"});
  expect_usage_error(run_cli({"simpath", "--grid", "2", "--threads", "0"}), {"thread"});
  expect_usage_error(run_cli({"simpath", "--grid", "2", "--memory-limit", "lots"}), {"--memory-limit"});
  // A frontier wider than a state holds: refused before any search.
  expect_usage_error(run_cli({"simpath", "--grid", "250", "--threads", "1"}), {"frontier", "248"});
}

// A graph without edges has no path; the record and the refusals read
// consistently (states_per_edge as long as the edges, no "0..-1" range).
TEST_F(SimpathCli, EdgelessGraphsAreReportedConsistently) {
  write_file(file("bare.el"), "# Nodes: 3\n");
  EXPECT_EQ(count_line({"--file", file("bare.el"), "--s", "0", "--t", "2", "--threads", "1"}), "0");
  const auto j =
      run_cli_json({"simpath", "--file", file("bare.el"), "--s", "0", "--t", "2", "--threads", "1", "--json"});
  EXPECT_EQ(j["count"], "0");
  EXPECT_EQ(j["edges"], 0);
  EXPECT_EQ(j["zdd_nodes"], 0);
  EXPECT_TRUE(j["nodes_per_edge"].empty());
  EXPECT_EQ(j["states_per_edge"].size(), j["edges"].get<std::size_t>()) << j.dump();
  write_file(file("empty.el"), "");
  const CliResult r = run_cli({"simpath", "--file", file("empty.el"), "--s", "0", "--t", "1", "--threads", "1"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_EQ(r.err.find("0..-1"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace ulibc::testing
