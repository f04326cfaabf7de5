// peers/peer_args.hpp — the options of the peer drivers, read one way.
//
// The drivers are small programs without CLI11 (they build wherever their
// peer does); each option that counts or measures something is read here, so
// that a bad value gets the same one-line error and the drivers' usage exit code, 2.
#pragma once
#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace ulibc::peers {

// `text` as a whole number from min to max; otherwise a line naming `option`
// on stderr and exit 2. Signs, blanks, trailing characters and overflow are refused.
inline long long parse_count(const std::string& text, const char* option, long long min, long long max) {
  char* end = nullptr;
  errno = 0;
  const long long v = std::strtoll(text.c_str(), &end, 10);
  const bool digits_only = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  if (!digits_only || errno == ERANGE || *end != '\0' || v < min || v > max) {
    std::fprintf(stderr, "%s: expected a whole number from %lld to %lld, got \"%s\"\n", option, min, max, text.c_str());
    std::exit(2);
  }
  return v;
}

// `text` as a finite number from min to max (a tolerance, a factor); otherwise a line naming `option` on
// stderr and exit 2. Blanks and trailing characters are refused.
inline double parse_real(const std::string& text, const char* option, double min, double max) {
  char* end = nullptr;
  errno = 0;
  const double v = std::strtod(text.c_str(), &end);
  const bool blank = text.empty() || text.find_first_of(" \t\n") != std::string::npos;
  if (blank || errno == ERANGE || *end != '\0' || !(v >= min && v <= max)) {
    std::fprintf(stderr, "%s: expected a number from %g to %g, got \"%s\"\n", option, min, max, text.c_str());
    std::exit(2);
  }
  return v;
}

// A line naming `option` and why it is refused, on stderr, and the drivers' usage exit code, 2.
[[noreturn]] inline void refuse(const std::string& option, const std::string& why) {
  std::fprintf(stderr, "%s: %s\n", option.c_str(), why.c_str());
  std::exit(2);
}

// `text` when it is one of `choices`; otherwise refused, naming them.
inline std::string one_of(const std::string& text, const char* option, const std::vector<std::string>& choices) {
  if (std::find(choices.begin(), choices.end(), text) != choices.end()) return text;
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "" : ", ") + c;
  refuse(option, "expected one of " + list + ", got \"" + text + "\"");
}

}  // namespace ulibc::peers
