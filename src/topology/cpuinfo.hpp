// topology/cpuinfo.hpp — what /proc/cpuinfo says that sysfs does not: the
// architecture's name for each processor (the x86 APIC id).
#pragma once
#include <cstdint>
#include <map>

#include "os/fs.hpp"

namespace ulibc::topo {

struct CpuinfoApic {
  bool present = false;               // the file could be read
  bool x86 = false;                   // it describes x86 processors (a vendor_id line)
  std::map<int, std::uint32_t> apic;  // processor id → its apicid line; empty on other architectures
};

// Parses `text`, the contents of `rel` below `fs` (named in errors). Throws
// Error(input) naming the file and line for a processor or apicid value that
// is not a whole number, an apicid before any processor line, or a processor
// listed twice.
CpuinfoApic parse_cpuinfo_apic(const os::FsRoot& fs, const std::string& rel, std::string_view text);
CpuinfoApic read_cpuinfo_apic(const os::FsRoot& fs);

}  // namespace ulibc::topo
