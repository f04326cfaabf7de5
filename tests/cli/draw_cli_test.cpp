// draw_cli_test.cpp — `ulibc topology|map --draw`: the picture holds one box per object of the machine the
// library loads, nested by the CpuSets, with offline and disallowed processors marked and each thread drawn on
// its processor in its node index's colour; a bad file name or path is refused clearly.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <stdexcept>

// libstdc++ 12's <regex> at -O1 warns of its own std::function members (see map_cli_test.cpp).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#include <regex>
#pragma GCC diagnostic pop

#include "fake_sysfs.hpp"
#include "run_cli.hpp"

namespace ulibc::testing {
namespace {

namespace fs = std::filesystem;

const fs::path kDrawSnapshots = ULIBC_SNAPSHOT_DIR;

// How many elements carry exactly this class attribute.
int class_count(const std::string& svg, const std::string& css) {
  const std::string needle = "class=\"" + css + "\"";
  int n = 0;
  for (std::size_t at = svg.find(needle); at != std::string::npos; at = svg.find(needle, at + 1)) ++n;
  return n;
}

// Elements whose class starts with `level`, whatever marks follow it ("pu", "pu offline", ...).
int level_count(const std::string& svg, const std::string& level) {
  const std::regex pattern("class=\"" + level + "( [a-z0-9]+)*\"");
  return static_cast<int>(std::distance(std::sregex_iterator(svg.begin(), svg.end(), pattern), std::sregex_iterator()));
}

// Extracts a snapshot tarball below `dir`; its root, or "" when the fixtures are absent.
std::string draw_snapshot_root(const std::string& name, const TempDir& dir) {
  const fs::path tarball = kDrawSnapshots / (name + ".tar.bz2");
  if (!fs::exists(tarball)) return "";
  const std::string command = "tar xjf '" + tarball.string() + "' -C '" + dir.path() + "'";
  if (std::system(command.c_str()) != 0) throw std::runtime_error(command + " failed");
  for (const auto& e : fs::directory_iterator(dir.path())) return e.path().string();
  throw std::runtime_error(tarball.string() + " is empty");
}

std::string draw_to_svg(const std::vector<std::string>& args, const TempDir& out) {
  const std::string file = out.path() + "/picture.svg";
  std::vector<std::string> full = args;
  full.insert(full.end(), {"--draw", file});
  const CliResult r = run_cli(full);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "Picture written to " + file + "\n");
  return read_file(file);
}

int distinct_cores(const Topology& topo) {
  std::set<int> cores;
  for (const Processor& p : topo.processors())
    if (p.core >= 0) cores.insert(p.core);
  return static_cast<int>(cores.size());
}

// One box per package, node, core, processor and cache (by level) that the library sees.
void expect_boxes_match(const std::string& svg, const Topology& topo) {
  EXPECT_EQ(class_count(svg, "machine"), 1);
  EXPECT_EQ(level_count(svg, "package"), static_cast<int>(topo.packages().size()));
  EXPECT_EQ(level_count(svg, "node"), static_cast<int>(topo.nodes().size()));
  EXPECT_EQ(level_count(svg, "core"), distinct_cores(topo));
  EXPECT_EQ(level_count(svg, "pu"), static_cast<int>(topo.processors().size()));
  std::map<int, int> per_level;
  for (const Cache& c : topo.caches()) ++per_level[c.level];
  for (int level = 1; level <= 4; ++level)
    EXPECT_EQ(class_count(svg, "cache L" + std::to_string(level)), per_level[level]) << "L" << level;
  EXPECT_EQ(level_count(svg, "pu offline"), (topo.all() - topo.online()).count());
  EXPECT_EQ(level_count(svg, "pu disallowed"), (topo.online() - topo.allowed()).count());
}

FakeMachine draw_paper_machine() { return {.packages = 4, .cores_per_package = 8, .smt = 2}; }

TEST(DrawCli, PaperMachineHasABoxPerObject) {
  TempDir root, out;
  write_fake_sysfs(draw_paper_machine(), root.path());
  const std::string svg = draw_to_svg({"topology", "--fsroot", root.path()}, out);
  ASSERT_TRUE(svg.starts_with("<?xml")) << svg.substr(0, 100);
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
  const Topology topo = Topology::load(root.path());
  expect_boxes_match(svg, topo);
  EXPECT_EQ(level_count(svg, "pu"), 64);
  // One node a package: the package holds the node.
  EXPECT_LT(svg.find("class=\"package\""), svg.find("class=\"node\""));
}

TEST(DrawCli, MemorylessNodeIsDrawnAsSuch) {
  TempDir root, out;
  FakeMachine m = {.packages = 2, .cores_per_package = 2, .smt = 1};
  m.memoryless_nodes = CpuSet{1};
  write_fake_sysfs(m, root.path());
  const std::string svg = draw_to_svg({"topology", "--fsroot", root.path()}, out);
  EXPECT_EQ(class_count(svg, "node memoryless"), 1);
  EXPECT_EQ(class_count(svg, "node"), 1);
  EXPECT_NE(svg.find("memory-less"), std::string::npos);
}

TEST(DrawCli, SmtSnapshotNestsTheNodeAroundItsPackages) {
  TempDir dir, out;
  const std::string root = draw_snapshot_root("16em64t-4s2c2t", dir);
  if (root.empty()) GTEST_SKIP() << "snapshot 16em64t-4s2c2t is absent";
  const std::string svg = draw_to_svg({"topology", "--fsroot", root}, out);
  const Topology topo = Topology::load(root);
  ASSERT_FALSE(topo.caches().empty());
  expect_boxes_match(svg, topo);
  // One node spans the four packages: the node holds them, and each core holds its two SMT siblings.
  EXPECT_LT(svg.find("class=\"node\""), svg.find("class=\"package\""));
  EXPECT_TRUE(std::regex_search(svg, std::regex(R"(class="core"[^\n]*\n<g class="pu" data-os-index="0">)"
                                                R"([^\n]*\n</g>\n<g class="pu" data-os-index="8">)")));
}

TEST(DrawCli, LargeSnapshotStaysASmallNearSquareFile) {
  TempDir dir, out;
  const std::string root = draw_snapshot_root("256ppc-8n8s4t", dir);
  if (root.empty()) GTEST_SKIP() << "snapshot 256ppc-8n8s4t is absent";
  const std::string svg = draw_to_svg({"topology", "--fsroot", root}, out);
  expect_boxes_match(svg, Topology::load(root));
  EXPECT_LT(svg.size(), 400u * 1024u);
  std::smatch size;
  ASSERT_TRUE(std::regex_search(svg, size, std::regex(R"re(<svg [^>]*width="(\d+)" height="(\d+)")re")));
  const double width = std::stod(size[1]), height = std::stod(size[2]);
  EXPECT_LT(width / height, 3.0) << "children wrap into rows, not one long row";
  EXPECT_LT(height / width, 3.0);
}

TEST(DrawCli, OfflineProcessorsAreMarkedAndNamed) {
  TempDir dir, out;
  const std::string root = draw_snapshot_root("16em64t-4s2c2t-offlines", dir);
  if (root.empty()) GTEST_SKIP() << "snapshot 16em64t-4s2c2t-offlines is absent";
  const std::string svg = draw_to_svg({"topology", "--fsroot", root}, out);
  const Topology topo = Topology::load(root);
  const CpuSet offline = topo.all() - topo.online();
  ASSERT_FALSE(offline.empty());
  expect_boxes_match(svg, topo);
  EXPECT_NE(svg.find("Offline processors: " + offline.to_list()), std::string::npos);
}

TEST(DrawCli, DisallowedProcessorsAreMarkedAndNamed) {
  TempDir dir, out;
  const std::string root = draw_snapshot_root("16amd64-8n2c-cpusets", dir);
  if (root.empty()) GTEST_SKIP() << "snapshot 16amd64-8n2c-cpusets is absent";
  const std::string svg = draw_to_svg({"topology", "--fsroot", root}, out);
  const Topology topo = Topology::load(root);
  const CpuSet disallowed = topo.online() - topo.allowed();
  ASSERT_FALSE(disallowed.empty());
  expect_boxes_match(svg, topo);
  EXPECT_NE(svg.find("Disallowed processors (outside the affinity mask or cgroup cpuset): " + disallowed.to_list()),
            std::string::npos);
}

struct ThreadMark {
  int proc = -1, node_index = -1;
  std::string colour;
};

std::map<int, ThreadMark> thread_marks(const std::string& svg) {
  const std::regex mark(
      R"re(<g class="thread" data-thread="(\d+)" data-node-index="(\d+)" data-node="\d+" data-proc="(\d+)" )re"
      R"re(data-colour="([^"]+)">)re");
  std::map<int, ThreadMark> marks;
  for (auto it = std::sregex_iterator(svg.begin(), svg.end(), mark); it != std::sregex_iterator(); ++it)
    marks[std::stoi((*it)[1])] = {std::stoi((*it)[3]), std::stoi((*it)[2]), (*it)[4]};
  return marks;
}

TEST(DrawCli, MapDrawsEachThreadOnItsProcessorInItsNodeColour) {
  TempDir root, out;
  write_fake_sysfs(draw_paper_machine(), root.path());
  const std::string svg = draw_to_svg({"map", "--fsroot", root.path(), "--policy", "scatter", "--threads", "8"}, out);
  EXPECT_EQ(class_count(svg, "thread"), 8);
  const std::map<int, ThreadMark> marks = thread_marks(svg);
  ASSERT_EQ(marks.size(), 8u);
  const std::vector<int> paper = {0, 8, 16, 24, 1, 9, 17, 25};  // the ULIBC paper's Table 3
  std::map<int, std::string> colour_of_index;
  for (const auto& [thread, m] : marks) {
    EXPECT_EQ(m.proc, paper[static_cast<std::size_t>(thread)]);
    EXPECT_EQ(m.node_index, thread % 4);
    colour_of_index.emplace(m.node_index, m.colour);
    EXPECT_EQ(colour_of_index[m.node_index], m.colour) << "one colour per node index";
  }
  std::set<std::string> colours;
  for (const auto& [index, colour] : colour_of_index) colours.insert(colour);
  EXPECT_EQ(colours.size(), 4u) << "node indices differ in colour";
  EXPECT_EQ(level_count(svg, "pu oversubscribed"), 0);
  EXPECT_NE(svg.find("Threads of node index 3 (NUMA node 3): 2"), std::string::npos);
}

TEST(DrawCli, MapShowsOversubscription) {
  TempDir root, out;
  write_fake_sysfs({.packages = 1, .cores_per_package = 2, .smt = 2}, root.path());
  const std::string file = out.path() + "/over.svg";
  const CliResult r =
      run_cli({"map", "--fsroot", root.path(), "--policy", "compact", "--threads", "10", "--draw", file});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.err.find("oversubscribed"), std::string::npos);
  const std::string svg = read_file(file);
  EXPECT_EQ(class_count(svg, "thread"), 10);
  EXPECT_EQ(class_count(svg, "pu oversubscribed"), 4);
  EXPECT_NE(svg.find("oversubscribed: up to 3 threads on one processor"), std::string::npos);
}

bool has_rsvg_convert() { return std::system("command -v rsvg-convert >/dev/null 2>&1") == 0; }

TEST(DrawCli, PngGoesThroughRsvgConvert) {
  if (!has_rsvg_convert()) GTEST_SKIP() << "rsvg-convert (Debian: librsvg2-bin) is absent";
  TempDir root, out;
  write_fake_sysfs({.packages = 2, .cores_per_package = 2, .smt = 2}, root.path());
  const std::string file = out.path() + "/machine.png";
  const CliResult r = run_cli({"map", "--fsroot", root.path(), "--threads", "4", "--draw", file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string png = read_file(file);
  EXPECT_GT(png.size(), 8u);
  EXPECT_TRUE(png.starts_with("\x89PNG\r\n\x1a\n"));
}

TEST(DrawCli, PngWithoutRsvgConvertNamesThePackage) {
  TempDir root, out;
  write_fake_sysfs({.packages = 1, .cores_per_package = 2}, root.path());
  const std::string file = out.path() + "/machine.png";
  const CliResult r = run_program(
      {"/usr/bin/env", "PATH=" + out.path(), ULIBC_CLI_PATH, "topology", "--fsroot", root.path(), "--draw", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("ulibc: error: "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("librsvg2-bin"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(".svg"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(file));
}

TEST(DrawCli, OtherExtensionsAreRefused) {
  TempDir root, out;
  write_fake_sysfs({.packages = 1, .cores_per_package = 2}, root.path());
  const std::string file = out.path() + "/machine.txt";
  expect_usage_error(run_cli({"topology", "--fsroot", root.path(), "--draw", file}), {"machine.txt", ".svg or .png"});
  expect_usage_error(run_cli({"map", "--fsroot", root.path(), "--draw", file}), {"machine.txt", ".svg or .png"});
  EXPECT_FALSE(fs::exists(file));
}

TEST(DrawCli, MissingDirectoryIsNamed) {
  TempDir root, out;
  write_fake_sysfs({.packages = 1, .cores_per_package = 2}, root.path());
  const std::string file = out.path() + "/no/such/dir/machine.svg";
  const CliResult r = run_cli({"topology", "--fsroot", root.path(), "--draw", file});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.out, "");
  EXPECT_NE(r.err.find("ulibc: error: cannot create " + file + ": No such file or directory"), std::string::npos)
      << r.err;
}

TEST(DrawCli, DrawIsRefusedWithJsonAndRanks) {
  TempDir root, out;
  write_fake_sysfs({.packages = 2, .cores_per_package = 2}, root.path());
  const std::string file = out.path() + "/machine.svg";
  expect_usage_error(run_cli({"topology", "--fsroot", root.path(), "--json", "--draw", file}), {"--json"});
  expect_usage_error(run_cli({"map", "--fsroot", root.path(), "--ranks", "2", "--draw", file}), {"--ranks"});
}

}  // namespace
}  // namespace ulibc::testing
