// sssp_cli_test.cpp — `ulibc sssp` as a user runs it: DIMACS check lines with the right
// checksums on a graph small enough to solve by hand, the same checksums
// from every algorithm, thread count, policy and page kind, generated graphs
// written as DIMACS files and read back, point-to-point queries, and bad
// input refused with the file and line.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {
namespace {

// 1 -> 2 (3, and a parallel 7), 2 -> 3 (4), 1 -> 3 (9), 3 -> 1 (0), a self-loop
// on 2, and 4 -> 5 (1) out of reach of 1..3. Checksums by hand, per source:
// 1: 0+3+7 = 10; 2: 4+0+4 = 8 (3 -> 1 is free); 3: 0+3+0 = 3; 4: 1; 5: 0.
constexpr const char* kTinyGraph =
    "c a graph small enough to solve by hand\n"
    "p sp 5 7\n"
    "a 1 2 3\n"
    "a 2 3 4\n"
    "a 1 3 9\n"
    "a 3 1 0\n"
    "c comments may come anywhere\n"
    "a 2 2 5\n"
    "a 1 2 7\n"
    "a 4 5 1\n";

// source (1-based) -> checksum, from the "d" lines of a text run.
std::map<int, std::uint64_t> checksums(const std::string& out) {
  std::map<int, std::uint64_t> sums;
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("d ")) continue;
    std::istringstream fields(line.substr(2));
    int source = 0;
    std::uint64_t sum = 0;
    fields >> source >> sum;
    sums[source] = sum;
  }
  return sums;
}

class SsspCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return dir_.path() + "/" + name; }
  // Runs `ulibc sssp args...`, expecting success.
  std::string sssp(std::vector<std::string> args) const {
    args.insert(args.begin(), "sssp");
    const CliResult r = run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return r.out;
  }
  CliResult sssp_failing(std::vector<std::string> args) const {
    args.insert(args.begin(), "sssp");
    return run_cli(args);
  }

 private:
  TempDir dir_;
};

TEST_F(SsspCli, ChecksumsOfAGraphSolvedByHand) {
  write_file(file("tiny.gr"), kTinyGraph);
  const std::map<int, std::uint64_t> expected = {{1, 10}, {2, 8}, {3, 3}, {4, 1}, {5, 0}};
  const std::string out = sssp({"--graph", file("tiny.gr"), "--all-pairs", "--threads", "1"});
  EXPECT_EQ(checksums(out), expected) << out;
  EXPECT_NE(out.find("p chk sp ss ulibc"), std::string::npos) << out;
  EXPECT_NE(out.find("g 5 7 0 9"), std::string::npos) << out;  // vertices, arcs, lightest and heaviest weight
  for (const char* algorithm : {"binary", "radix"})
    EXPECT_EQ(checksums(sssp({"--graph", file("tiny.gr"), "--all-pairs", "--threads", "1", "--algorithm", algorithm})),
              expected)
        << algorithm;
  for (const char* algorithm : {"delta", "many"})
    EXPECT_EQ(checksums(sssp({"--graph", file("tiny.gr"), "--all-pairs", "--threads", "2", "--algorithm", algorithm})),
              expected)
        << algorithm;
  write_file(file("tiny.ss"), "p aux sp ss 2\ns 2\ns 4\n");
  EXPECT_EQ(checksums(sssp({"--graph", file("tiny.gr"), "--sources", file("tiny.ss"), "--threads", "1"})),
            (std::map<int, std::uint64_t>{{2, 8}, {4, 1}}));
}

TEST_F(SsspCli, PointToPointDistancesWithUnreachableTargets) {
  write_file(file("tiny.gr"), kTinyGraph);
  write_file(file("tiny.p2p"), "p aux sp p2p 4\nq 1 3\nq 3 2\nq 1 5\nq 4 5\n");
  const std::string out = sssp(
      {"--graph", file("tiny.gr"), "--pairs", file("tiny.p2p"), "--threads", "1", "--output", file("tiny.p2p.chk")});
  for (const char* line : {"d 1 3 7\n", "d 3 2 3\n", "d 1 5 -1\n", "d 4 5 1\n"})
    EXPECT_NE(out.find(line), std::string::npos) << line << " in " << out;
  EXPECT_NE(read_file(file("tiny.p2p.chk")).find("p chk sp p2p ulibc"), std::string::npos);
}

TEST_F(SsspCli, EveryAlgorithmPolicyAndPageKindAgreesOnAGeneratedGraph) {
  const std::vector<std::string> problem = {"--generate", "40,50", "--seed", "3", "--queries", "6"};
  auto run = [&](std::vector<std::string> extra) {
    std::vector<std::string> args = problem;
    args.insert(args.end(), extra.begin(), extra.end());
    return checksums(sssp(args));
  };
  const std::map<int, std::uint64_t> expected = run({"--threads", "1", "--algorithm", "binary"});
  ASSERT_EQ(expected.size(), 6u);
  EXPECT_EQ(run({"--threads", "1"}), expected);
  for (const char* policy : {"none", "scatter", "compact", "compact+"}) {
    EXPECT_EQ(run({"--threads", "2", "--policy", policy, "--algorithm", "many"}), expected) << policy;
    EXPECT_EQ(run({"--threads", "2", "--policy", policy, "--algorithm", "delta"}), expected) << policy;
  }
  EXPECT_EQ(run({"--threads", "2", "--algorithm", "many", "--hugepages", "--replicate"}), expected);
  EXPECT_EQ(run({"--threads", "3", "--algorithm", "delta", "--hugepages", "--delta", "64"}), expected);
}

TEST_F(SsspCli, GeneratedFilesReadBackToTheSameAnswers) {
  const std::string generated =
      sssp({"--generate", "30,20", "--queries", "5", "--threads", "1", "--write-graph", file("g.gr"), "--write-sources",
            file("g.ss"), "--write-coordinates", file("g.co")});
  EXPECT_NE(read_file(file("g.gr")).find("p sp 600 "), std::string::npos);
  EXPECT_NE(read_file(file("g.co")).find("p aux sp co 600"), std::string::npos);
  EXPECT_NE(read_file(file("g.ss")).find("p aux sp ss 5"), std::string::npos);
  const std::string text = sssp({"--graph", file("g.gr"), "--sources", file("g.ss"), "--threads", "1"});
  EXPECT_EQ(checksums(text), checksums(generated));
  sssp({"--graph", file("g.gr"), "--sources", file("g.ss"), "--threads", "1", "--write-graph", file("g.bin"),
        "--no-solve"});
  const std::string binary = sssp({"--graph", file("g.bin"), "--sources", file("g.ss"), "--threads", "1"});
  EXPECT_EQ(checksums(binary), checksums(generated));
}

TEST_F(SsspCli, JsonRecordsEveryQuery) {
  write_file(file("tiny.gr"), kTinyGraph);
  const nlohmann::json j =
      run_cli_json({"sssp", "--graph", file("tiny.gr"), "--source", "1,4", "--threads", "1", "--json"});
  EXPECT_EQ(j["graph"]["vertices"], 5);
  EXPECT_EQ(j["graph"]["arcs"], 7);
  EXPECT_EQ(j["algorithm"], "radix");
  ASSERT_EQ(j["queries"].size(), 2u);
  EXPECT_EQ(j["queries"][0]["source"], 1);
  EXPECT_EQ(j["queries"][0]["checksum"], 10);
  EXPECT_EQ(j["queries"][0]["reached"], 3);
  EXPECT_EQ(j["queries"][0]["arcs"], 6);  // out-arcs of 1 (3), 2 (2) and 3 (1)
  EXPECT_EQ(j["queries"][1]["checksum"], 1);
  EXPECT_GT(j["queries_per_second"].get<double>(), 0);
}

TEST_F(SsspCli, QuickBenchmarkChecksEveryVariantAgainstTheReference) {
  if (Topology::load().usable().count() < 2) GTEST_SKIP() << "the sweep uses two threads";
  const CliResult r = run_cli({"bench", "sssp", "--quick", "--policy", "none,compact", "--threads", "1,2", "--variants",
                               "many,delta,radix,binary", "--hugepages", "--replicate", "--json", file("s.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("g 4096 "), std::string::npos) << r.out;  // the 64 x 64 quick graph's DIMACS lines
  const auto j = nlohmann::json::parse(read_file(file("s.json")));
  EXPECT_EQ(j["headline"], "throughput");
  EXPECT_EQ(j["parameters"]["queries"], 8);
  ASSERT_EQ(j["runs"].size(), 4u);
  for (const auto& run : j["runs"]) {
    std::vector<std::string> variants;
    for (const auto& result : run["results"]) {
      variants.push_back(result["variant"]);
      EXPECT_TRUE(result["valid"].get<bool>()) << result["check"];
      ASSERT_EQ(result["details"]["queries"].size(), 8u);
      for (std::size_t k = 0; k < 8; ++k)
        EXPECT_EQ(result["details"]["queries"][k]["checksum"],
                  j["runs"][0]["results"][0]["details"]["queries"][k]["checksum"]);
    }
    // The one-thread Dijkstras only at one thread; the twins of many and delta always.
    std::vector<std::string> expected = {"many", "many-huge", "many-rep", "many-rep-huge", "delta", "delta-huge"};
    if (run["threads"] == 1) expected.insert(expected.end(), {"radix", "binary"});
    EXPECT_EQ(variants, expected) << run.dump();
  }
  expect_usage_error(run_cli({"bench", "sssp", "--quick", "--variants", "fast"}), {"--variants", "fast"});
  expect_usage_error(run_cli({"bench", "sssp", "--quick", "--pairs", "x.p2p"}), {"--pairs"});
}

TEST_F(SsspCli, BadFilesAreRefusedWithTheirLine) {
  struct Case {
    const char* graph;
    const char* needle;
  };
  const Case cases[] = {
      {"p sp 2 1\na 1 2 -3\n", ":2:"}, {"p sp 2 1\na 1 2 4294967296\n", ":2:"}, {"p sp 2 1\na 1 3 1\n", ":2:"},
      {"p sp 2 2\na 1 2 1\n", "2"},    {"p sp 2 1\nx 1 2 1\n", ":2:"},          {"a 1 2 1\n", ":1:"},
  };
  for (const Case& c : cases) {
    write_file(file("bad.gr"), c.graph);
    expect_usage_error(sssp_failing({"--graph", file("bad.gr"), "--threads", "1"}), {file("bad.gr"), c.needle});
  }
  write_file(file("tiny.gr"), kTinyGraph);
  write_file(file("bad.ss"), "p aux sp ss 2\ns 1\ns 6\n");
  expect_usage_error(sssp_failing({"--graph", file("tiny.gr"), "--sources", file("bad.ss"), "--threads", "1"}),
                     {file("bad.ss"), ":3:", "6"});
}

TEST_F(SsspCli, BadOptionsAreRefused) {
  write_file(file("tiny.gr"), kTinyGraph);
  const std::string g = file("tiny.gr");
  expect_usage_error(sssp_failing({"--threads", "1"}), {"--graph", "--generate"});
  expect_usage_error(sssp_failing({"--graph", g, "--generate", "3,3"}), {"--graph", "--generate"});
  expect_usage_error(sssp_failing({"--graph", file("missing.gr")}), {"missing.gr"});
  expect_usage_error(sssp_failing({"--graph", g, "--threads", "2", "--algorithm", "radix"}), {"one thread"});
  expect_usage_error(sssp_failing({"--graph", g, "--algorithm", "fast"}), {"--algorithm"});
  expect_usage_error(sssp_failing({"--graph", g, "--source", "6"}), {"--source 6"});
  expect_usage_error(sssp_failing({"--graph", g, "--source", "1", "--queries", "3"}), {"one way"});
  expect_usage_error(sssp_failing({"--graph", g, "--queries", "-1"}), {"--queries"});
  expect_usage_error(sssp_failing({"--generate", "300,300", "--all-pairs"}), {"--all-pairs"});
  expect_usage_error(sssp_failing({"--generate", "0,5"}), {"rows"});
  expect_usage_error(sssp_failing({"--graph", g, "--threads", "1", "--algorithm", "radix", "--replicate"}),
                     {"--replicate"});
  expect_usage_error(sssp_failing({"--graph", g, "--write-coordinates", file("c.co")}), {"coordinates"});
  const CliResult unwritable = sssp_failing({"--graph", g, "--output", file("no_such_dir/x.chk")});
  EXPECT_EQ(unwritable.exit_code, 1) << unwritable.err;  // the system refused: exit 1, not a usage error
  EXPECT_NE(unwritable.err.find("cannot create " + file("no_such_dir/x.chk") + ": No such file or directory"),
            std::string::npos)
      << unwritable.err;
  EXPECT_EQ(unwritable.out, "") << "nothing solved";
  write_file(file("empty.gr"), "p sp 0 0\n");
  expect_usage_error(sssp_failing({"--graph", file("empty.gr"), "--all-pairs"}), {"no queries", "0 vertices"});
  write_file(file("none.ss"), "p aux sp ss 0\n");
  expect_usage_error(sssp_failing({"--graph", g, "--sources", file("none.ss")}), {"no queries", "none.ss"});
}

}  // namespace
}  // namespace ulibc::testing
