// os/pages.hpp — page sizes, transparent huge pages and the hugetlb pools, as the kernel's files report
// them. Convention (os/os.hpp's rule): nothing throws; what the kernel does not say (a file absent or malformed) is
// nullopt.
#pragma once
#include <cstddef>
#include <cstdint>
#include <optional>

namespace ulibc::os {

std::size_t base_page_size();  // sysconf(_SC_PAGESIZE): always known

// Transparent huge pages as /sys/kernel/mm/transparent_hugepage/enabled sets them; nullopt on kernels
// built without them.
enum class ThpMode { always, madvise, never };
std::optional<ThpMode> thp_mode();
std::optional<std::size_t> thp_page_size();  // hpage_pmd_size

// hugetlbfs: the default page size (Hugepagesize in /proc/meminfo; nullopt where the kernel has none),
// the pages free on one node, and the machine's pool.
std::optional<std::size_t> default_huge_page_size();
std::optional<std::uint64_t> free_huge_pages(int node, std::size_t huge_bytes);
struct HugePool {
  std::uint64_t free = 0;
  std::uint64_t reserved = 0;  // promised to existing mappings, counted in free
};
std::optional<HugePool> huge_pool(std::size_t huge_bytes);

}  // namespace ulibc::os
