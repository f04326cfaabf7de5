// ulibc/process_memory.hpp — this process's memory: what the kernel could still give, the resident peak, freed
// heap handed back, whole pages for large arrays, and sizes as people read them.
//
// For programs that refuse, before allocating, a problem that cannot fit (and say how much it would need), and
// that report what they held. None of these calls throws but map_pages, which throws std::bad_alloc like new.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

namespace ulibc {

// Memory the kernel could give this process now without swapping (MemAvailable in /proc/meminfo; MemFree
// on kernels too old to say). 0 when the kernel says neither.
std::uint64_t available_memory();
// The most memory this process has had resident so far (its high-water mark), in bytes; 0 where the
// kernel does not say.
std::uint64_t peak_resident_memory();
// Hands the pages the C allocator holds free back to the kernel. The allocator keeps what a program frees
// for its next requests; one that frees a large structure piece by piece while building another would
// otherwise stay as large as both.
void release_free_heap();
// Whole anonymous pages for `bytes`, not initialised (untouched pages cost nothing); std::bad_alloc when the
// kernel refuses. Give them back with unmap_pages(pages, bytes): the memory returns to the kernel at once.
void* map_pages(std::size_t bytes);
void unmap_pages(void* pages, std::size_t bytes) noexcept;
// A size as people read it: 1536 -> "1.5 KiB", 1073741824 -> "1 GiB".
std::string format_bytes(std::uint64_t bytes);

}  // namespace ulibc
