// harness/process_memory.hpp — the process's memory as the benchmarks and commands see it: what the
// kernel could still give, the resident peak, freed heap handed back, and sizes as people read them.
// Not part of the library's API: the system calls behind it are the library's own (src/os).
#pragma once
#include <cstdint>
#include <string>

namespace ulibc::harness {

// Memory the kernel could give this process now without swapping (MemAvailable in /proc/meminfo; MemFree
// on kernels too old to say). For refusing, before allocating, a problem that cannot fit. 0 when the
// kernel says neither.
std::uint64_t available_memory();
// The most memory this process has had resident so far (its high-water mark), in bytes; 0 where the
// kernel does not say.
std::uint64_t peak_resident_memory();
// Hands the pages the C allocator holds free back to the kernel. The allocator keeps what a program frees
// for its next requests; one that frees a large structure piece by piece while building another would
// otherwise stay as large as both.
void release_free_heap();
// A size as people read it: 1536 -> "1.5 KiB", 1073741824 -> "1 GiB".
std::string format_bytes(std::uint64_t bytes);

}  // namespace ulibc::harness
