// harness/named.hpp — an enumeration's values by name (a solver's knobs, a benchmark's measurements): one table of
// names per enumeration, one way to print and to parse them.
#pragma once
#include <fmt/format.h>

#include <array>
#include <string>

#include "ulibc/error.hpp"

namespace ulibc::harness {

template <class Value, std::size_t N>
std::string name_of(Value v, const std::array<const char*, N>& names) {
  return names[static_cast<std::size_t>(v)];
}

// The value whose name is `word`; Error(input) "unknown <what> "<word>": a, b or c" otherwise.
template <class Value, std::size_t N>
Value parse_name(const std::string& word, const std::array<const char*, N>& names, const char* what) {
  std::string accepted;
  for (std::size_t k = 0; k < N; ++k) {
    if (word == names[k]) return static_cast<Value>(k);
    accepted += fmt::format("{}{}", k == 0 ? "" : k + 1 == N ? " or " : ", ", names[k]);
  }
  throw input_error(fmt::format("unknown {} \"{}\": {}", what, word, accepted));
}

}  // namespace ulibc::harness
