// os/memory.hpp — the memory system calls: mmap, munmap, madvise, mbind, move_pages, mincore and
// get_mempolicy. Convention (os/os.hpp's rule): each returns 0 or the errno of the kernel's
// refusal, gives what it made or found through its last parameter, and never throws.
#pragma once
#include <cstddef>
#include <span>

#include "ulibc/cpuset.hpp"
#include "ulibc/memory.hpp"

namespace ulibc::os {

// Anonymous private read/write memory; no page exists until touched.
int map_anonymous(std::size_t bytes, void** addr);
// The same from the hugetlb pool, pages of `huge_bytes` (refused when there is no pool, or too small a one).
int map_hugetlb(std::size_t bytes, std::size_t huge_bytes, void** addr);
int unmap(void* addr, std::size_t bytes) noexcept;  // nothing to do for a null or empty range

// madvise(MADV_HUGEPAGE), or MADV_NOHUGEPAGE when !huge.
int advise_huge(void* addr, std::size_t bytes, bool huge = true);

enum class MemMode { bind, preferred, interleave };
// mbind over whole pages; nothing changed when refused.
int bind_memory(void* addr, std::size_t bytes, MemMode mode, const NodeSet& nodes);

// The node of each page (move_pages with no target nodes): status[i] is a node id or a negative errno
// (-ENOENT: no page there; -EFAULT: no page of its own or no mapping).
int page_nodes(std::span<const void*> pages, std::span<int> status);
// 0 when every page of [addr, addr + bytes) is mapped (mincore); ENOMEM when one is not.
int check_mapped(const void* addr, std::size_t bytes);

// The policy governing the page at addr (get_mempolicy MPOL_F_ADDR).
int policy_at(const void* addr, MemPolicy* policy);

}  // namespace ulibc::os
