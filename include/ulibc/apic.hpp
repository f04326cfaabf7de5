// ulibc/apic.hpp — each processor's x86 APIC id: the number the firmware and
// the processor itself use, which the OS's processor ids renumber.
//
// On the live x86 machine the calling thread visits each usable processor in
// turn and asks it with CPUID (leaf 0x1F, else 0xB, else 0x1), the ULIBC
// paper's way of building the processor-id ↔ APIC-id table, then gets its
// own mask back; /proc/cpuinfo's apicid lines check the answers. A snapshot
// has only its /proc/cpuinfo. Other architectures have no APIC ids.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ulibc/topology.hpp"

namespace ulibc {

struct ApicEntry {
  int proc = -1;
  std::optional<std::uint32_t> cpuid;    // asked of the processor itself (live x86, usable processors)
  std::optional<std::uint32_t> cpuinfo;  // /proc/cpuinfo's apicid line
  // The id to use: CPUID's where there is one, else cpuinfo's.
  std::optional<std::uint32_t> id() const { return cpuid ? cpuid : cpuinfo; }
};

struct ApicTable {
  std::vector<ApicEntry> entries;          // one per processor of the topology, by id
  std::string source;                      // where the ids came from, in words; "" when there are none
  std::string absent_reason;               // why there are none ("not an x86 machine"); "" when there are
  std::vector<std::string> disagreements;  // a processor whose CPUID and cpuinfo ids differ, in words
  bool available() const { return absent_reason.empty(); }
  const ApicEntry* of(int proc) const;  // nullptr for a processor the topology does not have
};

// The table for `topo`, read below its filesystem root. Throws Error(input)
// when that root's /proc/cpuinfo is malformed (naming the file and line).
ApicTable read_apic_ids(const Topology& topo);

}  // namespace ulibc
