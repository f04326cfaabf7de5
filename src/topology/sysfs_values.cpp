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

long long parse_int_at(const std::string& where, std::string_view text) {
  const std::string_view v = trimmed(text);
  long long out = 0;
  auto [end, ec] = std::from_chars(v.data(), v.data() + v.size(), out);
  if (v.empty() || ec != std::errc() || end != v.data() + v.size())
    throw input_error(where + ": expected an integer, found \"" + std::string(v) + "\"");
  return out;
}

std::optional<long long> read_int(const os::FsRoot& fs, const std::string& rel) {
  auto text = fs.read(rel);
  if (!text) return std::nullopt;
  return parse_int_at(fs.path(rel), *text);
}

std::optional<long long> read_int(const os::FsDir& dir, std::string_view name) {
  auto text = dir.read(name);
  if (!text) return std::nullopt;
  return parse_int_at(dir.path(name), *text);
}

CpuSet parse_set_at(const std::string& where, std::string_view text, bool is_list) {
  try {
    return is_list ? CpuSet::parse_list(trimmed(text)) : CpuSet::parse_mask(trimmed(text));
  } catch (const Error& e) {
    throw input_error(where + ": " + e.what());
  }
}

CpuSet parse_set_in(const os::FsRoot& fs, const std::string& rel, std::string_view text, bool is_list) {
  return parse_set_at(fs.path(rel), text, is_list);
}

std::optional<std::pair<std::size_t, std::string>> Alternatives::first_present(const os::FsDir& dir,
                                                                               const std::string& prefix) {
  if (!dir.is_open()) return std::nullopt;  // says nothing of which names the kernel writes
  for (std::size_t i = 0; i < names_.size(); ++i) {
    if (absent_[i]) continue;
    if (auto text = dir.read(prefix + names_[i].name)) {
      learnt_ = true;
      return std::pair{i, std::move(*text)};
    }
    if (!learnt_) absent_[i] = true;
  }
  return std::nullopt;
}

std::optional<CpuSet> Alternatives::read_set(const os::FsDir& dir, const std::string& prefix) {
  const auto found = first_present(dir, prefix);
  if (!found) return std::nullopt;
  const Name& n = names_[found->first];
  return parse_set_at(dir.path(prefix + n.name), found->second, n.is_list);
}

std::optional<std::string> Alternatives::read(const os::FsDir& dir) {
  auto found = first_present(dir, "");
  if (!found) return std::nullopt;
  return std::move(found->second);
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
