// os/meminfo.cpp — the one parser of meminfo lines.
#include "os/meminfo.hpp"

#include <charconv>
#include <limits>

namespace ulibc::os {

namespace {

std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
  return s;
}

// "Node 12 MemTotal" → "MemTotal": a node's file prefixes every key with its node.
std::string_view without_node(std::string_view name) {
  if (!name.starts_with("Node ")) return name;
  const std::size_t space = name.find(' ', 5);
  return space == std::string_view::npos ? name : name.substr(space + 1);
}

// "  16318380 kB" or "  12": bytes, or the count as is.
std::optional<std::uint64_t> parse_value(std::string_view text) {
  text = trimmed(text);
  std::uint64_t value = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  const std::string_view unit = trimmed(text.substr(static_cast<std::size_t>(end - text.data())));
  if (unit.empty()) return value;
  if (unit != "kB" || value > std::numeric_limits<std::uint64_t>::max() >> 10) return std::nullopt;
  return value << 10;
}

}  // namespace

std::optional<std::uint64_t> meminfo_value(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    const std::size_t eol = text.find('\n');
    const std::string_view line = text.substr(0, eol);
    text = eol == std::string_view::npos ? std::string_view() : text.substr(eol + 1);
    const std::size_t colon = line.find(':');
    if (colon != std::string_view::npos && without_node(trimmed(line.substr(0, colon))) == key)
      return parse_value(line.substr(colon + 1));
  }
  return std::nullopt;
}

std::optional<std::uint64_t> read_meminfo(const FsRoot& fs, std::string_view rel, std::string_view key) {
  const auto text = fs.read(rel);
  if (!text) return std::nullopt;
  return meminfo_value(*text, key);
}

std::optional<std::uint64_t> available_memory() {
  static const FsRoot live("/");
  const auto text = live.read("/proc/meminfo");
  if (!text) return std::nullopt;
  if (const auto bytes = meminfo_value(*text, "MemAvailable")) return bytes;
  return meminfo_value(*text, "MemFree");
}

}  // namespace ulibc::os
