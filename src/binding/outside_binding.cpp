// binding/outside_binding.cpp — noticing binding that someone else set up.
//
// OpenMP runtimes bind their threads when told to by the environment; a
// shell's taskset or a batch scheduler's cpuset narrows the process mask.
// ULIBC reports both and, for the OpenMP variables, follows the documented
// rule (respect unless ULIBC_OUTSIDE_BINDING=override).
#include <string>

#include "config/environment.hpp"
#include "ulibc/affinity.hpp"

namespace ulibc {

OutsideBinding detect_outside_binding(const Topology& topo) {
  OutsideBinding out;
  out.variables = config::openmp_binding_settings();
  // A snapshot has no process: its cgroup cpuset, if any, is the restriction.
  out.process_mask = topo.is_live() ? affinity_before_binding() : topo.allowed();
  out.narrowed = !(topo.online() - out.process_mask).empty();
  return out;
}

std::string OutsideBinding::describe() const {
  std::string text;
  for (const auto& v : variables) text += (text.empty() ? "" : ", ") + v;
  if (!text.empty()) text += " set";
  if (narrowed)
    text += (text.empty() ? "" : "; ") + std::string("process restricted to processors ") + process_mask.to_list();
  return text;
}

OutsideRule outside_rule_from_env() {
  return config::override_outside_binding() ? OutsideRule::override_it : OutsideRule::respect;
}

}  // namespace ulibc
