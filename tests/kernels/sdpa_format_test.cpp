// sdpa_format_test.cpp — the SDPA reader: small problems in both formats against hand-written values, every
// malformed input refused with its line, absurd sizes refused without allocating, write -> read round trips, the
// format chosen by the file name, and the SDPLIB problems of ../shared/sdplib with their m and n.
#include "sdp/sdpa_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <map>
#include <random>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"

namespace ulibc::sdp {
namespace {

using testing::input_error_of;
namespace fs = std::filesystem;

Problem parse(const std::string& text, SdpaFormat format = SdpaFormat::sparse) {
  std::istringstream in(text);
  return read_sdpa(in, format == SdpaFormat::sparse ? "p.dat-s" : "p.dat", format);
}

std::string error_of(const std::string& text, SdpaFormat format = SdpaFormat::sparse) {
  return input_error_of([&] { parse(text, format); });
}

// Everything a Problem holds, one line per (F_k, block), 0-based as stored, values to 17 digits: two problems
// are the same exactly when these texts are, and a difference shows where it is.
std::string dump(const Problem& p) {
  std::ostringstream out;
  out << std::setprecision(17) << "blocks";
  for (const BlockShape& b : p.blocks) out << ' ' << (b.diagonal ? -b.size : b.size);
  out << "\nc";
  for (const double c : p.c) out << ' ' << c;
  out << '\n';
  for (std::size_t k = 0; k < p.f.size(); ++k)
    for (const SparseBlock& b : p.f[k].blocks) {
      out << 'F' << k << " b" << b.block << ':';
      for (const Entry& e : b.entries) out << " (" << e.i << ',' << e.j << ")=" << e.value;
      out << '\n';
    }
  return out.str();
}

// The SDPA manual's first example, sparse and dense, with its comment and labels.
const std::string kExampleHead =
    "\"Example 1: mDim = 3, nBLOCK = 1, {2}\"\n   3  =  mDIM\n   1  =  nBOLCK\n   2  = bLOCKsTRUCT\n{48, -8, 20}\n";
const std::string kExampleSparse =
    kExampleHead + "0 1 1 1 -11\n0 1 2 2 23\n1 1 1 1 10\n1 1 1 2 4\n2 1 2 2 -8\n3 1 1 2 -8\n3 1 2 2 -2\n";
const std::string kExampleDense = kExampleHead +
                                  "{ {-11,  0}, { 0, 23} }\n{ { 10,  4}, { 4,  0} }\n"
                                  "{ {  0,  0}, { 0, -8} }\n{ {  0, -8}, {-8, -2} }\n";
const std::string kExampleDump =
    "blocks 2\nc 48 -8 20\nF0 b0: (0,0)=-11 (1,1)=23\nF1 b0: (0,0)=10 (0,1)=4\nF2 b0: (1,1)=-8\n"
    "F3 b0: (0,1)=-8 (1,1)=-2\n";

// Two blocks, one of them LP; entries in either triangle, repeated, zero; CR LF line ends, blank lines, text after
// an entry.
const std::string kMixedSparse =
    "* a symmetric block and an LP block\r\n2 =mdim\r\n2\r\n(2, -3)\r\n1.5 +2e0 = c\r\n"
    "0 1 1 1 1.0\r\n0 1 1 2 0.5   text after an entry is ignored\r\n\r\n0 2 2 2 3\r\n1 1 2 2 -1\r\n"
    "1 2 1 1 4\r\n2 1 2 1 0.25\r\n2 1 1 2 .25\r\n2 2 3 3 70e-1\r\n1 1 1 1 0\r\n1 2 3 3 -0\r\n";
const std::string kMixedDense =
    "2\n2\n2 -3\n1.5 2\n"
    "1 0.5\n0.5 0\n0 3 0\n"
    "0 0 0 -1\n4 0 0\n"
    "{{0, 0.25}, {0.25, 0}} {0, 0, 7}\n";
const std::string kMixedDump =
    "blocks 2 -3\nc 1.5 2\nF0 b0: (0,0)=1 (0,1)=0.5\nF0 b1: (1,1)=3\nF1 b0: (1,1)=-1\nF1 b1: (0,0)=4\n"
    "F2 b0: (0,1)=0.25\nF2 b1: (2,2)=7\n";

TEST(SdpaFormat, ManualExampleReadsTheSameInBothFormats) {
  EXPECT_EQ(dump(parse(kExampleSparse)), kExampleDump);
  EXPECT_EQ(dump(parse(kExampleDense, SdpaFormat::dense)), kExampleDump);
}

TEST(SdpaFormat, EntriesAreStoredOnceInTheUpperTriangle) {
  const Problem sparse = parse(kMixedSparse), dense = parse(kMixedDense, SdpaFormat::dense);
  EXPECT_EQ(dump(sparse), kMixedDump);
  EXPECT_EQ(dump(dense), kMixedDump);
  EXPECT_EQ(sparse.m(), 2);
  EXPECT_EQ(sparse.order(), 5);
  ASSERT_EQ(sparse.f.size(), 3u);
  EXPECT_EQ(sparse.f[0].nonzeros(), 3u);
  EXPECT_EQ(sparse.f[2].nonzeros(), 2u);
}

TEST(SdpaFormat, MatricesWithoutEntriesHaveNoBlocks) {
  const Problem p = parse("3\n2\n1 1\n1 2 3\n2 2 1 1 5\n");
  ASSERT_EQ(p.f.size(), 4u);
  EXPECT_TRUE(p.f[0].blocks.empty());
  EXPECT_TRUE(p.f[1].blocks.empty());
  ASSERT_EQ(p.f[2].blocks.size(), 1u);
  EXPECT_EQ(p.f[2].blocks[0].block, 1);
  EXPECT_TRUE(p.f[3].blocks.empty());
  EXPECT_EQ(parse("1\n1\n1\n1").f[1].nonzeros(), 0u);  // no entries at all, no final line end
}

TEST(SdpaFormat, ListsRunAcrossLinesAndOntoTheNextItem) {
  // The sizes may run on into c on one line; dense, c into F_0.
  EXPECT_EQ(dump(parse("2\n2\n1\n-1 5\n6\n0 2 1 1 1\n")), "blocks 1 -1\nc 5 6\nF0 b1: (0,0)=1\n");
  EXPECT_EQ(dump(parse("1\n1\n1 7 3\n0\n", SdpaFormat::dense)), "blocks 1\nc 7\nF0 b0: (0,0)=3\n");
}

// Each malformed input with the whole message it gets.
void expect_refusals(const std::vector<std::pair<std::string, std::string>>& cases, SdpaFormat format) {
  for (const auto& [text, message] : cases) {
    SCOPED_TRACE(text);
    EXPECT_EQ(error_of(text, format), message);
  }
}

TEST(SdpaFormat, MalformedHeadersAreRefusedWithTheirLine) {
  expect_refusals(
      {
          {"", "p.dat-s: the file ends before m (the number of constraints)"},
          {"\"only a comment\"\n\n", "p.dat-s:3: the file ends before m (the number of constraints)"},
          {"x\n", "p.dat-s:1: m 'x' is not a whole number"},
          {"2.0 =mdim\n", "p.dat-s:1: m '2.0' is not a whole number"},
          {"0 =mdim\n1\n1\n", "p.dat-s:1: m = 0: the number of constraints must be 1 to 10000000"},
          {"-3\n", "p.dat-s:1: m = -3: the number of constraints must be 1 to 10000000"},
          {"10000001\n", "p.dat-s:1: m = 10000001: the number of constraints must be 1 to 10000000"},
          {"99999999999999999999\n", "p.dat-s:1: m '99999999999999999999' is out of range"},
          {"1\n", "p.dat-s:2: the file ends before nBLOCK (the number of blocks)"},
          {"1\n0\n", "p.dat-s:2: nBLOCK = 0: the number of blocks must be 1 to 10000000"},
          {"1\n2\n3 0\n1\n", "p.dat-s:3: block 2 has size 0"},
          {"1\n1\n{x}\n", "p.dat-s:3: block size 'x' is not a whole number"},
          {"1\n1\n-1000001\n", "p.dat-s:3: block 1 has size -1000001: more than the 1000000 rows a block may have"},
          {"2\n2\n3\n", "p.dat-s:4: the file ends after 1 of the 2 block sizes"},
          {"2\n1\n3\n1.0", "p.dat-s:5: the file ends after 1 of the 2 values of c"},
          {"1\n1\n2\nnan\n", "p.dat-s:4: c value 'nan' is not a finite number"},
          {"1\n1\n2\n-inf\n", "p.dat-s:4: c value '-inf' is not a finite number"},
          {"2\n1\n2\n1,x\n", "p.dat-s:4: c value 'x' is not a number"},
          {"1\n1\n2\n1 2\n", "p.dat-s:4: more than the m = 1 values of c (entries start on the next line)"},
      },
      SdpaFormat::sparse);
}

TEST(SdpaFormat, MalformedEntriesAreRefusedWithTheirLine) {
  const std::string head = "1\n2\n2 -2\n1\n";  // entries start on line 5
  expect_refusals(
      {
          {head + "0 1 1 x 1\n", "p.dat-s:5: column 'x' is not a whole number"},
          {head + "\n0 1 1.0 1 1\n", "p.dat-s:6: row '1.0' is not a whole number"},
          {head + "2 1 1 1 1\n", "p.dat-s:5: matrix number 2 is outside 0..1 (F_0..F_m, m = 1)"},
          {head + "-1 1 1 1 1\n", "p.dat-s:5: matrix number -1 is outside 0..1 (F_0..F_m, m = 1)"},
          {head + "0 3 1 1 1\n", "p.dat-s:5: block number 3 is outside 1..2 (nBLOCK = 2)"},
          {head + "0 1 3 1 1\n", "p.dat-s:5: row 3 is outside 1..2 (block 1 has size 2)"},
          {head + "0 2 1 0 1\n", "p.dat-s:5: column 0 is outside 1..2 (block 2 has size 2)"},
          {head + "0 1 1 1 1\n0 1 1 1\n",
           "p.dat-s:6: an entry is \"matno blkno i j value\": this line ends after 4 of its 5 numbers"},
          {head + "0 1 1 1 1 0 1 2 2 1\n",
           "p.dat-s:5: an entry line holds more than 5 numbers: the sparse format has one entry per line"},
          {head + "0 1 1 1 NaN\n", "p.dat-s:5: value 'NaN' is not a finite number"},
          {head + "0 1 1 1 1e999\n", "p.dat-s:5: value '1e999' is outside the range of a double"},
          {head + "0 1 1 1 1.5.2\n", "p.dat-s:5: value '1.5.2' is not a number"},
          {head + "0 2 1 2 1\n", "p.dat-s:5: entry (1, 2) of block 2 is off the diagonal of an LP block"},
          {head + "0 1 1 2 1\n\n0 1 2 1 2\n",
           "p.dat-s:7: F_0 block 1 entry (1, 2) = 2 contradicts line 5, which gives 1"},
          {head + "1 1 2 2 0\n1 1 2 2 3\n",
           "p.dat-s:6: F_1 block 1 entry (2, 2) = 3 contradicts line 5, which gives 0"},
      },
      SdpaFormat::sparse);
}

TEST(SdpaFormat, MalformedDenseMatricesAreRefusedWithTheirLine) {
  const std::string head = "1\n2\n2 -1\n1\n";  // F_0 starts on line 5: 4 + 1 values, then F_1
  expect_refusals(
      {
          {head + "1 2\n2\n", "p.dat:7: the file ends in F_0 block 1, after 3 of its 4 values"},
          {head + "1 2\n2 1\n", "p.dat:7: the file ends in F_0 block 2, after 0 of its 1 values"},
          {head + "1 2\n3 4\n", "p.dat:6: F_0 block 1 entry (1, 2) = 3 contradicts line 5, which gives 2"},
          {head + "1 0\n0 1 1\n1 1\n1 1 1 9\n", "p.dat:8: '9' after F_1: the dense format ends with F_m"},
          {head + "1 0\n0 x\n", "p.dat:6: value 'x' is not a number"},
          {head + "1 inf\n", "p.dat:5: value 'inf' is not a finite number"},
      },
      SdpaFormat::dense);
}

TEST(SdpaFormat, DeclaredSizesCostNothingUntilTheTextHoldsThem) {
  // Counts at their limits with a few items behind them: refused when the text runs out, at once.
  EXPECT_EQ(error_of("10000000\n10000000\n1 1 1\n"), "p.dat-s:4: the file ends after 3 of the 10000000 block sizes");
  EXPECT_EQ(error_of("10000000\n1\n1\n1 2\n"), "p.dat-s:5: the file ends after 2 of the 10000000 values of c");
  EXPECT_EQ(error_of("1\n1\n1000000\n1\n1 2\n", SdpaFormat::dense),
            "p.dat:6: the file ends in F_0 block 1, after 2 of its 1000000000000 values");
  std::string many = "1\n11\n";
  for (int b = 0; b < 11; ++b) many += "1000000 ";
  EXPECT_EQ(error_of(many + "\n1\n"), "p.dat-s:3: the block sizes add up to more than the 10000000 rows X may have");
}

// A problem of random shape and values, every bit pattern of a double likely: what the writer must keep.
Problem random_file_problem(std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto uniform = [&](int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng); };
  auto value = [&] {
    const double v = std::ldexp(std::uniform_real_distribution<double>(0.5, 1.0)(rng), uniform(-1060, 1020));
    return uniform(0, 1) ? -v : v;  // never 0: 2^-1061 is still a subnormal
  };
  Problem p;
  for (int b = uniform(1, 4); b > 0; --b) p.blocks.push_back({uniform(1, 6), uniform(0, 2) == 0});
  for (int k = uniform(1, 5); k > 0; --k) p.c.push_back(value());
  p.f.resize(p.c.size() + 1);
  for (ConstraintMatrix& f : p.f)
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      std::map<std::pair<int, int>, double> entries;  // sorted by (i, j), each once
      const BlockShape shape = p.blocks[b];
      for (int n = uniform(0, 6); n > 0; --n) {
        const int i = uniform(0, shape.size - 1), j = shape.diagonal ? i : uniform(i, shape.size - 1);
        entries[{i, j}] = value();
      }
      if (entries.empty()) continue;
      f.blocks.push_back({static_cast<int>(b), {}});
      for (const auto& [ij, v] : entries) f.blocks.back().entries.push_back({ij.first, ij.second, v});
    }
  return p;
}

TEST(SdpaFormat, WrittenProblemsReadBackBitForBit) {
  for (std::uint64_t seed = 1; seed <= 200; ++seed) {
    SCOPED_TRACE(seed);
    const Problem p = random_file_problem(seed);
    std::ostringstream out;
    write_sdpa_sparse(p, out);
    const Problem q = parse(out.str());
    ASSERT_EQ(dump(q), dump(p));
  }
  std::ostringstream out;
  write_sdpa_sparse(parse(kExampleSparse), out);
  EXPECT_EQ(out.str(),
            "3\n1\n2\n48 -8 20\n0 1 1 1 -11\n0 1 2 2 23\n1 1 1 1 10\n1 1 1 2 4\n2 1 2 2 -8\n"
            "3 1 1 2 -8\n3 1 2 2 -2\n");
}

TEST(SdpaFormat, DenseTextCutShortIsRefusedUntilItsLastNumber) {
  const std::size_t last = kMixedDense.rfind('7') + 1;  // every prefix through this reads the whole problem
  for (std::size_t n = 0; n <= kMixedDense.size(); ++n) {
    SCOPED_TRACE(n);
    if (n < last)
      EXPECT_NE(error_of(kMixedDense.substr(0, n), SdpaFormat::dense), "");
    else
      EXPECT_EQ(dump(parse(kMixedDense.substr(0, n), SdpaFormat::dense)), kMixedDump);
  }
}

TEST(SdpaFormat, FileNamesChooseTheFormat) {
  const testing::TempDir dir;
  auto write = [&](const std::string& name, const std::string& text) {
    const std::string path = (fs::path(dir.path()) / name).string();
    std::ofstream(path, std::ios::binary) << text;
    return path;
  };
  EXPECT_EQ(dump(read_sdpa_file(write("a.dat-s", kMixedSparse))), kMixedDump);
  EXPECT_EQ(dump(read_sdpa_file(write("a.dat", kMixedDense))), kMixedDump);
  EXPECT_EQ(dump(read_sdpa_file(write("a.txt", kMixedSparse))), kMixedDump);  // any other name: sparse
  const std::string bad = write("bad.dat-s", "1\n1\n1\n1\n0 1 1 1\n");
  EXPECT_EQ(input_error_of([&] { read_sdpa_file(bad); }),
            bad + ":5: an entry is \"matno blkno i j value\": this line ends after 4 of its 5 numbers");
  EXPECT_EQ(input_error_of([] { read_sdpa_file("/nonexistent/p.dat-s"); }),
            "cannot open /nonexistent/p.dat-s: No such file or directory");
}

// SDPLIB's problems (../shared/sdplib): each file reads, with m and n as the directory's README.md gives them.
TEST(SdpaFormat, SdplibProblemsReadWithTheirSizes) {
  const fs::path dir = ULIBC_SDPLIB_DIR;
  if (!fs::is_directory(dir)) GTEST_SKIP() << "SDPLIB directory " << dir << " is absent";
  // The README gives gpp250-1 m = 250; its file, like SDPLIB's own table, has 251 (gpp problems have n + 1).
  const std::map<std::string, std::pair<int, long long>> known = {
      {"truss1", {6, 13}},      {"truss3", {27, 31}},   {"truss4", {12, 19}},     {"hinf1", {13, 14}},
      {"control1", {21, 15}},   {"control2", {66, 30}}, {"control5", {351, 75}},  {"theta1", {104, 50}},
      {"theta2", {498, 100}},   {"mcp100", {100, 100}}, {"mcp250-1", {250, 250}}, {"gpp100", {101, 100}},
      {"gpp250-1", {251, 250}}, {"qap5", {136, 26}},    {"arch0", {174, 335}},    {"infp1", {10, 30}},
      {"infd1", {10, 30}}};
  std::set<std::string> read;
  for (const fs::directory_entry& file : fs::directory_iterator(dir)) {
    if (file.path().extension() != ".dat-s") continue;
    const std::string name = file.path().stem().string();
    SCOPED_TRACE(name);
    const auto it = known.find(name);
    ASSERT_NE(it, known.end()) << "not in the README's table";
    const Problem p = read_sdpa_file(file.path().string());
    EXPECT_EQ(p.m(), it->second.first);
    EXPECT_EQ(p.order(), it->second.second);
    EXPECT_EQ(p.f.size(), static_cast<std::size_t>(p.m()) + 1);
    read.insert(name);
  }
  EXPECT_EQ(read.size(), known.size()) << "SDPLIB files missing from " << dir;
}

}  // namespace
}  // namespace ulibc::sdp
