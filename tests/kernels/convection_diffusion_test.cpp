// convection_diffusion_test.cpp — the model problems: sizes, stencils, symmetry and the names that select them.
#include "sparse/convection_diffusion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <utility>

#include "expect_error.hpp"

namespace ulibc::sparse {
namespace {

using testing::expect_input_error;

// (row, col) → value, to look entries up.
std::map<std::pair<Index, Index>, double> entries_of(const CsrMatrix& a) {
  std::map<std::pair<Index, Index>, double> out;
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      out[{i, a.columns()[static_cast<std::size_t>(k)]}] = a.values()[static_cast<std::size_t>(k)];
  return out;
}

TEST(ModelProblem, PoissonIsTheSymmetricFivePointStencil) {
  const CsrMatrix a = model_matrix(parse_model_problem("poisson2d:3"));
  ASSERT_EQ(a.rows(), 9);
  EXPECT_EQ(a.nonzeros(), 9 * 5 - 4 * 3);  // each of the 4 sides drops one neighbour of its 3 points
  const auto e = entries_of(a);
  // Point 4 is the centre: its four neighbours 1, 3, 5, 7.
  EXPECT_EQ(e.at({4, 4}), 4);
  for (Index j : {1, 3, 5, 7}) EXPECT_EQ(e.at({4, j}), -1);
  // Corner 0: itself and 1 and 3 only.
  EXPECT_EQ(e.count({0, 0}) + e.count({0, 1}) + e.count({0, 3}), 3u);
  EXPECT_EQ(a.row_start()[1], 3);
  for (const auto& [ij, v] : e) EXPECT_EQ(e.at({ij.second, ij.first}), v) << ij.first << "," << ij.second;
}

TEST(ModelProblem, ConvectionMakesItNonSymmetricButKeepsRowSumsZeroInside) {
  const ModelProblem p = parse_model_problem("convdiff3d:4");
  EXPECT_EQ(p.convection, kModelConvection);
  const CsrMatrix a = model_matrix(p);
  ASSERT_EQ(a.rows(), 64);
  EXPECT_EQ(a.nonzeros(), 7 * 64 - 6 * 16);
  const double h = 1.0 / 5, lower = -1 - kModelConvection * h / 2, higher = -1 + kModelConvection * h / 2;
  const auto e = entries_of(a);
  // Point (1, 1, 1) = 1 + 4 + 16 = 21 is interior: six neighbours, lower ones toward smaller indices.
  EXPECT_EQ(e.at({21, 21}), 6);
  for (Index s : {1, 4, 16}) {
    EXPECT_DOUBLE_EQ(e.at({21, 21 - s}), lower);
    EXPECT_DOUBLE_EQ(e.at({21, 21 + s}), higher);
    EXPECT_NE(e.at({21, 21 + s}), e.at({21 + s, 21}));  // not symmetric
  }
  double sum = 0;
  for (const auto& [ij, v] : e)
    if (ij.first == 21) sum += v;
  EXPECT_NEAR(sum, 0, 1e-12);
}

TEST(ModelProblem, RowsAreSortedAndDiagonallyDominantAtTheSeedsSizes) {
  for (const char* name : {"poisson2d:400", "convdiff3d:80"}) {
    SCOPED_TRACE(name);
    const CsrMatrix a = model_matrix(parse_model_problem(name));
    EXPECT_EQ(a.rows(), std::string(name) == "poisson2d:400" ? 160'000 : 512'000);
    for (Index i = 0; i < a.rows(); i += 997) {
      double diagonal = 0, off = 0;
      for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1];
           ++k) {
        const double v = a.values()[static_cast<std::size_t>(k)];
        (a.columns()[static_cast<std::size_t>(k)] == i ? diagonal : off) += std::abs(v);
      }
      EXPECT_GE(diagonal, off - 1e-12) << "row " << i;
    }
  }
}

TEST(ModelProblem, NamesReadBackAndBadOnesAreRefused) {
  for (const char* name : {"poisson2d:400", "poisson3d:7", "convdiff2d:1", "convdiff3d:80"})
    EXPECT_EQ(parse_model_problem(name).name(), name);
  expect_input_error([] { parse_model_problem("poisson2d"); }, "model problem 'poisson2d': no ':N'");
  expect_input_error([] { parse_model_problem("laplace2d:4"); }, "unknown problem");
  expect_input_error([] { parse_model_problem("poisson2d:0"); }, "N must be a whole number >= 1");
  expect_input_error([] { parse_model_problem("poisson2d:-4"); }, "N must be");
  expect_input_error([] { parse_model_problem("poisson2d:4x"); }, "N must be");
  expect_input_error([] { parse_model_problem("poisson3d:2000"); }, "more than 2147483647 unknowns");
}

}  // namespace
}  // namespace ulibc::sparse
