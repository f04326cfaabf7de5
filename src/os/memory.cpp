// os/memory.cpp — the memory system calls, each returning the kernel's errno.
#include "os/memory.hpp"

#include <numaif.h>
#include <sys/mman.h>

#include <bit>
#include <cerrno>
#include <vector>

#include "os/kernel_mask.hpp"
#include "os/pages.hpp"

namespace ulibc::os {

namespace {

int mpol_of(MemMode mode) {
  switch (mode) {
    case MemMode::bind:
      return MPOL_BIND;
    case MemMode::preferred:
      return MPOL_PREFERRED;
    case MemMode::interleave:
      return MPOL_INTERLEAVE;
  }
  return MPOL_DEFAULT;
}

MemPolicyMode mode_of(int mpol) {
  switch (mpol & 0xff) {  // above the mode: MPOL_F_STATIC_NODES and the like
    case MPOL_DEFAULT:
      return MemPolicyMode::none;
    case MPOL_BIND:
      return MemPolicyMode::bind;
    case MPOL_PREFERRED:
      return MemPolicyMode::preferred;
    case MPOL_INTERLEAVE:
      return MemPolicyMode::interleave;
    default:
      return MemPolicyMode::other;
  }
}

int map(std::size_t bytes, int flags, void** addr) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | flags, -1, 0);
  if (p == MAP_FAILED) return errno;
  *addr = p;
  return 0;
}

}  // namespace

int map_anonymous(std::size_t bytes, void** addr) { return map(bytes, 0, addr); }

int map_hugetlb(std::size_t bytes, std::size_t huge_bytes, void** addr) {
  // The page size is encoded in the flags so that the kernel uses the size
  // whose free count was checked, not whatever its default is.
  return map(bytes, MAP_HUGETLB | (std::countr_zero(huge_bytes) << MAP_HUGE_SHIFT), addr);
}

int unmap(void* addr, std::size_t bytes) noexcept {
  if (!addr || !bytes) return 0;
  return ::munmap(addr, bytes) == 0 ? 0 : errno;
}

int advise_huge(void* addr, std::size_t bytes, bool huge) {
  return ::madvise(addr, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) == 0 ? 0 : errno;
}

int bind_memory(void* addr, std::size_t bytes, MemMode mode, const NodeSet& nodes) {
  KernelMask mask(nodes);
  // The kernel reads maxnode - 1 bits (a historical off-by-one libnuma also
  // works around), so one more than the mask holds.
  return ::mbind(addr, bytes, mpol_of(mode), mask.data(), mask.bits() + 1, 0) == 0 ? 0 : errno;
}

int page_nodes(std::span<const void*> pages, std::span<int> status) {
  auto** raw = const_cast<void**>(pages.data());  // the kernel only reads the addresses
  return ::move_pages(0, pages.size(), raw, nullptr, status.data(), 0) == 0 ? 0 : errno;
}

int check_mapped(const void* addr, std::size_t bytes) {
  const std::size_t page = base_page_size();
  std::vector<unsigned char> resident((bytes + page - 1) / page);
  return ::mincore(const_cast<void*>(addr), bytes, resident.data()) == 0 ? 0 : errno;
}

int policy_at(const void* addr, MemPolicy* policy) {
  // The kernel refuses a mask shorter than its possible nodes (EINVAL): grow.
  for (unsigned long bits = 1024; bits <= CpuSet::kMaxId + 1ul; bits *= 2) {
    KernelMask mask(static_cast<int>(bits) - 1);
    int mode = 0;
    if (::get_mempolicy(&mode, mask.data(), mask.bits(), const_cast<void*>(addr), MPOL_F_ADDR) == 0) {
      *policy = {.mode = mode_of(mode), .nodes = mask.to_set()};
      return 0;
    }
    if (errno != EINVAL) break;
  }
  return errno;
}

}  // namespace ulibc::os
