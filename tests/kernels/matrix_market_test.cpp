// matrix_market_test.cpp — the Matrix Market reader: every format, field and symmetry against hand-made CSR, every
// malformed input refused with its line, truncation at every byte, and the real matrices of ../shared/matrices.
#include "sparse/matrix_market.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"

namespace ulibc::sparse {
namespace {

using testing::expect_input_error;

CsrMatrix parse(const std::string& text) {
  std::istringstream in(text);
  return read_matrix_market(in, "m.mtx");
}

// The matrix as dense rows, to compare with what was written by hand.
std::vector<std::vector<double>> dense(const CsrMatrix& a) {
  std::vector<std::vector<double>> d(static_cast<std::size_t>(a.rows()),
                                     std::vector<double>(static_cast<std::size_t>(a.cols()), 0.0));
  for (Index i = 0; i < a.rows(); ++i)
    for (Index k = a.row_start()[static_cast<std::size_t>(i)]; k < a.row_start()[static_cast<std::size_t>(i) + 1]; ++k)
      d[static_cast<std::size_t>(i)][static_cast<std::size_t>(a.columns()[static_cast<std::size_t>(k)])] =
          a.values()[static_cast<std::size_t>(k)];
  return d;
}

TEST(MatrixMarket, CoordinateGeneralIsReadInRowOrder) {
  const CsrMatrix a =
      parse("%%MatrixMarket matrix coordinate real general\n% a comment\n\n2 3 4\n2 3 -1.5e2\n1 1 4\n1 3 0\n2 1 +2\n");
  EXPECT_EQ(a.rows(), 2);
  EXPECT_EQ(a.cols(), 3);
  EXPECT_EQ(a.nonzeros(), 4);  // the explicit zero is kept
  EXPECT_EQ(dense(a), (std::vector<std::vector<double>>{{4, 0, 0}, {2, 0, -150}}));
  EXPECT_EQ(std::vector<Column>(a.columns().begin(), a.columns().end()), (std::vector<Column>{0, 2, 0, 2}));
  EXPECT_EQ(std::vector<Index>(a.row_start().begin(), a.row_start().end()), (std::vector<Index>{0, 2, 4}));
}

TEST(MatrixMarket, SymmetricKindsAreMirrored) {
  // Either triangle may be given; skew-symmetric mirrors with the sign changed.
  EXPECT_EQ(dense(parse("%%MatrixMarket matrix coordinate real symmetric\n3 3 3\n1 1 1\n3 1 5\n2 3 7\n")),
            (std::vector<std::vector<double>>{{1, 0, 5}, {0, 0, 7}, {5, 7, 0}}));
  EXPECT_EQ(dense(parse("%%MatrixMarket matrix coordinate integer skew-symmetric\n2 2 1\n2 1 3\n")),
            (std::vector<std::vector<double>>{{0, -3}, {3, 0}}));
  EXPECT_EQ(dense(parse("%%MATRIXMARKET Matrix Coordinate Pattern Symmetric\n2 2 2\n1 1\n2 1\n")),
            (std::vector<std::vector<double>>{{1, 1}, {1, 0}}));
}

TEST(MatrixMarket, ArraysAreColumnByColumn) {
  EXPECT_EQ(dense(parse("%%MatrixMarket matrix array real general\n2 2\n1\n2\n3\n0\n")),
            (std::vector<std::vector<double>>{{1, 3}, {2, 0}}));
  EXPECT_EQ(dense(parse("%%MatrixMarket matrix array real symmetric\n2 2\n1\n2\n3\n")),
            (std::vector<std::vector<double>>{{1, 2}, {2, 3}}));
  EXPECT_EQ(dense(parse("%%MatrixMarket matrix array real skew-symmetric\n3 3\n1\n2\n3\n")),
            (std::vector<std::vector<double>>{{0, -1, -2}, {1, 0, -3}, {2, 3, 0}}));
  EXPECT_EQ(parse("%%MatrixMarket matrix array real general\n2 1\n0\n0").nonzeros(), 0);  // zeros are not entries
}

TEST(MatrixMarket, WindowsLineEndsAndNoFinalNewlineAreFine) {
  EXPECT_EQ(dense(parse("%%MatrixMarket matrix coordinate real general\r\n1 1 1\r\n1 1 9")),
            (std::vector<std::vector<double>>{{9}}));
}

TEST(MatrixMarket, MalformedInputIsRefusedWithItsLine) {
  const std::string head = "%%MatrixMarket matrix coordinate real general\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"", "m.mtx: the first line is not a Matrix Market banner"},
      {"hello\n", "m.mtx:1: the first line is not a Matrix Market banner"},
      {"%%MatrixMarket matrix coordinate complex general\n1 1 1\n1 1 1 0\n", "m.mtx:1: complex matrices"},
      {"%%MatrixMarket matrix coordinate real hermitian\n", "m.mtx:1: hermitian matrices"},
      {"%%MatrixMarket vector coordinate real general\n", "object 'vector'"},
      {"%%MatrixMarket matrix array pattern general\n", "pattern is coordinate only"},
      {head, "m.mtx:1: the file ends before the size line"},
      {head + "0 3 1\n", "m.mtx:2: row count '0'"},
      {head + "2 2 5\n", "m.mtx:2: entry count '5': expected a whole number from 0 to 4"},
      {head + "2 2\n", "m.mtx:2: entry count ''"},
      {head + "2 2 1 9\n", "the size line is \"M N NNZ\""},
      {head + "2 2 1\n3 1 1\n", "m.mtx:3: row '3': expected a whole number from 1 to 2"},
      {head + "2 2 1\n1 0 1\n", "m.mtx:3: column '0'"},
      {head + "2 2 2\n1 1 1\n% again\n1 1 2\n", "m.mtx:5: entry (1, 1) is given twice, on lines 3 and 5"},
      {head + "2 2 1\n1 1 nan\n", "m.mtx:3: value 'nan' is not a finite number"},
      {head + "2 2 1\n1 1 1e999\n", "value '1e999' is not a finite number"},
      {head + "2 2 1\n1 1\n", "m.mtx:3: an entry is \"I J VALUE\": the value is missing"},
      {head + "2 2 1\n1 1 1 1\n", "there is more on the line"},
      {head + "2 2 2\n1 1 1\n", "m.mtx:3: the file ends after 1 of the 2 entries declared"},
      {head + "2 2 1\n1 1 1\n2 2 2\n", "m.mtx:4: more entries than the 1 the size line declares"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 3 1\n", "it is not square"},
      {"%%MatrixMarket matrix coordinate real symmetric\n2 2 2\n2 1 1\n1 2 1\n",
       "entry (1, 2) is given twice, on lines 3 and 4"},
      {"%%MatrixMarket matrix coordinate real skew-symmetric\n2 2 1\n1 1 1\n", "lies on the diagonal"},
      {"%%MatrixMarket matrix coordinate integer general\n1 1 1\n1 1 1.5\n", "value '1.5' is not a whole number"},
      {"%%MatrixMarket matrix coordinate pattern general\n1 1 1\n1 1 1\n", "a pattern entry is \"I J\""},
      {"%%MatrixMarket matrix array real general\n2 1\n1\n", "m.mtx:3: the file ends after 1 of the 2 entries"},
      {"%%MatrixMarket matrix array real general\n1 1\n1 2\n", "an array has one value per line"},
  };
  for (const auto& [text, needle] : cases) {
    SCOPED_TRACE(text);
    expect_input_error([&] { parse(text); }, needle);
  }
}

TEST(MatrixMarket, ACorruptCountReservesNothingItCannotHold) {
  // 2^31-1 squared places may be declared; the text holds one line, which is all the reader allocates for.
  expect_input_error(
      [] {
        parse("%%MatrixMarket matrix coordinate real general\n2147483647 2147483647 4000000000000000000\n1 1 1\n");
      },
      "the file ends after 1 of the 4000000000000000000 entries declared");
}

TEST(MatrixMarket, EveryTruncationIsAnErrorOrTheSameMatrix) {
  const std::string text = "%%MatrixMarket matrix coordinate real symmetric\n% c\n3 3 3\n1 1 1.25\n3 1 -5\n3 3 7\n";
  const auto whole = dense(parse(text));
  for (std::size_t n = 0; n < text.size(); ++n) {
    SCOPED_TRACE(n);
    try {
      EXPECT_EQ(dense(parse(text.substr(0, n))), whole);  // only a cut inside the last line's end can still read
    } catch (const Error& e) {
      EXPECT_EQ(e.kind(), ErrorKind::input);
    }
  }
}

TEST(CsrMatrix, RefusesEntriesThatAreNotSortedOnceAndInside) {
  const std::vector<Entry> unsorted = {{1, 0, 1}, {0, 1, 2}}, twice = {{0, 1, 1}, {0, 1, 2}}, outside = {{2, 0, 1}};
  expect_input_error([&] { CsrMatrix(2, 2, unsorted); }, "entry (0, 1) follows (1, 0)");
  expect_input_error([&] { CsrMatrix(2, 2, twice); }, "entry (0, 1) follows (0, 1)");
  expect_input_error([&] { CsrMatrix(2, 2, outside); }, "entry (2, 0) lies outside the 2 x 2 matrix");
  expect_input_error([] { CsrMatrix(kMaxDimension + 1, 1, {}); }, "rows and columns run from 0 to");
  const CsrMatrix empty(3, 2, {});
  EXPECT_EQ(std::vector<Index>(empty.row_start().begin(), empty.row_start().end()), (std::vector<Index>{0, 0, 0, 0}));
}

TEST(MatrixMarket, EntriesAreReadWithoutBuildingRows) {
  // A dimension of 2^31-1 with one entry: the entries are there to look at before any row offsets exist.
  std::istringstream in("%%MatrixMarket matrix coordinate real symmetric\n2147483647 2147483647 1\n5 2 3\n");
  const MatrixEntries m = read_matrix_market_entries(in, "big.mtx");
  EXPECT_EQ(m.rows, kMaxDimension);
  ASSERT_EQ(m.entries.size(), 2u);
  EXPECT_EQ(m.entries[0].row, 1);
  EXPECT_EQ(m.entries[0].col, 4);
  EXPECT_EQ(m.entries[1].row, 4);
  EXPECT_EQ(m.entries[1].value, 3);
}

TEST(MatrixMarket, MissingFilesAreNamed) {
  expect_input_error([] { read_matrix_market_file("/nonexistent/a.mtx"); }, "cannot open /nonexistent/a.mtx");
}

// The real matrices the solvers are tested on (../shared/matrices), read whole: sizes and stored counts as their
// README gives them, symmetric ones mirrored.
TEST(MatrixMarket, RealMatricesReadWithTheirSizes) {
  const std::filesystem::path dir = ULIBC_MATRICES_DIR;
  if (!std::filesystem::is_directory(dir)) GTEST_SKIP() << "matrix directory " << dir << " is absent";
  const struct {
    const char* file;
    Index n, nonzeros;
  } known[] = {{"orsirr_1.mtx", 1030, 6858},
               {"sherman1.mtx", 1000, 3750},
               {"gr_30_30.mtx", 900, 7744},
               {"plat362.mtx", 362, 5786}};
  for (const auto& k : known) {
    SCOPED_TRACE(k.file);
    const CsrMatrix a = read_matrix_market_file((dir / k.file).string());
    EXPECT_EQ(a.rows(), k.n);
    EXPECT_EQ(a.cols(), k.n);
    EXPECT_EQ(a.nonzeros(), k.nonzeros);
  }
}

}  // namespace
}  // namespace ulibc::sparse
