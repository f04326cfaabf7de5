// fig6_triad.cpp — the ULIBC paper's Fig. 6 in C++: STREAM Triad on
// node-distributed arrays, each thread bound by the mapping and working on
// its own range.
//
//   usage: fig6_triad_cxx [POLICY [THREADS [N]]]     (defaults: scatter, all, 4 Mi)
//
// One NodeArray per operand: one contiguous range whose part for each node
// is bound to that node. run_team starts the mapping's threads already bound;
// fill() is the parallel first touch. The program shows where every thread ran
// and where every page sits, and fails if either differs from the mapping.
#include <cstdio>
#include <cstdlib>
#include <string>
#include <ulibc.hpp>
#include <vector>

int main(int argc, char** argv) try {
  const ulibc::Topology topo = ulibc::Topology::load();
  const ulibc::Policy policy = ulibc::Policy::parse(argc > 1 ? argv[1] : "scatter");
  const int threads = argc > 2 ? std::atoi(argv[2]) : topo.usable().count();
  const std::size_t n = argc > 3 ? std::strtoull(argv[3], nullptr, 10) : std::size_t{1} << 22;
  const ulibc::Mapping map = ulibc::Mapping::build(topo, policy, threads);

  ulibc::NodeArray<double> a(topo, map, n), b(topo, map, n), c(topo, map, n);
  b.fill(1.0);
  c.fill(2.0);
  std::vector<int> cpu(static_cast<std::size_t>(map.size()));
  ulibc::run_team(map, [&](const ulibc::Placement& p) {
    for (std::size_t i : a.thread_range(p.thread)) a[i] = b[i] + 3.0 * c[i];
    cpu[static_cast<std::size_t>(p.thread)] = ulibc::current_processor();
  });

  int failures = 0;
  const bool bound = policy.kind() != ulibc::PolicyKind::none;
  std::printf("policy %s, %d threads, %d node(s), n = %zu\n", policy.name().c_str(), map.size(), map.nodes_used(), n);
  for (const ulibc::Placement& p : map.threads()) {
    const int ran = cpu[static_cast<std::size_t>(p.thread)];
    std::printf("  thread %2d ran on processor %2d, mapped to %2d (node %d)\n", p.thread, ran, p.proc, p.node);
    failures += bound && ran != p.proc;
  }
  for (int k = 0; k < map.nodes_used(); ++k) {
    const int node = map.node_ids()[static_cast<std::size_t>(k)];
    std::size_t pages = 0, local = 0;
    for (const auto* array : {&a, &b, &c}) {
      const auto part = array->node_part(k);
      const ulibc::PagePlacement where = ulibc::page_placement(part.data(), part.size_bytes());
      pages += where.pages;
      local += where.per_node.contains(node) ? where.per_node.at(node) : 0;
    }
    if (bound)
      std::printf("  node index %d (node %d): %zu elements, %zu of %zu pages on the node\n", k, node,
                  a.node_part(k).size(), local, pages);
    else
      std::printf("  %zu elements, unbound: pages where first touch put them\n", a.node_part(k).size());
    failures += bound && local != pages;
  }
  for (std::size_t i = 0; i < n; ++i) failures += a[i] != 7.0;
  std::printf("%s\n", failures ? "FAILED: see the lines above" : "every thread and every page where the mapping says");
  return failures ? 1 : 0;
} catch (const std::exception& e) {
  std::fprintf(stderr, "fig6_triad_cxx: %s\n", e.what());
  return 2;
}
