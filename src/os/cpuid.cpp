// os/cpuid.cpp — the x86 CPUID instruction (os/cpuid.hpp).
#include "os/cpuid.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#endif

namespace ulibc::os {

std::optional<ApicRead> apic_id_here() {
#if defined(__x86_64__) || defined(__i386__)
  const unsigned max_leaf = __get_cpuid_max(0, nullptr);
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  // An extended topology leaf is valid when its first sub-leaf names a level
  // (EBX, processors at that level, is not 0); EDX then holds the x2APIC id.
  for (const unsigned leaf : {0x1Fu, 0xBu}) {
    if (max_leaf < leaf) continue;
    __cpuid_count(leaf, 0, eax, ebx, ecx, edx);
    if ((ebx & 0xFFFF) != 0) return ApicRead{.id = edx, .leaf = leaf};
  }
  if (max_leaf < 1) return std::nullopt;
  __cpuid(1, eax, ebx, ecx, edx);
  return ApicRead{.id = ebx >> 24, .leaf = 1};
#else
  return std::nullopt;
#endif
}

}  // namespace ulibc::os
