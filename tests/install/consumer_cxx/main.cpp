// main.cpp — an installed-tree consumer of the C++ API (find_package(ulibc) + ulibc::ulibc).
// usage: consumer_cxx [FSROOT [POLICY [THREADS]]]; "-" or no FSROOT: the live machine.
#include <cstdlib>
#include <iostream>
#include <string>
#include <ulibc.hpp>

int main(int argc, char** argv) {
  const std::string fsroot = argc > 1 && std::string(argv[1]) != "-" ? argv[1] : "";
  const std::string policy = argc > 2 ? argv[2] : "compact";
  try {
    const auto topo = ulibc::Topology::load(fsroot);
    const int threads = argc > 3 ? std::atoi(argv[3]) : topo.usable().count();
    const auto map = ulibc::Mapping::build(topo, ulibc::Policy::parse(policy), threads);
    std::cout << "processors " << topo.processors().size() << " nodes " << topo.nodes().size() << " usable "
              << topo.usable().to_list() << "\n";
    std::cout << "policy " << map.policy().name() << " threads " << map.size() << "\n";
    for (const auto& p : map.threads())
      std::cout << "thread " << p.thread << " proc " << p.proc << " node " << p.node << " core " << p.core_id << " smt "
                << p.smt << "\n";
  } catch (const ulibc::Error& e) {
    std::cerr << "ulibc error: " << e.what() << "\n";
    return 1;
  }
  // An Error thrown inside the shared library is caught by its type here.
  try {
    (void)ulibc::CpuSet::parse_list("3-1");
    std::cerr << "parse_list(\"3-1\") did not throw\n";
    return 1;
  } catch (const ulibc::Error& e) {
    std::cout << "caught ulibc::Error kind " << (e.kind() == ulibc::ErrorKind::input ? "input" : "system") << "\n";
  }
  return 0;
}
