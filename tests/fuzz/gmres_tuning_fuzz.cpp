// tests/fuzz/gmres_tuning_fuzz.cpp — libFuzzer target for GMRES's tuning file (gmres/tuning_file.hpp).
//
// Properties:
//   - the reader returns a record (or none for the key) or throws ulibc::Error of kind input with a one-line message
//     naming the source; anything else thrown, a crash or a sanitizer report is a bug;
//   - an accepted record has every knob a non-empty word other than "auto" and a restart of decimal digits that
//     reads back as a number from 1 up.
#include <cstddef>
#include <cstdint>
#include <istream>
#include <iterator>
#include <string>
#include <string_view>

#include "fuzz_read.hpp"
#include "gmres/tuning_file.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("gmres_tuning_fuzz", what, input); }

bool a_word(const std::string& w) { return !w.empty() && w != "auto"; }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parse = [](std::istream& in, const std::string& source) {
    return ulibc::gmres::parse_tuned(std::string(std::istreambuf_iterator<char>(in), {}), source, "k");
  };
  if (const auto read = fuzz::read_input("gmres_tuning_fuzz", "fuzz.json", input, parse); read && *read) {
    const ulibc::gmres::Tuned& t = **read;
    const auto& w = t.knobs;
    CHECK(a_word(w.orth) && a_word(w.precond) && a_word(w.spmv) && a_word(w.comm) && a_word(t.ilu_blocks), input);
    CHECK(!w.restart.empty() && w.restart.find_first_not_of("0123456789") == std::string::npos, input);
    CHECK(std::stoll(w.restart) >= 1, input);
  }
  return 0;
}
