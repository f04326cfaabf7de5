// tests/fuzz/grid_shape_fuzz.cpp — libFuzzer target for the --grid RxC of `mpirun -n K ulibc bench bfs`
// (bfs/distributed/grid_shape.hpp).
//
// The first byte is the job's rank count (1 to 256), the rest the text. Properties checked on every input:
//   - parse_grid returns a grid of rows, cols >= 1 whose product is the rank count, and reads its own name back to
//     the same grid; or it throws ulibc::Error naming --grid. Any other exception, a crash or a sanitizer report is
//     a bug;
//   - squarest_grid of the rank count has rows >= cols, their product the count, and no squarer divisor.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "bfs/distributed/grid_shape.hpp"
#include "fuzz_failure.hpp"
#include "ulibc/error.hpp"

namespace {

[[noreturn]] void fail(const char* what, std::string_view input) { fuzz::fail("grid_shape_fuzz", what, input); }

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size == 0) return 0;
  using ulibc::bfs::distributed::GridShape;
  const int ranks = 1 + data[0];
  const std::string input(reinterpret_cast<const char*>(data) + 1, size - 1);
  try {
    const GridShape g = ulibc::bfs::distributed::parse_grid(input, ranks);
    CHECK(g.rows >= 1 && g.cols >= 1 && g.rows * g.cols == ranks, input);
    const GridShape again = ulibc::bfs::distributed::parse_grid(g.name(), ranks);
    CHECK(again.rows == g.rows && again.cols == g.cols, input);
  } catch (const ulibc::Error& e) {
    CHECK(std::string_view(e.what()).starts_with("--grid "), input);
  } catch (...) {
    fail("parse_grid threw something other than ulibc::Error", input);
  }
  const GridShape s = ulibc::bfs::distributed::squarest_grid(ranks);
  CHECK(s.rows >= s.cols && s.rows * s.cols == ranks, input);
  for (int c = s.cols + 1; c * c <= ranks; ++c) CHECK(ranks % c != 0, input);
  return 0;
}
