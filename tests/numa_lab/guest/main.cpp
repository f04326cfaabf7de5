// main.cpp — the guest test program of the virtual NUMA lab.
//
// Runs as a static binary from the initramfs, under the in-guest actions of
// its machine (processors offline, a taskset mask), and checks the live
// machine against the description the runner booted QEMU from:
//   ulibc_lab_guest --machine /lab/machine.json [gtest flags]
// Before the tests it prints what ULIBC sees, so that a failure can be read
// against the machine as a whole.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <exception>
#include <fstream>
#include <string>

#include "lab.hpp"
#include "machine.hpp"
#include "ulibc/affinity.hpp"

namespace {

void print_live(const lab::Machine& m) {
  std::printf("lab: machine %s: %s\n", m.name.c_str(), m.about.c_str());
  try {
    const auto& topo = lab::live();
    std::printf("lab: ULIBC sees online %s, allowed %s, process mask %s\n", topo.online().to_list().c_str(),
                topo.allowed().to_list().c_str(), ulibc::current_affinity().to_list().c_str());
    for (const auto& n : topo.nodes()) {
      std::string dist;
      for (int d : n.distances) dist += " " + std::to_string(d);
      std::printf("lab:   node %d: processors %s, %llu MiB, distances%s\n", n.id, n.cpus.to_list().c_str(),
                  static_cast<unsigned long long>(n.memory_bytes >> 20), dist.c_str());
    }
    for (const auto& note : topo.notes()) std::printf("lab:   note: %s\n", note.c_str());
    // Page placement reads differently when the kernel hands out huge pages unasked.
    std::ifstream thp("/sys/kernel/mm/transparent_hugepage/enabled");
    std::string line;
    if (std::getline(thp, line)) std::printf("lab: transparent huge pages: %s\n", line.c_str());
    // ... and when the kernel's NUMA balancing moves or unmaps pages on its own schedule.
    std::ifstream balancing("/proc/sys/kernel/numa_balancing");
    if (std::getline(balancing, line)) std::printf("lab: automatic NUMA balancing: %s\n", line.c_str());
  } catch (const std::exception& e) {
    std::printf("lab: Topology::load() failed: %s\n", e.what());
  }
  std::fflush(stdout);
}

}  // namespace

int main(int argc, char** argv) {
  testing::InitGoogleTest(&argc, argv);  // takes the gtest flags out of argv
  std::string path;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::strcmp(argv[i], "--machine") == 0) path = argv[i + 1];
  if (path.empty()) {
    std::fprintf(stderr, "usage: %s --machine DESCRIPTION.json [gtest flags]\n", argv[0]);
    return 2;
  }
  try {
    lab::set_machine(lab::Machine::load(path));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "lab: %s\n", e.what());
    return 2;
  }
  print_live(lab::machine());
  return RUN_ALL_TESTS();
}
