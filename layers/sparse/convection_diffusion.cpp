// sparse/convection_diffusion.cpp — the 5- and 7-point convection-diffusion matrices.
#include "sparse/convection_diffusion.hpp"

#include <fmt/format.h>

#include <array>
#include <charconv>
#include <string_view>
#include <vector>

#include "ulibc/error.hpp"

namespace ulibc::sparse {

std::string ModelProblem::name() const {
  return fmt::format("{}{}d:{}", convection == 0 ? "poisson" : "convdiff", dimensions, points);
}

ModelProblem parse_model_problem(const std::string& text) {
  const auto bad = [&](const std::string& why) {
    return input_error(
        fmt::format("model problem '{}': {} (poisson2d:N, poisson3d:N, convdiff2d:N or convdiff3d:N)", text, why));
  };
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos) throw bad("no ':N'");
  const std::string_view kind = std::string_view(text).substr(0, colon),
                         size = std::string_view(text).substr(colon + 1);
  ModelProblem p;
  if (kind == "poisson2d" || kind == "convdiff2d")
    p.dimensions = 2;
  else if (kind == "poisson3d" || kind == "convdiff3d")
    p.dimensions = 3;
  else
    throw bad("unknown problem");
  p.convection = kind.starts_with("convdiff") ? kModelConvection : 0;
  const auto [end, ec] = std::from_chars(size.data(), size.data() + size.size(), p.points);
  if (ec != std::errc() || end != size.data() + size.size() || p.points < 1) throw bad("N must be a whole number >= 1");
  Index rows = 1;
  for (int d = 0; d < p.dimensions; ++d) {
    if (rows > kMaxDimension / p.points) throw bad(fmt::format("more than {} unknowns", kMaxDimension));
    rows *= p.points;
  }
  return p;
}

CsrMatrix model_matrix(const ModelProblem& p) {
  const Index n = p.points;
  const double h = 1.0 / static_cast<double>(n + 1), lower = -1 - p.convection * h / 2,
               higher = -1 + p.convection * h / 2;
  std::array<Index, 3> stride = {1, n, n * n};
  const Index rows = p.dimensions == 2 ? n * n : n * n * n;
  std::vector<Entry> entries;
  entries.reserve(static_cast<std::size_t>(rows) * static_cast<std::size_t>(2 * p.dimensions + 1));
  for (Index row = 0; row < rows; ++row) {
    // Neighbours in column order: the highest axis's lower one first, its higher one last.
    for (int axis = p.dimensions - 1; axis >= 0; --axis)
      if ((row / stride[axis]) % n > 0) entries.push_back({row, row - stride[axis], lower});
    entries.push_back({row, row, 2.0 * p.dimensions});
    for (int axis = 0; axis < p.dimensions; ++axis)
      if ((row / stride[axis]) % n < n - 1) entries.push_back({row, row + stride[axis], higher});
  }
  return CsrMatrix(rows, rows, entries);
}

}  // namespace ulibc::sparse
