// tests/fuzz/eigen_spec_fuzz.cpp — libFuzzer target for what `ulibc eigen` reads from its command line: complex
// numbers ("1.2+0.4i") and --generate specs.
//
// Properties checked on every input:
//   - parse_complex returns a finite number or throws ulibc::Error saying the text is not a complex number; any
//     other exception, a crash or a sanitizer report is a bug; a number it returns is read back exactly from
//     complex_text;
//   - generate returns a square matrix with its whole spectrum (one eigenvalue per row) or throws ulibc::Error
//     naming --generate. Specs whose order field exceeds 64 are skipped: they are valid and only cost memory.
#include <charconv>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "eigen/problem.hpp"
#include "fuzz_failure.hpp"
#include "ulibc/error.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("eigen_spec_fuzz", what, input); }

// The spec's second field, when it is a whole number: the order generate would build.
bool small_order(const std::string& spec) {
  const std::size_t first = spec.find(':');
  if (first == std::string::npos) return true;
  const std::size_t second = spec.find(':', first + 1);
  const std::string field =
      spec.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
  long long n = 0;
  const auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), n);
  return ec != std::errc() || n <= 64;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  try {
    const ulibc::eigen::Complex z = ulibc::eigen::parse_complex(input);
    CHECK(std::isfinite(z.real()) && std::isfinite(z.imag()), input);
    CHECK(ulibc::eigen::parse_complex(ulibc::eigen::complex_text(z)) == z, input);
  } catch (const ulibc::Error& e) {
    CHECK(std::string_view(e.what()).find("is not a complex number") != std::string_view::npos, input);
  } catch (...) {
    fail("parse_complex threw something other than ulibc::Error", input);
  }
  if (!small_order(input)) return 0;
  try {
    const ulibc::eigen::Problem p = ulibc::eigen::generate(input);
    CHECK(p.a.rows() == p.a.cols() && p.exact && static_cast<long long>(p.exact->size()) == p.a.rows(), input);
  } catch (const ulibc::Error& e) {
    CHECK(std::string_view(e.what()).find("--generate") != std::string_view::npos, input);
  } catch (...) {
    fail("generate threw something other than ulibc::Error", input);
  }
  return 0;
}
