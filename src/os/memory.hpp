// os/memory.hpp — the memory system calls (mmap, mbind, madvise, move_pages,
// get_mempolicy) and the live files that say which huge pages the kernel can
// give now. Node masks are built from a NodeSet of any size.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "ulibc/cpuset.hpp"
#include "ulibc/memory.hpp"

namespace ulibc::os {

std::size_t base_page_size();

// Anonymous private read/write memory; no page exists until touched.
// Throws Error(system) naming the size and the kernel's reason.
void* map_anonymous(std::size_t bytes);
// The same from the hugetlb pool, pages of `huge_bytes`. nullptr when the
// kernel refuses (no pool, pool too small), with its reason in `why`.
void* map_hugetlb(std::size_t bytes, std::size_t huge_bytes, std::string& why);
void unmap(void* addr, std::size_t bytes) noexcept;

// madvise(MADV_HUGEPAGE), or MADV_NOHUGEPAGE when !huge. 0, or the errno value.
int advise_huge(void* addr, std::size_t bytes, bool huge = true);

enum class MemMode { bind, preferred, interleave };
// mbind over whole pages. 0, or the errno value (nothing changed then).
int bind_memory(void* addr, std::size_t bytes, MemMode mode, const NodeSet& nodes);

// The node of each page (move_pages with no target nodes): status[i] is a
// node id or a negative errno (-ENOENT: no page there; -EFAULT: no page of
// its own or no mapping). Throws Error(system) when the call fails.
void page_nodes(std::span<const void*> pages, std::span<int> status);
// Whether every page of [addr, addr + bytes) is mapped (mincore).
bool is_mapped(const void* addr, std::size_t bytes);

// The policy governing the page at addr (get_mempolicy MPOL_F_ADDR). Throws
// Error(system) on failure.
MemPolicy policy_at(const void* addr);

// Transparent huge pages as /sys/kernel/mm/transparent_hugepage/enabled
// sets them; absent on kernels built without them.
enum class ThpMode { always, madvise, never, absent };
ThpMode thp_mode();
bool thp_disabled_for_process();  // prctl(PR_SET_THP_DISABLE) in force
std::size_t thp_page_size();      // hpage_pmd_size; 2 MiB where the kernel does not say

// hugetlbfs: the default page size (Hugepagesize in /proc/meminfo, 0 where
// the kernel has none), pages free on one node, and the machine's pool.
std::size_t default_huge_page_size();
// MemAvailable (else MemFree) in /proc/meminfo, in bytes; 0 if neither is there.
std::uint64_t available_memory();
// The process's resident high-water mark (getrusage ru_maxrss), in bytes.
std::uint64_t peak_resident_memory();
// Returns the C allocator's free pages to the kernel (glibc's malloc_trim).
void release_free_heap();
std::optional<std::uint64_t> free_huge_pages(int node, std::size_t huge_bytes);
struct HugePool {
  std::uint64_t free = 0;
  std::uint64_t reserved = 0;  // promised to existing mappings, counted in free
};
std::optional<HugePool> huge_pool(std::size_t huge_bytes);

}  // namespace ulibc::os
