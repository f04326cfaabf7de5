// complex_matrix_market_test.cpp — the complex Matrix Market reader: complex and hermitian files against hand-made
// matrices, real files read with imaginary parts 0, every malformed complex line refused with its line, the real
// readers' refusal naming the complex one, and the complex array writer read back exactly.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <numbers>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "sparse/matrix_market.hpp"

namespace ulibc::sparse {
namespace {

using testing::expect_input_error;
using Dense = std::vector<std::vector<Complex>>;

ComplexCsrMatrix parse_complex(const std::string& text) {
  std::istringstream in(text);
  return read_matrix_market_complex(in, "z.mtx");
}

Dense dense_of(const ComplexCsrMatrix& a) {
  Dense d(static_cast<std::size_t>(a.rows()), std::vector<Complex>(static_cast<std::size_t>(a.cols())));
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      d[static_cast<std::size_t>(i)][static_cast<std::size_t>(a.columns()[static_cast<std::size_t>(k)])] =
          a.values()[static_cast<std::size_t>(k)];
  return d;
}

constexpr Complex kI(0, 1);

TEST(ComplexMatrixMarket, CoordinateComplexGeneral) {
  const ComplexCsrMatrix a =
      parse_complex("%%MatrixMarket matrix coordinate complex general\n% c\n2 3 3\n2 3 -1.5 2e1\n1 1 4 0\n2 1 +0 -1\n");
  EXPECT_EQ(a.nonzeros(), 3);
  EXPECT_EQ(dense_of(a), (Dense{{4, 0, 0}, {-kI, 0, Complex(-1.5, 20)}}));
}

TEST(ComplexMatrixMarket, SymmetricKindsMirrorAsTheirNameSays) {
  // Hermitian: the mirror is the conjugate; symmetric: the same value; skew-symmetric: its negation.
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix coordinate complex hermitian\n2 2 2\n1 1 3 0\n2 1 1 2\n")),
            (Dense{{3, Complex(1, -2)}, {Complex(1, 2), 0}}));
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix coordinate complex hermitian\n2 2 1\n1 2 1 2\n")),
            (Dense{{0, Complex(1, 2)}, {Complex(1, -2), 0}}));  // the upper triangle may be the one given
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix coordinate complex symmetric\n2 2 2\n2 2 0 1\n2 1 1 2\n")),
            (Dense{{0, Complex(1, 2)}, {Complex(1, 2), kI}}));
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix coordinate complex skew-symmetric\n2 2 1\n2 1 1 2\n")),
            (Dense{{0, Complex(-1, -2)}, {Complex(1, 2), 0}}));
}

TEST(ComplexMatrixMarket, ArraysAreColumnByColumnAsPairs) {
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix array complex general\n2 2\n1 1\n2 0\n0 0\n0 -3\n")),
            (Dense{{Complex(1, 1), 0}, {2, Complex(0, -3)}}));
  // Hermitian arrays give each column from the diagonal down.
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n2 5\n3 0\n")),
            (Dense{{1, Complex(2, -5)}, {Complex(2, 5), 3}}));
}

TEST(ComplexMatrixMarket, RealFilesAreReadWithImaginaryPartsZero) {
  const std::string real = "%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n2 1 3.5\n";
  EXPECT_EQ(dense_of(parse_complex(real)), (Dense{{0, -3.5}, {3.5, 0}}));
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix coordinate pattern general\n1 2 1\n1 2\n")), (Dense{{0, 1}}));
  EXPECT_EQ(dense_of(parse_complex("%%MatrixMarket matrix array integer general\n1 2\n7\n-2\n")), (Dense{{7, -2}}));
  // The same structure as the real reader's, the same values.
  std::istringstream in(real);
  const CsrMatrix r = read_matrix_market(in, "r.mtx");
  const ComplexCsrMatrix z = parse_complex(real);
  ASSERT_EQ(r.nonzeros(), z.nonzeros());
  for (std::size_t k = 0; k < static_cast<std::size_t>(r.nonzeros()); ++k) {
    EXPECT_EQ(r.columns()[k], z.columns()[k]);
    EXPECT_EQ(Complex(r.values()[k]), z.values()[k]);
  }
}

TEST(ComplexMatrixMarket, MalformedComplexInputIsRefusedWithItsLine) {
  const std::string head = "%%MatrixMarket matrix coordinate complex general\n";
  const std::string herm = "%%MatrixMarket matrix coordinate complex hermitian\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {head + "2 2 1\n1 1 1\n", "z.mtx:3: an entry is \"I J RE IM\": the imaginary part is missing"},
      {head + "2 2 1\n1 1\n", "z.mtx:3: an entry is \"I J RE IM\": the value is missing"},
      {head + "2 2 1\n1 1 1 2 3\n", "z.mtx:3: an entry is \"I J RE IM\": there is more on the line"},
      {head + "2 2 1\n1 1 1 nan\n", "z.mtx:3: value 'nan' is not a finite number"},
      {head + "2 2 1\n1 1 -inf 0\n", "z.mtx:3: value '-inf' is not a finite number"},
      {head + "2 2 1\n1 1 1 1e400\n", "z.mtx:3: value '1e400' is not a finite number"},
      {head + "2 2 1\n1 1 1 i\n", "value 'i' is not a finite number"},
      {herm + "2 2 1\n\n2 2 1 0.5\n", "z.mtx:4: entry (2, 2) lies on the diagonal of a hermitian matrix"},
      {herm + "2 2 2\n2 1 1 1\n1 2 1 -1\n", "z.mtx:4: entry (1, 2) is given twice, on lines 3 and 4"},
      {herm + "2 3 1\n", "z.mtx:2: a 2 x 3 matrix cannot be hermitian: it is not square"},
      {herm + "2 2 4\n", "entry count '4': expected a whole number from 0 to 3"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", "z.mtx:1: a hermitian matrix has complex values"},
      {"%%MatrixMarket matrix coordinate complex skew-symmetric\n2 2 1\n1 1 1 1\n", "z.mtx:3: entry (1, 1) lies on"},
      {"%%MatrixMarket matrix array complex general\n2 1\n1 1\n2\n", "z.mtx:4: an array of a complex matrix has"},
      {"%%MatrixMarket matrix array complex general\n2 1\n1 1\n2 2 2\n", "z.mtx:4: an array of a complex matrix has"},
      {"%%MatrixMarket matrix array complex hermitian\n1 1\n1 1\n", "z.mtx:3: entry (1, 1) lies on the diagonal"},
      {"%%MatrixMarket matrix coordinate quaternion general\n", "expected real, integer, pattern or complex"},
      {"%%MatrixMarket matrix coordinate complex lower\n", "expected general, symmetric, skew-symmetric or hermitian"},
  };
  for (const auto& [text, needle] : cases) {
    SCOPED_TRACE(text);
    expect_input_error([&] { parse_complex(text); }, needle);
  }
}

TEST(ComplexMatrixMarket, RealReadersNameTheComplexOne) {
  for (const char* text : {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n",
                           "%%MatrixMarket matrix array complex hermitian\n1 1\n1 0\n"}) {
    SCOPED_TRACE(text);
    std::istringstream in(text);
    expect_input_error([&] { read_matrix_market(in, "r.mtx"); }, "r.mtx:1: ");
    std::istringstream again(text);
    expect_input_error([&] { read_matrix_market(again, "r.mtx"); }, "read them with read_matrix_market_complex");
  }
}

TEST(ComplexMatrixMarket, EveryTruncationIsAnErrorOrTheSameMatrix) {
  const std::string text = "%%MatrixMarket matrix coordinate complex hermitian\n3 3 3\n1 1 1.25 0\n3 1 -5 2\n3 3 7 0\n";
  const Dense whole = dense_of(parse_complex(text));
  for (std::size_t n = 0; n < text.size(); ++n) {
    SCOPED_TRACE(n);
    try {
      EXPECT_EQ(dense_of(parse_complex(text.substr(0, n))), whole);
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::input);
    }
  }
}

TEST(ComplexMatrixMarket, ArraysWrittenReadBackExactly) {
  // Values whose shortest decimal forms need all 17 digits, extremes of the range, zeros (not stored, read as 0).
  const std::vector<Complex> values = {{0.1, -1.0 / 3}, {std::numbers::pi, 0}, {-2.5e-308, 1.7976931348623157e308},
                                       {0, 0},          {1e-320, -0.0},        {123456789.123456789, 2.0 / 7}};
  std::ostringstream out;
  write_matrix_market_complex_array(out, 3, 2, values);
  EXPECT_TRUE(out.str().starts_with("%%MatrixMarket matrix array complex general\n3 2\n0.10000000000000001 "))
      << out.str();
  std::istringstream in(out.str());
  EXPECT_EQ(read_matrix_market_complex_array(in, "w.mtx", 3, 2), values);
  // An eigenvalue list, N x 1, through the sparse reader too.
  std::ostringstream column;
  write_matrix_market_complex_array(column, 2, 1, std::vector<Complex>{{1, 2}, {3, -4}});
  EXPECT_EQ(dense_of(parse_complex(column.str())), (Dense{{Complex(1, 2)}, {Complex(3, -4)}}));
  std::istringstream wrong(column.str());
  expect_input_error([&] { read_matrix_market_complex_array(wrong, "w.mtx", 1, 2); },
                     "w.mtx: a 2 x 1 matrix where a 1 x 2 one was expected");
}

TEST(ComplexMatrixMarket, TheWriterRefusesWhatCouldNotBeReadBack) {
  std::ostringstream out;
  expect_input_error([&] { write_matrix_market_complex_array(out, 2, 2, std::vector<Complex>(3)); },
                     "a 2 x 2 complex array of 3 values");
  const std::vector<Complex> bad = {{1, 0}, {0, std::numeric_limits<double>::quiet_NaN()}};
  expect_input_error([&] { write_matrix_market_complex_array(out, 2, 1, bad); }, "entry (2, 1) of a 2 x 1");
  EXPECT_TRUE(out.str().empty());  // nothing begun
}

TEST(ComplexMatrixMarket, MissingFilesAreNamed) {
  expect_input_error([] { read_matrix_market_complex_file("/nonexistent/z.mtx"); }, "cannot open /nonexistent/z.mtx");
  expect_input_error([] { read_matrix_market_complex_array_file("/nonexistent/w.mtx", 1, 1); }, "/nonexistent/w.mtx");
}

}  // namespace
}  // namespace ulibc::sparse
