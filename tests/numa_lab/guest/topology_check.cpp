// topology_check.cpp — Topology::load() on the live guest equals what QEMU
// was told: nodes and their processors, memory or none, distances, and per
// processor its package, core and SMT rank, after the in-guest actions
// (offline processors, taskset).
#include <gtest/gtest.h>

#include "lab.hpp"
#include "ulibc/topology.hpp"
#include "ulibc/ulibc.h"

namespace {

using lab::machine;
using lab::where;
using ulibc::Topology;

TEST(Topology, NodesMatchTheDescription) {
  const auto& m = machine();
  const Topology topo = Topology::load();
  SCOPED_TRACE(where("topology of the live guest"));
  EXPECT_TRUE(topo.is_live());
  ASSERT_EQ(topo.nodes().size(), m.nodes.size()) << "node count";
  for (const auto& spec : m.nodes) {
    const ulibc::Node* n = topo.node(spec.id);
    ASSERT_NE(n, nullptr) << "node " << spec.id << " is missing";
    EXPECT_EQ(n->cpus, spec.cpus) << "node " << spec.id << " processors: expected " << spec.cpus.to_list() << ", found "
                                  << n->cpus.to_list();
    EXPECT_EQ(n->has_memory(), spec.memory_mib > 0) << "node " << spec.id << " memory: described " << spec.memory_mib
                                                    << " MiB, found " << n->memory_bytes << " bytes";
    EXPECT_LE(n->memory_bytes, spec.memory_mib << 20) << "node " << spec.id << " has more memory than QEMU gave it";
    EXPECT_EQ(n->distances, m.distances.at(static_cast<std::size_t>(spec.id))) << "node " << spec.id << " distances";
    for (const auto& other : m.nodes)
      EXPECT_EQ(topo.distance(spec.id, other.id), m.distances[spec.id][other.id])
          << "distance(" << spec.id << ", " << other.id << ")";
  }
}

TEST(Topology, ProcessorsMatchTheDescription) {
  const auto& m = machine();
  const Topology topo = Topology::load();
  SCOPED_TRACE(where("topology of the live guest"));
  EXPECT_EQ(topo.all(), m.all()) << "processors: expected " << m.all().to_list() << ", found " << topo.all().to_list();
  EXPECT_EQ(topo.online(), m.online()) << "online: expected " << m.online().to_list() << " (offline "
                                       << m.offline.to_list() << "), found " << topo.online().to_list();
  EXPECT_EQ(topo.allowed(), m.usable()) << "allowed: expected " << m.usable().to_list() << " (taskset "
                                        << m.taskset.to_list() << "), found " << topo.allowed().to_list();
  EXPECT_EQ(topo.usable(), m.usable()) << "usable: expected " << m.usable().to_list() << ", found "
                                       << topo.usable().to_list();
  for (int id : m.all()) {
    const ulibc::Processor* p = topo.processor(id);
    ASSERT_NE(p, nullptr) << "processor " << id << " is missing";
    EXPECT_EQ(p->node, m.node_of(id)) << "processor " << id << " node";
    EXPECT_EQ(p->online, m.online().test(id)) << "processor " << id << " online flag";
    EXPECT_EQ(p->allowed, m.usable().test(id)) << "processor " << id << " allowed flag";
    if (!m.online().test(id)) continue;  // the kernel removes an offline processor's topology directory
    EXPECT_EQ(p->package, m.package_of(id)) << "processor " << id << " package (QEMU socket)";
    EXPECT_EQ(p->core_id, m.core_of(id)) << "processor " << id << " core_id (QEMU core)";
    EXPECT_EQ(p->smt, m.smt_rank(id)) << "processor " << id << " SMT rank (QEMU thread " << m.thread_of(id) << ")";
  }
}

TEST(Topology, PackagesMatchTheSockets) {
  const auto& m = machine();
  const Topology topo = Topology::load();
  SCOPED_TRACE(where("topology of the live guest"));
  ASSERT_EQ(static_cast<int>(topo.packages().size()), m.sockets) << "package count";
  for (int s = 0; s < m.sockets; ++s) {
    ulibc::CpuSet expected;
    for (int id : m.online())
      if (m.package_of(id) == s) expected.set(id);
    const ulibc::Package* found = nullptr;
    for (const auto& pkg : topo.packages())
      if (pkg.id == s) found = &pkg;
    ASSERT_NE(found, nullptr) << "package " << s << " is missing";
    EXPECT_EQ(found->cpus & topo.online(), expected)
        << "package " << s << " online processors: expected " << expected.to_list() << ", found "
        << (found->cpus & topo.online()).to_list();
  }
}

// The C API sees the same machine.
TEST(Topology, CApiCounts) {
  const auto& m = machine();
  SCOPED_TRACE(where("C API"));
  ASSERT_EQ(ulibc_init_with(nullptr, "scatter", 0), 0) << ulibc_last_error();
  EXPECT_EQ(ulibc_get_num_nodes(), static_cast<int>(m.nodes.size()));
  EXPECT_EQ(ulibc_get_num_procs(), m.usable().count());
  EXPECT_EQ(ulibc_get_num_threads(), m.usable().count());
}

}  // namespace
