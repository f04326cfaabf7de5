// distributed_bfs_check.cpp — `mpirun -n 2 ulibc bench bfs` on an emulated machine of several nodes.
//
// ULIBC shares a machine out among the ranks on it (one rank per node when there are as many nodes); each rank's
// threads run inside its share, and the block of the graph it builds sits on its share's nodes. The ranks are real
// Open MPI processes of the command as users run it, dynamically linked: the runner packs it and Open MPI into the
// initramfs for a machine whose description sets guest.mpi, and elsewhere this check skips. The record's ranks
// table carries each rank's processors, its threads' processors and its graph pages by node.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>

#include "lab.hpp"

namespace {

using lab::live;
using lab::where;
using ulibc::CpuSet;

constexpr const char* kMpirun = "/lab/bin/mpirun";
constexpr const char* kRecord = "/tmp/distributed_bfs.json";
constexpr const char* kLog = "/tmp/distributed_bfs.log";

std::string text_of(const char* path) {
  std::ifstream in(path);
  std::stringstream all;
  all << in.rdbuf();
  return all.str();
}

// Waiting ranks yield (the emulated processors are threads of the host, which a spinning rank would keep from the
// others); Open MPI's own launcher on one machine, without ssh; a bound on the time well inside the runner's limit
// for the whole machine (300 s; the job takes about 4 s), so that a hang fails this check with mpirun's log.
std::string command(const std::string& policies) {
  return std::string("timeout 120 ") + kMpirun +
         " --allow-run-as-root --mca plm isolated --mca mpi_yield_when_idle 1 -x OMP_WAIT_POLICY=passive -n 2"
         " /lab/bin/ulibc bench bfs --scale 12 --roots 4 --threads 2 --variants do --policy " +
         policies + " --json " + kRecord + " >" + kLog + " 2>&1";
}

// The nodes that hold processors of `share`.
std::set<int> nodes_of(const CpuSet& share) {
  std::set<int> nodes;
  for (const auto& n : live().nodes())
    if (n.cpus.intersects(share)) nodes.insert(n.id);
  return nodes;
}

// One policy's run: the two ranks' shares take disjoint nodes, each thread runs in its rank's share, and every page
// of a rank's graph is on one of its share's nodes (the nearest node with memory for a memory-less one).
void check_run(const nlohmann::json& run) {
  ASSERT_TRUE(run.at("valid").get<bool>()) << run.dump(1);
  const nlohmann::json& ranks = run.at("results").at(0).at("details").at("ranks");
  ASSERT_EQ(ranks.size(), 2u);
  std::set<int> taken;
  for (const nlohmann::json& row : ranks) {
    const std::string rank = "rank " + row.at("rank").dump();
    const CpuSet share = CpuSet::parse_list(row.at("processors").get<std::string>());
    std::set<int> homes;
    for (const int node : nodes_of(share)) {
      EXPECT_TRUE(taken.insert(node).second) << rank << ": node " << node << " is in another rank's share too";
      homes.insert(lab::machine().nearest_memory_node(node));
    }
    for (const int proc : row.at("thread_processors").get<std::vector<int>>())
      EXPECT_TRUE(share.test(proc)) << rank << ": a thread on processor " << proc << ", outside its share "
                                    << share.to_list();
    const nlohmann::json& pages = row.at("graph_pages");
    std::size_t home_pages = 0;
    for (const auto& [node, count] : pages.at("per_node").items())
      if (homes.count(std::stoi(node))) home_pages += count.get<std::size_t>();
    EXPECT_GT(pages.at("pages").get<std::size_t>(), 0u) << rank;
    EXPECT_EQ(home_pages, pages.at("pages").get<std::size_t>())
        << rank << " (processors " << share.to_list() << "): graph pages " << pages.dump();
  }
}

TEST(DistributedBfs, EachRanksThreadsAndGraphPagesSitOnItsOwnNodes) {
  if (access(kMpirun, X_OK) != 0)
    GTEST_SKIP() << "no Open MPI in this guest: the runner packs it for machines whose description sets guest.mpi, "
                    "when the host has it";
  ASSERT_GE(live().nodes().size(), 2u) << "two ranks need two nodes to be told apart";
  const std::string policies = "scatter,compact";
  const int status = std::system(command(policies).c_str());
  ASSERT_EQ(status, 0) << "mpirun ended with status " << status << ":\n" << text_of(kLog);
  const nlohmann::json record = nlohmann::json::parse(text_of(kRecord));
  ASSERT_EQ(record.at("runs").size(), 2u) << text_of(kLog);
  for (const nlohmann::json& run : record.at("runs"))
    lab::check(where("2 ranks, policy " + run.at("policy").get<std::string>()), [&] { check_run(run); });
}

}  // namespace
