// fuzz_failure.hpp — how a fuzz target reports a broken promise: what failed
// and the input (escaped, its first 256 bytes) on stderr, then abort(), so
// that libFuzzer keeps the input as a crash to reproduce.
#pragma once
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace fuzz {

[[noreturn]] inline void fail(const char* target, const char* what, std::string_view input) {
  std::fprintf(stderr, "%s: %s\ninput (%zu bytes): \"", target, what, input.size());
  for (unsigned char c : input.substr(0, 256)) {
    if (c >= 0x20 && c < 0x7f && c != '"' && c != '\\')
      std::fputc(c, stderr);
    else
      std::fprintf(stderr, "\\x%02x", c);
  }
  std::fprintf(stderr, "%s\"\n", input.size() > 256 ? "..." : "");
  std::abort();
}

}  // namespace fuzz

// For a target that defines fail(what, input) naming itself.
#define CHECK(cond, input)                            \
  do {                                                \
    if (!(cond)) fail("check failed: " #cond, input); \
  } while (0)
