// tests/fuzz/cpuset_fuzz.cpp — libFuzzer target for the cpulist and cpumap parsers.
//
// Properties checked on every input (the whole input, then its two halves):
//   - CpuSet::parse_list and CpuSet::parse_mask return a set or throw
//     ulibc::Error; any other exception, a crash or a sanitizer report is a bug;
//   - a parsed set is self-consistent (count, ids, first/next/last, test) and
//     holds only ids 0..kMaxId;
//   - round trips: parse_list(s.to_list()) == s, and for a parsed mask, the
//     mask written back in the kernel's format parses to the same set;
//   - set algebra on the two halves' sets: (a-b)|(a&b) == a, a|b contains both, ...
// The parsers are also compared with a reference grammar of what the kernel
// writes (cpuset.hpp: "reject anything else"): accepted exactly when the
// reference accepts, same set. ULIBC_FUZZ_STRICT=0 turns that comparison off.
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "fuzz_failure.hpp"
#include "ulibc/cpuset.hpp"
#include "ulibc/error.hpp"

namespace {

using ulibc::CpuSet;

bool g_strict = false;

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("cpuset_fuzz", what, input); }

enum class Kind { list, mask };

// The set, or nullopt when the parser threw ulibc::Error. Anything else thrown is a bug.
std::optional<CpuSet> parse(Kind kind, std::string_view text) {
  try {
    return kind == Kind::list ? CpuSet::parse_list(text) : CpuSet::parse_mask(text);
  } catch (const ulibc::Error& e) {
    if (e.kind() != ulibc::ErrorKind::input) fail("parser threw an Error of kind system", text);
    if (std::string_view(e.what()).empty()) fail("parser threw an Error without a message", text);
    return std::nullopt;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cpuset_fuzz: %s\n", e.what());
    fail("parser threw something other than ulibc::Error", text);
  } catch (...) {
    fail("parser threw a non-std exception", text);
  }
}

void check_consistent(const CpuSet& s, std::string_view input) {
  const std::vector<int> ids = s.ids();
  CHECK(static_cast<int>(ids.size()) == s.count(), input);
  CHECK(s.empty() == ids.empty(), input);
  int prev = -1;
  for (int id : ids) {
    CHECK(id > prev && id <= CpuSet::kMaxId, input);
    CHECK(s.test(id), input);
    CHECK(s.next(prev) == id, input);
    prev = id;
  }
  CHECK(s.next(prev) == -1, input);
  CHECK(s.first() == (ids.empty() ? -1 : ids.front()), input);
  CHECK(s.last() == (ids.empty() ? -1 : ids.back()), input);
  CHECK(!s.test(-1) && !s.test(s.last() + 1), input);
}

// The kernel's cpumap format: 32-bit words of 8 hex digits, most significant first.
std::string to_mask(const CpuSet& s) {
  const int words = s.empty() ? 1 : s.last() / 32 + 1;
  std::vector<std::uint32_t> w(static_cast<std::size_t>(words), 0);
  for (int id : s) w[static_cast<std::size_t>(id / 32)] |= std::uint32_t{1} << (id % 32);
  std::string out;
  char buf[9];
  for (int i = words - 1; i >= 0; --i) {
    std::snprintf(buf, sizeof buf, "%08x", static_cast<unsigned>(w[static_cast<std::size_t>(i)]));
    out += buf;
    if (i) out += ',';
  }
  return out;
}

void check_round_trips(const CpuSet& s, std::string_view input) {
  const std::string list = s.to_list();
  const auto again = parse(Kind::list, list);
  if (!again) fail(("to_list() output does not parse: \"" + list + "\"").c_str(), input);
  CHECK(*again == s, input);
  CHECK(again->to_list() == list, input);  // canonical: a fixed point
  const std::string mask = to_mask(s);
  const auto from_mask = parse(Kind::mask, mask);
  if (!from_mask) fail(("the set written as a mask does not parse: \"" + mask + "\"").c_str(), input);
  CHECK(*from_mask == s, input);
}

void check_algebra(const CpuSet& a, const CpuSet& b, std::string_view input) {
  const CpuSet both = a & b, either = a | b, only_a = a - b;
  CHECK((only_a | both) == a, input);
  CHECK(either.contains(a) && either.contains(b), input);
  CHECK(a.contains(both) && b.contains(both), input);
  CHECK(!only_a.intersects(b), input);
  CHECK(a.intersects(b) == !both.empty(), input);
  CHECK(either.count() == a.count() + b.count() - both.count(), input);
  CHECK((a | b) == (b | a) && (a & b) == (b & a), input);
  check_consistent(both, input);
  check_consistent(either, input);
  check_consistent(only_a, input);
  CpuSet c = a;
  for (int id : b) c.reset(id);
  CHECK(c == only_a, input);
}

// ---- Reference grammar (strict mode) ----------------------------------------

std::string_view trim(std::string_view s) {
  const char* ws = " \t\r\n";
  const auto b = s.find_first_not_of(ws);
  if (b == std::string_view::npos) return {};
  return s.substr(b, s.find_last_not_of(ws) - b + 1);
}

std::vector<std::string_view> split(std::string_view s) {
  std::vector<std::string_view> out;
  for (std::size_t pos = 0;;) {
    const auto comma = s.find(',', pos);
    out.push_back(s.substr(pos, comma == std::string_view::npos ? std::string_view::npos : comma - pos));
    if (comma == std::string_view::npos) return out;
    pos = comma + 1;
  }
}

// Decimal digits only (leading zeros allowed), value <= kMaxId.
std::optional<int> ref_id(std::string_view t) {
  if (t.empty()) return std::nullopt;
  long v = 0;
  for (char c : t) {
    if (c < '0' || c > '9') return std::nullopt;
    v = std::min<long>(v * 10 + (c - '0'), long{CpuSet::kMaxId} + 1);
  }
  if (v > CpuSet::kMaxId) return std::nullopt;
  return static_cast<int>(v);
}

// list := "" | item ("," item)* ; item := id | id "-" id with lo <= hi.
std::optional<CpuSet> ref_list(std::string_view text) {
  text = trim(text);
  CpuSet out;
  if (text.empty()) return out;
  for (std::string_view item : split(text)) {
    const auto dash = item.find('-');
    const auto lo = ref_id(item.substr(0, dash));
    const auto hi = dash == std::string_view::npos ? lo : ref_id(item.substr(dash + 1));
    if (!lo || !hi || *hi < *lo) return std::nullopt;
    for (int id = *lo; id <= *hi; ++id) out.set(id);
  }
  return out;
}

int hex_digit(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// mask := word ("," word)* ; word := 1 to 8 hex digits; every set bit <= kMaxId.
// `sure` is false where the parser may reasonably go either way (a mask longer
// than kMaxId + 1 bits whose extra words are all zero).
std::optional<CpuSet> ref_mask(std::string_view text, bool& sure) {
  text = trim(text);
  sure = true;
  CpuSet out;
  if (text.empty()) return out;
  const auto words = split(text);
  const std::size_t n = words.size();
  if (n * 32 > static_cast<std::size_t>(CpuSet::kMaxId) + 1) sure = false;
  for (std::size_t i = 0; i < n; ++i) {
    const std::string_view w = words[i];
    if (w.empty() || w.size() > 8) return std::nullopt;
    std::uint32_t bits = 0;
    for (char c : w) {
      const int d = hex_digit(c);
      if (d < 0) return std::nullopt;
      bits = bits << 4 | static_cast<std::uint32_t>(d);
    }
    const std::size_t weight = (n - 1 - i) * 32;
    for (int b = 0; b < 32; ++b) {
      if (!(bits >> b & 1u)) continue;
      if (weight + static_cast<std::size_t>(b) > static_cast<std::size_t>(CpuSet::kMaxId)) return std::nullopt;
      out.set(static_cast<int>(weight) + b);
    }
  }
  return out;
}

void check_strict(Kind kind, std::string_view text, const std::optional<CpuSet>& got) {
  bool sure = true;
  const auto want = kind == Kind::list ? ref_list(text) : ref_mask(text, sure);
  const char* name = kind == Kind::list ? "parse_list" : "parse_mask";
  if (got && !want) fail((std::string(name) + " accepted text the kernel's format does not allow").c_str(), text);
  if (!got && want && sure) fail((std::string(name) + " rejected well-formed text").c_str(), text);
  if (got && want && *got != *want) fail((std::string(name) + " returned a different set").c_str(), text);
}

// ---- One input ----------------------------------------------------------------

std::optional<CpuSet> check_text(std::string_view text) {
  std::optional<CpuSet> any;
  for (Kind kind : {Kind::list, Kind::mask}) {
    const auto s = parse(kind, text);
    if (g_strict) check_strict(kind, text, s);
    if (!s) continue;
    check_consistent(*s, text);
    check_round_trips(*s, text);
    if (!any) any = s;
  }
  return any;
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* strict = std::getenv("ULIBC_FUZZ_STRICT");
  g_strict = !strict || std::string_view(strict) != "0";
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  check_text(text);
  // The halves (split at a '|' if there is one, else in the middle) feed the set algebra.
  const auto bar = text.find('|');
  const std::size_t cut = bar != std::string_view::npos ? bar : size / 2;
  const auto a = check_text(text.substr(0, cut));
  const auto b = check_text(text.substr(bar != std::string_view::npos ? cut + 1 : cut));
  if (a && b) check_algebra(*a, *b, text);
  return 0;
}
