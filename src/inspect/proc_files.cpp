// inspect/proc_files.cpp — the parsers of /proc/PID/task/TID/stat, .../status and /proc/PID/numa_maps.
//
// Kept apart from the reading so that the fuzz target compiles them alone (with cpuset.cpp). Each accepts what the
// kernel writes and refuses anything it cannot read exactly with Error(input) naming the file and the fault;
// unknown numa_maps words are skipped, since kernels add new ones.
#include <charconv>
#include <string>
#include <string_view>
#include <vector>

#include "ulibc/error.hpp"
#include "ulibc/inspect.hpp"

namespace ulibc {

namespace {

// Stat's field 39 is the 37th after the comm's closing parenthesis (state is field 3).
constexpr std::size_t kProcessorAfterComm = 39 - 3;
// Far above any kernel's page (1 GiB huge pages are 1048576 kB), low enough that pages × size stays in 64 bits.
constexpr std::uint64_t kMaxPageKiB = std::uint64_t{1} << 24;
constexpr std::uint64_t kMaxPages = std::uint64_t{1} << 36;
// A mapping's resident memory, bounded by what a 57-bit address space (5-level paging) can map, so that sums over a
// process's mappings stay exact in 64 bits however many there are (below 2^7 such mappings) and saturate beyond.
constexpr unsigned __int128 kMaxMappingBytes = static_cast<unsigned __int128>(1) << 57;

Error malformed(std::string_view what, const std::string& fault) {
  return input_error(std::string(what) + ": " + fault);
}

std::vector<std::string_view> words_of(std::string_view text, char sep = ' ') {
  std::vector<std::string_view> out;
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = std::min(text.find(sep, pos), text.size());
    if (end > pos) out.push_back(text.substr(pos, end - pos));
    pos = end + 1;
  }
  return out;
}

template <typename T>
bool parse_number(std::string_view text, T& value, int base = 10) {
  if (text.empty()) return false;
  const auto [ptr, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  return ec == std::errc() && ptr == text.data() + text.size();
}

std::string quoted(std::string_view text) {
  constexpr std::size_t kShown = 60;
  std::string out = "\"" + std::string(text.substr(0, kShown));
  for (char& c : out)
    if (static_cast<unsigned char>(c) < 0x20) c = '?';
  return out + (text.size() > kShown ? "...\"" : "\"");
}

CpuSet status_list(std::string_view text, std::string_view key, std::string_view what) {
  for (std::string_view line : words_of(text, '\n')) {
    if (line.substr(0, key.size()) != key || line.size() == key.size() || line[key.size()] != ':') continue;
    try {
      return CpuSet::parse_list(line.substr(key.size() + 1));
    } catch (const Error& e) {
      throw malformed(what, std::string(key) + ": " + e.what());
    }
  }
  throw malformed(what, "no " + std::string(key) + " line");
}

struct NumaMapsLine {
  MemoryMapping m;
  bool has_pages = false;
};

void parse_node_pages(std::string_view word, MemoryMapping& m, std::string_view what) {
  const std::size_t eq = word.find('=');
  int node = -1;
  std::uint64_t pages = 0;
  if (eq == std::string_view::npos || !parse_number(word.substr(1, eq - 1), node) || node < 0 ||
      node > CpuSet::kMaxId || !parse_number(word.substr(eq + 1), pages) || pages > kMaxPages)
    throw malformed(what, "bad page count " + quoted(word));
  if (m.pages.size() <= static_cast<std::size_t>(node)) m.pages.resize(static_cast<std::size_t>(node) + 1, 0);
  m.pages[node] += pages;
}

void parse_word(std::string_view word, NumaMapsLine& line, std::string_view what) {
  MemoryMapping& m = line.m;
  if (word.starts_with("file=")) {
    m.kind = "file";
    m.file = std::string(word.substr(5));
  } else if (word == "heap" || word == "huge") {
    m.kind = std::string(word);
  } else if (word == "stack" || word.starts_with("stack:")) {
    m.kind = "stack";  // "stack:TID" on kernels before 4.5
  } else if (word.size() > 1 && word[0] == 'N' && word[1] >= '0' && word[1] <= '9') {
    parse_node_pages(word, m, what);
    line.has_pages = true;
  } else if (word.starts_with("kernelpagesize_kB=")) {
    std::uint64_t kib = 0;
    if (!parse_number(word.substr(18), kib) || kib == 0 || kib > kMaxPageKiB)
      throw malformed(what, "bad page size " + quoted(word));
    m.page_bytes = kib * 1024;
  }
}

MemoryMapping parse_numa_maps_line(std::string_view text, std::string_view what) {
  const auto words = words_of(text);
  NumaMapsLine line;
  if (words.size() < 2 || !parse_number(words[0], line.m.address, 16))
    throw malformed(what, "a line that does not start with an address and a policy: " + quoted(text));
  line.m.policy = std::string(words[1]);
  line.m.kind = "anon";
  for (std::size_t i = 2; i < words.size(); ++i) parse_word(words[i], line, what);
  if (line.has_pages && line.m.page_bytes == 0)
    throw malformed(what, "pages without kernelpagesize_kB: " + quoted(text));
  unsigned __int128 bytes = 0;
  for (std::uint64_t p : line.m.pages) bytes += static_cast<unsigned __int128>(p) * line.m.page_bytes;
  if (bytes > kMaxMappingBytes)
    throw malformed(what, "more resident memory than an address space holds: " + quoted(text));
  return line.m;
}

}  // namespace

std::uint64_t MemoryMapping::resident_bytes() const {
  std::uint64_t pages_total = 0;
  for (std::uint64_t p : pages) pages_total += p;
  return pages_total * page_bytes;
}

StatLine parse_stat(std::string_view text, std::string_view what) {
  const std::size_t open = text.find('(');
  const std::size_t close = text.rfind(')');
  if (open == std::string_view::npos || close == std::string_view::npos || close < open)
    throw malformed(what, "no command name in parentheses");
  StatLine s;
  s.comm = std::string(text.substr(open + 1, close - open - 1));
  const auto fields = words_of(text.substr(close + 1));
  if (fields.size() <= kProcessorAfterComm)
    throw malformed(what, std::to_string(fields.size() + 2) + " fields, the processor is field 39");
  if (fields[0].size() != 1) throw malformed(what, "bad state " + quoted(fields[0]));
  s.state = fields[0][0];
  if (!parse_number(fields[kProcessorAfterComm], s.processor) || s.processor < 0 || s.processor > CpuSet::kMaxId)
    throw malformed(what, "bad processor (field 39) " + quoted(fields[kProcessorAfterComm]));
  return s;
}

StatusLists parse_status(std::string_view text, std::string_view what) {
  return {status_list(text, "Cpus_allowed_list", what), status_list(text, "Mems_allowed_list", what)};
}

std::vector<MemoryMapping> parse_numa_maps(std::string_view text, std::string_view what) {
  std::vector<MemoryMapping> out;
  for (std::string_view line : words_of(text, '\n')) out.push_back(parse_numa_maps_line(line, what));
  return out;
}

}  // namespace ulibc
