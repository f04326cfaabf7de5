// bfs_cli_test.cpp — `ulibc bench bfs` as a user runs it: the Graph500 block and record of a
// quick sweep, graphs written and read back, and bad graphs, keys and sizes
// refused with the reason.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "fake_sysfs.hpp"
#include "run_cli.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::testing {
namespace {

// Little-endian bytes of a uint64 or uint32, for hand-made binary edge files.
template <class U>
std::string le(U x) {
  std::string s;
  for (std::size_t i = 0; i < sizeof(U); ++i) s += static_cast<char>((x >> (8 * i)) & 0xff);
  return s;
}

class BfsCli : public ::testing::Test {
 protected:
  std::string file(const std::string& name) const { return dir_.path() + "/" + name; }

 private:
  TempDir dir_;
};

TEST_F(BfsCli, QuickSweepPrintsGraph500BlocksAndRecordsEverySearch) {
  if (Topology::load().usable().count() < 2) GTEST_SKIP() << "the sweep uses two threads";
  const CliResult r =
      run_cli({"bench", "bfs", "--quick", "--policy", "none,compact", "--threads", "1,2", "--json", file("b.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("SCALE: 10\nedgefactor: 16\nkernel: numa\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("harmonic_mean_TEPS: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("validation: PASSED (8 of 8 searches)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("GTEPS"), std::string::npos) << r.out;

  const auto j = nlohmann::json::parse(read_file(file("b.json")));
  EXPECT_EQ(j["headline"], "GTEPS");
  EXPECT_EQ(j["parameters"]["vertices"], 1024);
  EXPECT_EQ(j["parameters"]["input_edges"], 16 * 1024);
  ASSERT_EQ(j["parameters"]["roots"].size(), 8u);
  ASSERT_EQ(j["runs"].size(), 4u);
  for (const auto& run : j["runs"]) {
    // none: the plain kernel only (the NUMA kernel needs a placement); compact: both.
    ASSERT_EQ(run["results"].size(), run["policy"] == "none" ? 1u : 2u) << run.dump();
    for (const auto& result : run["results"]) {
      EXPECT_TRUE(result["valid"].get<bool>()) << result["check"];
      const auto& searches = result["details"]["searches"];
      ASSERT_EQ(searches.size(), 8u);
      for (std::size_t k = 0; k < 8; ++k) {
        EXPECT_EQ(searches[k]["root"], j["parameters"]["roots"][k]);
        EXPECT_GT(searches[k]["edges"].get<std::int64_t>(), 0);
        // Every kernel, thread count and placement traverses the same component.
        EXPECT_EQ(searches[k]["edges"], j["runs"][0]["results"][0]["details"]["searches"][k]["edges"]);
      }
      EXPECT_EQ(result["measurements"][0]["name"], "GTEPS");
      EXPECT_EQ(result["measurements"][0]["reps"].size(), 8u);
      EXPECT_GT(result["details"]["bytes_per_input_edge"].get<double>(), 4.0);
    }
  }
}

// A graph written in either format and searched again from the same keys
// traverses the same edges: the files hold the whole graph.
TEST_F(BfsCli, WrittenGraphsReadBackTheSame) {
  const auto first = run_cli_json({"bench", "bfs", "--quick", "--scale", "9", "--policy", "compact", "--threads", "1",
                                   "--variants", "do,top-down,bottom-up", "--write-graph", file("g.bin"), "--json"});
  ASSERT_TRUE(std::filesystem::exists(file("g.bin")));
  // A Kronecker graph's tuples are drawn again when read, never held: the kernel's lists are the graph.
  EXPECT_EQ(first["parameters"]["graph_bytes"], 0);
  EXPECT_GT(first["parameters"]["arcs"].get<std::int64_t>(), 0);
  std::string roots;
  for (const auto& r : first["parameters"]["roots"]) roots += (roots.empty() ? "" : ",") + r.dump();
  const auto edges_of = [](const nlohmann::json& j, std::size_t result) {
    std::vector<std::int64_t> edges;
    for (const auto& s : j["runs"][0]["results"][result]["details"]["searches"]) edges.push_back(s["edges"]);
    return edges;
  };
  for (std::size_t variant = 1; variant < 3; ++variant) EXPECT_EQ(edges_of(first, variant), edges_of(first, 0));
  run_cli_json({"bench", "bfs", "--quick", "--scale", "9", "--policy", "compact", "--threads", "1", "--variants", "do",
                "--write-graph", file("g.el"), "--json"});
  for (const char* name : {"g.bin", "g.el"}) {
    const auto again = run_cli_json({"bench", "bfs", "--file", file(name), "--root", roots, "--policy", "compact",
                                     "--threads", "1", "--variants", "do", "--json"});
    EXPECT_EQ(again["parameters"]["vertices"], 512) << name;
    EXPECT_EQ(again["parameters"]["input_edges"], 16 * 512) << name;
    EXPECT_EQ(again["parameters"]["arcs"], first["parameters"]["arcs"]) << name;
    // A file's tuples stay for the validator, and count.
    EXPECT_EQ(again["parameters"]["graph_bytes"], 16 * 512 * 8) << name;
    EXPECT_EQ(edges_of(again, 0), edges_of(first, 0)) << name;
  }
}

TEST_F(BfsCli, BadGraphsAreRefusedWithTheReason) {
  expect_usage_error(run_cli({"bench", "bfs", "--scale", "31"}), {"SCALE 31"});
  expect_usage_error(run_cli({"bench", "bfs", "--scale", "0"}), {"SCALE 0"});
  expect_usage_error(run_cli({"bench", "bfs", "--scale", "10", "--edgefactor", "0"}), {"edgefactor"});
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("absent.el")}), {"absent.el"});
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("absent.el"), "--scale", "4"}), {"--file", "--scale"});

  write_file(file("beyond.el"), "# Nodes: 4\n0 1\n1 5\n");
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("beyond.el")}), {"beyond.el", "line 3", "5"});
  write_file(file("negative.el"), "0 1\n2 -7\n");
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("negative.el")}), {"negative.el", "line 2", "-7"});
  // The header promises 3 edges; the file holds one and a half.
  write_file(file("short.bin"), std::string("ULIBCEL1") + le<std::uint64_t>(4) + le<std::uint64_t>(3) +
                                    le<std::uint32_t>(0) + le<std::uint32_t>(1) + le<std::uint32_t>(2));
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("short.bin")}), {"short.bin", "truncated"});
  write_file(file("empty.el"), "# no edges at all\n");
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("empty.el")}), {"no edges"});
}

TEST_F(BfsCli, BadKeysAndOptionsAreRefused) {
  write_file(file("star.el"), "# Nodes: 6\n0 1\n0 2\n0 3\n");  // 4 and 5 have no edges
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("star.el"), "--root", "4"}), {"--root 4", "no edges"});
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("star.el"), "--root", "6"}), {"--root 6", "0..5"});
  expect_usage_error(run_cli({"bench", "bfs", "--file", file("star.el"), "--root", "-1"}), {"--root -1"});
  expect_usage_error(run_cli({"bench", "bfs", "--quick", "--roots", "0"}), {"--roots 0"});
  expect_usage_error(run_cli({"bench", "bfs", "--quick", "--variants", "sideways"}), {"sideways"});
  expect_usage_error(run_cli({"bench", "bfs", "--quick", "--alpha", "0"}), {"--alpha"});
}

TEST(BfsCliErrors, GraphsThatCannotFitAreRefusedBeforeAllocating) {
  // SCALE 30 with edgefactor 1024: 2^40 tuples, terabytes.
  expect_usage_error(run_cli({"bench", "bfs", "--scale", "30", "--edgefactor", "1024"}), {"need", "available"});
}

}  // namespace
}  // namespace ulibc::testing
