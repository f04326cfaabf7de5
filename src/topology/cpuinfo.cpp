// topology/cpuinfo.cpp — the x86 APIC ids of /proc/cpuinfo.
#include "topology/cpuinfo.hpp"

#include <charconv>
#include <string>

#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"

namespace ulibc::topo {

namespace {

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

template <class T>
T whole_number(std::string_view value, T max, const std::string& where) {
  T out{};
  auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), out);
  if (value.empty() || ec != std::errc() || end != value.data() + value.size() || out < T{} || out > max)
    throw input_error(where + ": expected a whole number up to " + std::to_string(max) + ", found \"" +
                      std::string(value) + "\"");
  return out;
}

}  // namespace

// Records are "key<tabs>: value" lines; a "processor" line opens the
// record of one processor, whose "apicid" line (not "initial apicid", the
// value firmware handed out before the kernel may have renumbered) follows.
CpuinfoApic parse_cpuinfo_apic(const os::FsRoot& fs, const std::string& rel, std::string_view text) {
  CpuinfoApic out{.present = true};
  CpuSet seen;
  int current = -1;
  int line_no = 0;
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text.remove_prefix(eol == std::string_view::npos ? text.size() : eol + 1);
    ++line_no;
    const std::size_t colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = trim(line.substr(0, colon));
    const std::string_view value = trim(line.substr(colon + 1));
    const auto where = [&] { return fs.path(rel) + ":" + std::to_string(line_no); };
    if (key == "vendor_id") out.x86 = true;
    if (key == "processor") {
      current = whole_number<int>(value, CpuSet::kMaxId, where());
      if (seen.test(current)) throw input_error(where() + ": processor " + std::to_string(current) + " again");
      seen.set(current);
    } else if (key == "apicid") {
      if (current < 0) throw input_error(where() + ": an apicid line before any processor line");
      out.apic[current] = whole_number<std::uint32_t>(value, UINT32_MAX, where());
    }
  }
  return out;
}

CpuinfoApic read_cpuinfo_apic(const os::FsRoot& fs) {
  const std::string rel = "/proc/cpuinfo";
  const auto text = fs.read(rel);
  if (!text) return {};
  return parse_cpuinfo_apic(fs, rel, *text);
}

}  // namespace ulibc::topo
