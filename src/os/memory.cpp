#include "os/memory.hpp"

#include <numaif.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <vector>
#include <string_view>

#include "os/fs.hpp"
#include "ulibc/error.hpp"

namespace ulibc::os {

namespace {

constexpr int kWordBits = 8 * sizeof(unsigned long);
constexpr std::size_t kDefaultThpBytes = 2u << 20;

const FsRoot& live() {
  static const FsRoot fs("/");
  return fs;
}

// A kernel node mask just long enough for `nodes`.
std::vector<unsigned long> mask_words(const NodeSet& nodes) {
  std::vector<unsigned long> words(static_cast<std::size_t>(std::max(nodes.last(), 0) / kWordBits + 1), 0ul);
  for (int id : nodes) words[static_cast<std::size_t>(id / kWordBits)] |= 1ul << (id % kWordBits);
  return words;
}

NodeSet set_of(const std::vector<unsigned long>& words) {
  NodeSet out;
  for (std::size_t w = 0; w < words.size(); ++w)
    for (unsigned long bits = words[w]; bits != 0; bits &= bits - 1)
      out.set(static_cast<int>(w) * kWordBits + std::countr_zero(bits));
  return out;
}

int mpol_of(MemMode mode) {
  switch (mode) {
    case MemMode::bind: return MPOL_BIND;
    case MemMode::preferred: return MPOL_PREFERRED;
    case MemMode::interleave: return MPOL_INTERLEAVE;
  }
  return MPOL_DEFAULT;
}

MemPolicyMode mode_of(int mpol) {
  switch (mpol & 0xff) {  // above the mode: MPOL_F_STATIC_NODES and the like
    case MPOL_DEFAULT: return MemPolicyMode::none;
    case MPOL_BIND: return MemPolicyMode::bind;
    case MPOL_PREFERRED: return MemPolicyMode::preferred;
    case MPOL_INTERLEAVE: return MemPolicyMode::interleave;
    default: return MemPolicyMode::other;
  }
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

void* map_anonymous(std::size_t bytes) {
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (p == MAP_FAILED) throw system_error("mmap of " + std::to_string(bytes) + " bytes: " + std::strerror(errno));
  return p;
}

void* map_hugetlb(std::size_t bytes, std::size_t huge_bytes, std::string& why) {
  // The page size is encoded in the flags so that the kernel uses the size
  // whose free count was checked, not whatever its default is.
  const int size_flag = std::countr_zero(huge_bytes) << MAP_HUGE_SHIFT;
  const int flags = MAP_PRIVATE | MAP_ANONYMOUS | MAP_HUGETLB | size_flag;
  void* p = ::mmap(nullptr, bytes, PROT_READ | PROT_WRITE, flags, -1, 0);
  if (p != MAP_FAILED) return p;
  why = std::string("mmap(MAP_HUGETLB): ") + std::strerror(errno);
  return nullptr;
}

void unmap(void* addr, std::size_t bytes) noexcept {
  if (addr && bytes) ::munmap(addr, bytes);
}

int advise_huge(void* addr, std::size_t bytes, bool huge) {
  return ::madvise(addr, bytes, huge ? MADV_HUGEPAGE : MADV_NOHUGEPAGE) == 0 ? 0 : errno;
}

int bind_memory(void* addr, std::size_t bytes, MemMode mode, const NodeSet& nodes) {
  std::vector<unsigned long> words = mask_words(nodes);
  // The kernel reads maxnode - 1 bits (a historical off-by-one libnuma also
  // works around), so one more than the mask holds.
  const unsigned long maxnode = words.size() * kWordBits + 1;
  return ::mbind(addr, bytes, mpol_of(mode), words.data(), maxnode, 0) == 0 ? 0 : errno;
}

void page_nodes(std::span<const void*> pages, std::span<int> status) {
  auto** raw = const_cast<void**>(pages.data());  // the kernel only reads the addresses
  if (::move_pages(0, pages.size(), raw, nullptr, status.data(), 0) != 0)
    throw system_error(std::string("move_pages (page query): ") + std::strerror(errno));
}

bool is_mapped(const void* addr, std::size_t bytes) {
  const std::size_t page = base_page_size();
  std::vector<unsigned char> resident((bytes + page - 1) / page);
  return ::mincore(const_cast<void*>(addr), bytes, resident.data()) == 0;
}

MemPolicy policy_at(const void* addr) {
  // The kernel refuses a mask shorter than its possible nodes (EINVAL): grow.
  for (unsigned long bits = 1024; bits <= CpuSet::kMaxId + 1ul; bits *= 2) {
    std::vector<unsigned long> buf(bits / kWordBits);
    int mode = 0;
    if (::get_mempolicy(&mode, buf.data(), bits, const_cast<void*>(addr), MPOL_F_ADDR) == 0)
      return {.mode = mode_of(mode), .nodes = set_of(buf)};
    if (errno != EINVAL) break;
  }
  throw system_error(std::string("get_mempolicy(MPOL_F_ADDR): ") + std::strerror(errno));
}

ThpMode thp_mode() {
  const auto text = live().read("/sys/kernel/mm/transparent_hugepage/enabled");
  if (!text) return ThpMode::absent;
  if (text->find("[always]") != std::string::npos) return ThpMode::always;
  if (text->find("[madvise]") != std::string::npos) return ThpMode::madvise;
  return ThpMode::never;
}

bool thp_disabled_for_process() { return ::prctl(PR_GET_THP_DISABLE, 0, 0, 0, 0) == 1; }

// Both sizes are fixed at boot: read once.
std::size_t thp_page_size() {
  static const std::size_t size = [] {
    const auto bytes = read_count("/sys/kernel/mm/transparent_hugepage/hpage_pmd_size");
    return bytes && std::has_single_bit(*bytes) ? static_cast<std::size_t>(*bytes) : kDefaultThpBytes;
  }();
  return size;
}

std::size_t default_huge_page_size() {
  static const std::size_t size = [] {
    const auto text = live().read("/proc/meminfo");
    const auto pos = text ? text->find("Hugepagesize:") : std::string::npos;
    if (pos == std::string::npos) return std::size_t{0};
    const unsigned long long kb = std::strtoull(text->c_str() + pos + 13, nullptr, 10);
    return std::has_single_bit(kb) ? static_cast<std::size_t>(kb) << 10 : std::size_t{0};
  }();
  return size;
}

namespace {
// The value of one "Key:   1234 kB" line of /proc/meminfo, in bytes.
std::optional<std::uint64_t> meminfo_bytes(const std::string& text, std::string_view key) {
  const auto pos = text.find(std::string("\n").append(key).append(":"));
  if (pos == std::string::npos) return std::nullopt;
  return std::strtoull(text.c_str() + pos + key.size() + 2, nullptr, 10) << 10;
}
}  // namespace

std::uint64_t available_memory() {
  const auto text = live().read("/proc/meminfo");
  if (!text) return 0;
  const std::string lines = "\n" + *text;
  if (const auto bytes = meminfo_bytes(lines, "MemAvailable")) return *bytes;
  return meminfo_bytes(lines, "MemFree").value_or(0);
}

std::uint64_t peak_resident_memory() {
  rusage usage{};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<std::uint64_t>(usage.ru_maxrss) * 1024;  // Linux counts KiB
}

void release_free_heap() { ::malloc_trim(0); }

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
