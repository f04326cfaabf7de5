// binding/apic_ids.cpp — the processor-id ↔ APIC-id table (ulibc/apic.hpp).
// It lives with binding because the live machine's ids are read by running
// on each processor.
#include <algorithm>
#include <cstdio>

#include "binding/affinity_calls.hpp"
#include "os/cpuid.hpp"
#include "topology/cpuinfo.hpp"
#include "ulibc/apic.hpp"
#include "ulibc/error.hpp"

namespace ulibc {

namespace {

constexpr bool kX86Build =
#if defined(__x86_64__) || defined(__i386__)
    true;
#else
    false;
#endif

std::string hex_leaf(unsigned leaf) {
  char buf[16];
  std::snprintf(buf, sizeof buf, "0x%X", leaf);
  return buf;
}

// Asks every usable processor its APIC id from a thread moved onto it, then
// puts the caller's mask back (binding records are left alone: this is not a
// binding). Returns the leaves used, in words.
std::string ask_each_processor(const Topology& topo, std::vector<ApicEntry>& entries) {
  const CpuSet mask = detail::thread_affinity();
  std::vector<unsigned> leaves;
  try {
    for (ApicEntry& e : entries) {
      if (!topo.processor(e.proc)->usable()) continue;
      detail::set_affinity(CpuSet{e.proc});
      if (const auto read = os::apic_id_here()) {
        e.cpuid = read->id;
        if (std::find(leaves.begin(), leaves.end(), read->leaf) == leaves.end()) leaves.push_back(read->leaf);
      }
    }
  } catch (...) {
    detail::set_affinity(mask);
    throw;
  }
  detail::set_affinity(mask);
  std::string words;
  for (unsigned leaf : leaves) words += (words.empty() ? "" : ", ") + hex_leaf(leaf);
  return words;
}

}  // namespace

const ApicEntry* ApicTable::of(int proc) const {
  auto it =
      std::lower_bound(entries.begin(), entries.end(), proc, [](const ApicEntry& e, int id) { return e.proc < id; });
  return it != entries.end() && it->proc == proc ? &*it : nullptr;
}

ApicTable read_apic_ids(const Topology& topo) {
  ApicTable table;
  for (const Processor& p : topo.processors()) table.entries.push_back({.proc = p.id});
  const os::FsRoot fs(topo.fsroot());
  const topo::CpuinfoApic info = topo::read_cpuinfo_apic(fs);
  for (ApicEntry& e : table.entries)
    if (auto it = info.apic.find(e.proc); it != info.apic.end()) e.cpuinfo = it->second;

  std::string leaves;
  if (topo.is_live() && kX86Build) leaves = ask_each_processor(topo, table.entries);
  const bool any_cpuid = !leaves.empty();
  const bool any_cpuinfo = !info.apic.empty();
  if (any_cpuid)
    table.source =
        "CPUID leaf " + leaves + " on each usable processor" + (any_cpuinfo ? ", checked against /proc/cpuinfo" : "");
  else if (any_cpuinfo)
    table.source = "/proc/cpuinfo apicid";
  else if (!info.present)
    table.absent_reason = "no /proc/cpuinfo below " + topo.fsroot();
  else if (!info.x86 && !(topo.is_live() && kX86Build))
    table.absent_reason = "not an x86 machine: its processors have no APIC ids";
  else
    table.absent_reason = "/proc/cpuinfo has no apicid lines; older kernels do not print them";
  for (const ApicEntry& e : table.entries)
    if (e.cpuid && e.cpuinfo && *e.cpuid != *e.cpuinfo)
      table.disagreements.push_back("processor " + std::to_string(e.proc) + ": CPUID says " + std::to_string(*e.cpuid) +
                                    ", /proc/cpuinfo " + std::to_string(*e.cpuinfo));
  return table;
}

}  // namespace ulibc
