// os/pages.cpp — page sizes and huge page pools from sysfs and /proc/meminfo.
#include "os/pages.hpp"

#include <unistd.h>

#include <bit>
#include <cstdlib>
#include <string>

#include "os/fs.hpp"
#include "os/meminfo.hpp"

namespace ulibc::os {

namespace {

const FsRoot& live() {
  static const FsRoot fs("/");
  return fs;
}

std::optional<std::uint64_t> read_count(const std::string& rel) {
  const auto text = live().read(rel);
  if (!text) return std::nullopt;
  char* end = nullptr;
  const unsigned long long v = std::strtoull(text->c_str(), &end, 10);
  if (end == text->c_str()) return std::nullopt;
  return v;
}

std::string pool_dir(std::size_t huge_bytes) { return "hugepages-" + std::to_string(huge_bytes >> 10) + "kB"; }

}  // namespace

std::size_t base_page_size() {
  static const std::size_t size = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  return size;
}

std::optional<ThpMode> thp_mode() {
  const auto text = live().read("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!text) return std::nullopt;
  if (text->find("[always]") != std::string::npos) return ThpMode::always;
  if (text->find("[madvise]") != std::string::npos) return ThpMode::madvise;
  return ThpMode::never;
}

// Both sizes are fixed at boot: read once.
std::optional<std::size_t> thp_page_size() {
  static const std::optional<std::size_t> size = []() -> std::optional<std::size_t> {
    const auto bytes = read_count("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
    if (!bytes || !std::has_single_bit(*bytes)) return std::nullopt;
    return static_cast<std::size_t>(*bytes);
  }();
  return size;
}

std::optional<std::size_t> default_huge_page_size() {
  static const std::optional<std::size_t> size = []() -> std::optional<std::size_t> {
    const auto bytes = read_meminfo(live(), "/proc/meminfo", "Hugepagesize");
    if (!bytes || !std::has_single_bit(*bytes)) return std::nullopt;
    return static_cast<std::size_t>(*bytes);
  }();
  return size;
}

std::optional<std::uint64_t> free_huge_pages(int node, std::size_t huge_bytes) {
  return read_count("/sys/devices/system/node/node" + std::to_string(node) + "/hugepages/" + pool_dir(huge_bytes) +
                    "/free_hugepages");
}

std::optional<HugePool> huge_pool(std::size_t huge_bytes) {
  const std::string dir = "/sys/kernel/mm/hugepages/" + pool_dir(huge_bytes);
  const auto free = read_count(dir + "/free_hugepages");
  if (!free) return std::nullopt;
  return HugePool{.free = *free, .reserved = read_count(dir + "/resv_hugepages").value_or(0)};
}

}  // namespace ulibc::os
