// tests/fuzz/inspect_fuzz.cpp — libFuzzer target for the /proc parsers of ulibc inspect: stat, status, numa_maps.
//
// Properties checked on every input, given to each of the three parsers whole:
//   - each returns or throws ulibc::Error of kind input whose message starts with the file's name; any other
//     exception, a crash or a sanitizer report is a bug;
//   - stat: the processor is in 0..kMaxId, the state one character, and the line rebuilt from what was parsed
//     (same comm, state and processor) parses to the same;
//   - status: both lists round-trip through CpuSet::to_list;
//   - numa_maps: one mapping per non-empty line, each with a known kind, pages only with a page size, and
//     resident_bytes() equal to its pages times its page size, computed without overflow.
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <exception>
#include <string>
#include <string_view>

#include "fuzz_failure.hpp"
#include "ulibc/error.hpp"
#include "ulibc/inspect.hpp"

namespace {

constexpr std::string_view kWhat = "/proc/1/file";

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("inspect_fuzz", what, input); }

// f's result, or false when it threw the Error(input) the parsers promise.
template <typename F>
bool parses(F&& f, std::string_view input) {
  try {
    f();
    return true;
  } catch (const ulibc::Error& e) {
    if (e.kind() != ulibc::ErrorKind::input) fail("parser threw an Error of kind system", input);
    if (!std::string_view(e.what()).starts_with(std::string(kWhat) + ": "))
      fail("message does not name the file", input);
    return false;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "inspect_fuzz: %s\n", e.what());
    fail("parser threw something other than ulibc::Error", input);
  } catch (...) {
    fail("parser threw a non-std exception", input);
  }
}

void check_stat(std::string_view text) {
  ulibc::StatLine s;
  if (!parses([&] { s = ulibc::parse_stat(text, kWhat); }, text)) return;
  CHECK(s.processor >= 0 && s.processor <= ulibc::CpuSet::kMaxId, text);
  CHECK(s.comm.size() + 2 <= text.size(), text);
  std::string again = "1 (" + s.comm + ") " + s.state;
  for (int field = 4; field <= 52; ++field) again += " " + std::to_string(field == 39 ? s.processor : 0);
  const auto t = ulibc::parse_stat(again, kWhat);
  CHECK(t.comm == s.comm && t.state == s.state && t.processor == s.processor, text);
}

void check_status(std::string_view text) {
  ulibc::StatusLists l;
  if (!parses([&] { l = ulibc::parse_status(text, kWhat); }, text)) return;
  CHECK(ulibc::CpuSet::parse_list(l.cpus.to_list()) == l.cpus, text);
  CHECK(ulibc::CpuSet::parse_list(l.mems.to_list()) == l.mems, text);
}

std::size_t non_empty_lines(std::string_view text) {
  std::size_t n = 0;
  for (std::size_t pos = 0; pos <= text.size();) {
    const std::size_t end = std::min(text.find('\n', pos), text.size());
    if (end > pos) ++n;
    pos = end + 1;
  }
  return n;
}

void check_numa_maps(std::string_view text) {
  std::vector<ulibc::MemoryMapping> maps;
  if (!parses([&] { maps = ulibc::parse_numa_maps(text, kWhat); }, text)) return;
  CHECK(maps.size() == non_empty_lines(text), text);
  for (const auto& m : maps) {
    CHECK(m.kind == "file" || m.kind == "heap" || m.kind == "stack" || m.kind == "huge" || m.kind == "anon", text);
    CHECK(!m.policy.empty(), text);
    unsigned __int128 bytes = 0;
    for (std::uint64_t p : m.pages) bytes += static_cast<unsigned __int128>(p) * m.page_bytes;
    CHECK(m.pages.empty() || m.page_bytes > 0 || bytes == 0, text);
    CHECK(bytes == m.resident_bytes(), text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_stat(text);
  check_status(text);
  check_numa_maps(text);
  return 0;
}
