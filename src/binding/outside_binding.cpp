// binding/outside_binding.cpp — noticing binding that someone else set up.
//
// OpenMP runtimes bind their threads when told to by the environment; a
// shell's taskset or a batch scheduler's cpuset narrows the process mask.
// ULIBC reports both and, for the OpenMP variables, follows the documented
// rule (respect unless ULIBC_OUTSIDE_BINDING=override).
#include <array>
#include <cstdlib>
#include <string>

#include "binding/openmp_env.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc {

namespace binding {

namespace {

// Values that switch binding off rather than on are not outside binding.
bool disables_binding(std::string_view name, std::string_view value) {
  if (value.empty()) return true;
  if (name == "OMP_PROC_BIND") return value == "false" || value == "FALSE";
  if (name == "KMP_AFFINITY") return value == "none" || value == "disabled";
  return false;
}

}  // namespace

std::vector<std::string> openmp_binding_variables() {
  constexpr std::array<const char*, 4> kVariables = {"OMP_PLACES", "OMP_PROC_BIND", "GOMP_CPU_AFFINITY", "KMP_AFFINITY"};
  std::vector<std::string> out;
  for (const char* name : kVariables)
    if (const char* value = std::getenv(name); value && !disables_binding(name, value))
      out.push_back(std::string(name) + "=" + value);
  return out;
}

}  // namespace binding

OutsideBinding detect_outside_binding(const Topology& topo) {
  OutsideBinding out;
  out.variables = binding::openmp_binding_variables();
  // A snapshot has no process: its cgroup cpuset, if any, is the restriction.
  out.process_mask = topo.is_live() ? affinity_before_binding() : topo.allowed();
  out.narrowed = !(topo.online() - out.process_mask).empty();
  return out;
}

std::string OutsideBinding::describe() const {
  std::string text;
  for (const auto& v : variables) text += (text.empty() ? "" : ", ") + v;
  if (!text.empty()) text += " set";
  if (narrowed) text += (text.empty() ? "" : "; ") + std::string("process restricted to processors ") + process_mask.to_list();
  return text;
}

OutsideRule outside_rule_from_env() {
  const char* value = std::getenv("ULIBC_OUTSIDE_BINDING");
  if (!value || std::string_view(value) == "respect") return OutsideRule::respect;
  if (std::string_view(value) == "override") return OutsideRule::override_it;
  throw input_error(std::string("ULIBC_OUTSIDE_BINDING=\"") + value + "\": accepted values are respect and override");
}

}  // namespace ulibc
