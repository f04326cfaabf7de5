// options_test.cpp — the options facade every kernel, command and peer registers through: sizes, ranges, checks,
// exclusions, optional values, required ones. (Whether an option was given is read after the parse, which the
// command's tests see: the options live as long as the parser.)
#include "harness/options.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "expect_error.hpp"

namespace {

using ulibc::harness::Options;
using ulibc::harness::parse_options;
using ulibc::harness::parse_size;
using ulibc::testing::contains;

// The refusal's words, or "" when the arguments were accepted.
std::string refusal(const std::function<void(Options&)>& add, const std::string& args) {
  try {
    parse_options(add, args);
    return "";
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
}

TEST(Options, SizesTakeDecimalOrBinarySuffixes) {
  EXPECT_EQ(parse_size("4096", true), 4096u);
  EXPECT_EQ(parse_size("4Ki", true), 4096u);
  EXPECT_EQ(parse_size("4K", true), 4000u);
  EXPECT_EQ(parse_size("4K", false), 4096u);
  EXPECT_EQ(parse_size("2Mi", true), 2u << 20);
  EXPECT_EQ(parse_size("16383Pi", true), std::uint64_t{16383} << 50);
  // Beyond 2^64, by digits or by the suffix's factor, and other notations, are refused, never wrapped.
  for (const char* bad : {"", "x", "4Q", "-1", "4 K K", "99999999999999999999", "16384Pi", "0x10", "1e3"})
    EXPECT_THROW(parse_size(bad, true), std::invalid_argument) << bad;
}

TEST(Options, RangesChecksAndExclusionsRefuseByName) {
  int n = 0;
  std::string word, json;
  const auto add = [&](Options& o) {
    o.add("--n", n, "").in_range(1, 8);
    o.add("--word", word, "").check([](const std::string& w) { return w == "bad" ? "not that word" : ""; });
    o.add("--json", json, "").optional_value();
    o.add("--file", word, "").excludes("--json");
  };
  EXPECT_EQ(refusal(add, "--n 8 --word good"), "");
  EXPECT_EQ(n, 8);
  EXPECT_TRUE(contains(refusal(add, "--n 9"), "ValidationError")) << refusal(add, "--n 9");
  EXPECT_TRUE(contains(refusal(add, "--word bad"), "not that word")) << refusal(add, "--word bad");
  EXPECT_EQ(refusal(add, "--json"), "");  // no value: allowed
  EXPECT_TRUE(contains(refusal(add, "--json out.json --file f"), "excludes")) << refusal(add, "--json x --file f");
}

TEST(Options, RequiredOptionsMustBeGiven) {
  std::string graph;
  std::vector<std::int64_t> roots;
  const auto add = [&](Options& o) {
    o.add("graph", graph, "").required();
    o.add("--root", roots, "");
  };
  EXPECT_TRUE(contains(refusal(add, "--root 1"), "graph is required")) << refusal(add, "--root 1");
  EXPECT_EQ(refusal(add, "g.el --root 1 --root 5"), "");
  EXPECT_EQ(graph, "g.el");
  EXPECT_EQ(roots, (std::vector<std::int64_t>{1, 5}));
}

}  // namespace
