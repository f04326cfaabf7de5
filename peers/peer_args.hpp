// peers/peer_args.hpp — the whole-number options of the peer drivers, read one way.
//
// The drivers are small programs without CLI11 (they build wherever their
// peer does); each option that counts something is read here, so that a bad
// value gets the same one-line error and the drivers' usage exit code, 2.
#pragma once
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <string>

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

}  // namespace ulibc::peers
