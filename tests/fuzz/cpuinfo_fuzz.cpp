// tests/fuzz/cpuinfo_fuzz.cpp — libFuzzer target for the /proc/cpuinfo reader of the APIC ids.
//
// Properties checked on every input:
//   - parse_cpuinfo_apic returns a table or throws ulibc::Error naming the file and a line; any other
//     exception, a crash or a sanitizer report is a bug;
//   - every processor id in the table is one a "processor" line of the input names, within CpuSet's range;
//   - the table written back as cpuinfo records parses to the same table.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "fuzz_failure.hpp"
#include "os/fs.hpp"
#include "topology/cpuinfo.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("cpuinfo_fuzz", what, input); }

std::string as_records(const ulibc::topo::CpuinfoApic& t) {
  std::string text;
  if (t.x86) text += "vendor_id\t: GenuineIntel\n";
  for (const auto& [proc, apic] : t.apic)
    text += "processor\t: " + std::to_string(proc) + "\napicid\t\t: " + std::to_string(apic) + "\n\n";
  return text;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const ulibc::os::FsRoot fs("/nonexistent-fuzz-root");
  ulibc::topo::CpuinfoApic table;
  try {
    table = ulibc::topo::parse_cpuinfo_apic(fs, "/proc/cpuinfo", input);
  } catch (const ulibc::Error& e) {
    CHECK(std::string_view(e.what()).find("/proc/cpuinfo:") != std::string_view::npos, input);
    return 0;
  } catch (...) {
    fail("threw something other than ulibc::Error", input);
  }
  CHECK(table.present, input);
  for (const auto& [proc, apic] : table.apic) {
    CHECK(proc >= 0 && proc <= ulibc::CpuSet::kMaxId, input);
    CHECK(input.find(std::to_string(proc)) != std::string_view::npos, input);
  }
  const std::string again = as_records(table);
  const auto reread = ulibc::topo::parse_cpuinfo_apic(fs, "/proc/cpuinfo", again);
  CHECK(reread.apic == table.apic && reread.x86 == table.x86, input);
  return 0;
}
