// config/environment.cpp — the library's only getenv calls.
#include "config/environment.hpp"

#include <charconv>
#include <cstdlib>

#include "ulibc/error.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc::config {

namespace {

const char* raw(std::string_view name) { return std::getenv(std::string(name).c_str()); }

std::optional<std::string> unless_empty(std::string_view name) {
  const char* value = raw(name);
  if (!value || !*value) return std::nullopt;
  return value;
}

// `text`, the value of `name` (`value` as set), as a number from min to max, or Error(input) naming the variable
// and saying what it expects (`what`: "a thread count").
int number_from(std::string_view name, std::string_view text, const std::string& value, int min, int max,
                const std::string& what) {
  int n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < min || n > max)
    throw input_error(std::string(name) + "=\"" + value + "\": expected " + what + " from " + std::to_string(min) +
                      " to " + std::to_string(max));
  return n;
}

// Values that switch binding off rather than on are not outside binding.
bool disables_binding(std::string_view name, std::string_view value) {
  if (value.empty()) return true;
  if (name == "OMP_PROC_BIND") return value == "false" || value == "FALSE";
  if (name == "KMP_AFFINITY") return value == "none" || value == "disabled";
  return false;
}

}  // namespace

std::optional<std::string> fsroot() { return unless_empty(kFsRoot); }

std::optional<std::string> policy() { return unless_empty(kPolicy); }

std::optional<int> thread_count() {
  for (const std::string_view name : {kNumThreads, kOpenMPNumThreads}) {
    const auto value = unless_empty(name);
    if (!value) continue;
    // OMP_NUM_THREADS may be a list of nesting levels ("8,2"); the first is ours.
    std::string_view text(*value);
    if (name == kOpenMPNumThreads) text = text.substr(0, text.find(','));
    return number_from(name, text, *value, 1, Mapping::kMaxThreads, "a thread count");
  }
  return std::nullopt;
}

std::optional<std::pair<int, int>> launcher_local_rank() {
  for (const auto& [rank_name, size_name] : kLauncherLocalRanks) {
    const auto rank = unless_empty(rank_name), size = unless_empty(size_name);
    if (!rank && !size) continue;
    if (!rank || !size)
      throw input_error(std::string(rank ? size_name : rank_name) + " is unset while " +
                        std::string(rank ? rank_name : size_name) + " is set: the launcher's local rank is half given");
    const int count = number_from(size_name, *size, *size, 1, Mapping::kMaxThreads, "a process count");
    return std::pair{number_from(rank_name, *rank, *rank, 0, count - 1, "a local rank"), count};
  }
  return std::nullopt;
}

bool override_outside_binding() {
  const char* value = raw(kOutsideBinding);
  if (!value || std::string_view(value) == "respect") return false;
  if (std::string_view(value) == "override") return true;
  throw input_error(std::string(kOutsideBinding) + "=\"" + value + "\": accepted values are respect and override");
}

std::vector<std::string> openmp_binding_settings() {
  std::vector<std::string> out;
  for (const std::string_view name : kOpenMPBindingVariables)
    if (const char* value = raw(name); value && !disables_binding(name, value))
      out.push_back(std::string(name) + "=" + value);
  return out;
}

}  // namespace ulibc::config
