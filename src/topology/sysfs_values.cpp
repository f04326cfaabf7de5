// topology/sysfs_values.cpp — typed reads of sysfs attribute files.
#include "topology/sysfs_values.hpp"

#include <charconv>

#include "ulibc/error.hpp"

namespace ulibc::topo {

namespace {
std::string_view trimmed(std::string_view s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == ' ' || s.back() == '\0')) s.remove_suffix(1);
  while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
  return s;
}
}  // namespace

std::optional<long long> read_int(const os::FsRoot& fs, const std::string& rel) {
  auto text = fs.read(rel);
  if (!text) return std::nullopt;
  const std::string_view v = trimmed(*text);
  long long out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size())
    throw input_error(fs.path(rel) + ": expected an integer, found \"" + std::string(v) + "\"");
  return out;
}

CpuSet parse_set_in(const os::FsRoot& fs, const std::string& rel, std::string_view text, bool is_list) {
  try {
    return is_list ? CpuSet::parse_list(trimmed(text)) : CpuSet::parse_mask(trimmed(text));
  } catch (const Error& e) {
    throw input_error(fs.path(rel) + ": " + e.what());
  }
}

std::optional<CpuSet> read_set(const os::FsRoot& fs, const std::string& list_file, const std::string& mask_file) {
  if (auto text = fs.read(list_file)) return parse_set_in(fs, list_file, *text, true);
  if (auto text = fs.read(mask_file)) return parse_set_in(fs, mask_file, *text, false);
  return std::nullopt;
}

std::optional<std::uint64_t> parse_size(std::string_view text) {
  text = trimmed(text);
  std::uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end == text.data()) return std::nullopt;
  std::string_view unit(end, static_cast<std::size_t>(text.data() + text.size() - end));
  while (!unit.empty() && unit.front() == ' ') unit.remove_prefix(1);
  if (unit.empty()) return value;
  if (unit == "K" || unit == "kB") return value << 10;
  if (unit == "M") return value << 20;
  if (unit == "G") return value << 30;
  return std::nullopt;
}

int suffix_id(std::string_view name, std::string_view prefix) {
  if (name.size() <= prefix.size() || name.substr(0, prefix.size()) != prefix) return -1;
  const std::string_view digits = name.substr(prefix.size());
  int id = 0;
  auto [end, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), id);
  if (ec != std::errc() || end != digits.data() + digits.size() || id > CpuSet::kMaxId) return -1;
  return id;
}

}  // namespace ulibc::topo
