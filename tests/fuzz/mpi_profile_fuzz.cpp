// tests/fuzz/mpi_profile_fuzz.cpp — libFuzzer target for the MPI profile file (mpi/comm_profile.hpp).
//
// Properties:
//   - the reader returns a profile (or none for the key) or throws ulibc::Error of kind input with a one-line
//     message naming the source; anything else thrown, a crash or a sanitizer report is a bug;
//   - an accepted curve has as many seconds as sizes, the sizes strictly ascending and positive, the seconds
//     positive, and reads back finite, positive seconds at any size.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <istream>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>

#include "fuzz_read.hpp"
#include "mpi/comm_profile.hpp"

namespace {

using ulibc::mpi::CommProfile;
using ulibc::mpi::Curve;

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("mpi_profile_fuzz", what, input); }

void check_curve(const Curve& c, std::string_view input) {
  CHECK(c.bytes.size() == c.seconds.size(), input);
  for (std::size_t k = 0; k < c.bytes.size(); ++k) {
    CHECK(c.bytes[k] > 0 && c.seconds[k] > 0, input);
    if (k > 0) CHECK(c.bytes[k - 1] < c.bytes[k], input);
  }
  if (c.empty()) return;
  for (const double b : {1.0, c.bytes.front(), std::sqrt(c.bytes.front() * c.bytes.back()), 2 * c.bytes.back()}) {
    const double s = c.at(b);
    CHECK(std::isfinite(s) && s > 0, input);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  const auto parse = [](std::istream& in, const std::string& source) {
    return ulibc::mpi::parse_profile(std::string(std::istreambuf_iterator<char>(in), {}), source, "k");
  };
  if (const auto read = fuzz::read_input("mpi_profile_fuzz", "fuzz.json", input, parse); read && *read) {
    const CommProfile& p = **read;
    for (const Curve* c : {&p.p2p, &p.allgather, &p.bcast, &p.allreduce}) check_curve(*c, input);
  }
  return 0;
}
