// memory/process_memory.cpp — the process's memory (ulibc/process_memory.hpp), over the OS layer.
#include "ulibc/process_memory.hpp"

#include <array>
#include <cstdio>
#include <new>

#include "os/meminfo.hpp"
#include "os/memory.hpp"
#include "os/process.hpp"

namespace ulibc {

std::uint64_t available_memory() { return os::available_memory().value_or(0); }
std::uint64_t peak_resident_memory() { return os::peak_resident_memory().value_or(0); }
void release_free_heap() { os::release_free_heap(); }

void* map_pages(std::size_t bytes) {
  void* pages = nullptr;
  if (os::map_anonymous(bytes, &pages) != 0) throw std::bad_alloc();
  return pages;
}

void unmap_pages(void* pages, std::size_t bytes) noexcept { os::unmap(pages, bytes); }

std::string format_bytes(std::uint64_t bytes) {
  static constexpr std::array<const char*, 7> kUnits = {"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
  double value = static_cast<double>(bytes);
  std::size_t unit = 0;
  // 1023.96 KiB would print as "1024.0 KiB": step up once it rounds to 1024.
  while (value >= 1023.95 && unit + 1 < kUnits.size()) {
    value /= 1024;
    ++unit;
  }
  char text[32];
  std::snprintf(text, sizeof text, "%.1f", value);
  std::string number = text;
  // Whole numbers read without a fraction ("32 KiB"), others keep one digit ("7.8 GiB").
  if (number.ends_with(".0")) number.resize(number.size() - 2);
  return number + " " + kUnits[unit];
}

}  // namespace ulibc
