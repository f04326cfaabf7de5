// bfs/distributed/grid_shape.cpp — choosing and reading the shape of a grid of ranks.
#include "bfs/distributed/grid_shape.hpp"

#include <fmt/format.h>

#include <charconv>
#include <cstdint>
#include <string_view>

#include "ulibc/error.hpp"

namespace ulibc::bfs::distributed {

std::string GridShape::name() const { return fmt::format("{}x{}", rows, cols); }

GridShape squarest_grid(int ranks) {
  int cols = 1;
  for (int c = 1; c * c <= ranks; ++c)
    if (ranks % c == 0) cols = c;
  return {ranks / cols, cols};
}

GridShape parse_grid(const std::string& text, int ranks) {
  const auto number = [](std::string_view s, int& out) {
    const auto [end, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
    return ec == std::errc() && end == s.data() + s.size() && out >= 1;
  };
  const std::size_t x = text.find('x');
  GridShape g;
  if (x == std::string::npos || !number(std::string_view(text).substr(0, x), g.rows) ||
      !number(std::string_view(text).substr(x + 1), g.cols))
    throw input_error(fmt::format("--grid {}: not a grid of ranks RxC with R, C >= 1 (e.g. 2x2)", text));
  if (static_cast<std::int64_t>(g.rows) * g.cols != ranks)
    throw input_error(fmt::format("--grid {}: {} ranks, but the job has {}", text,
                                  static_cast<std::int64_t>(g.rows) * g.cols, ranks));
  return g;
}

}  // namespace ulibc::bfs::distributed
