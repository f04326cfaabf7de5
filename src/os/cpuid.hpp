// os/cpuid.hpp — the x86 CPUID instruction, for what it says of the processor
// the calling thread runs on now.
// Convention (os/os.hpp's rule): nothing throws; nullopt where the architecture has no CPUID or
// the leaf is absent.
#pragma once
#include <cstdint>
#include <optional>

namespace ulibc::os {

// This processor's (x2)APIC id and the CPUID leaf it came from: 0x1F (V2
// extended topology), else 0xB (extended topology, 32 bits), else 0x1
// (EBX[31:24], 8 bits).
struct ApicRead {
  std::uint32_t id = 0;
  unsigned leaf = 0;
};
std::optional<ApicRead> apic_id_here();

}  // namespace ulibc::os
