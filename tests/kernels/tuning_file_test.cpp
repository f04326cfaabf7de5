// tuning_file_test.cpp — GMRES's tuning file: records written and read back by key, others kept, malformed files
// refused naming the file (and not overwritten), and a record's words checked when the solver takes them.
#include "gmres/tuning_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <string>

#include "expect_error.hpp"
#include "fake_sysfs.hpp"
#include "gmres/gmres.hpp"

namespace ulibc::gmres {
namespace {

using testing::expect_input_error;
using testing::TempDir;

const Tuned kSample{{"60", "cgs2", "bilu0", "unroll4", "isend"}, "thread"};

std::string write(const TempDir& dir, const std::string& name, const std::string& text) {
  const std::string path = dir.path() + "/" + name;
  std::ofstream(path) << text;
  return path;
}

void expect_same(const Tuned& a, const Tuned& b) {
  EXPECT_EQ(a.knobs, b.knobs);
  EXPECT_EQ(a.ilu_blocks, b.ilu_blocks);
}

TEST(TuningFile, RecordsAreReadBackByKeyAndOthersKept) {
  TempDir dir;
  const std::string path = dir.path() + "/tuned.json";
  EXPECT_FALSE(load_tuned(path, "a"));  // no file yet: nothing remembered, not an error
  save_tuned(path, "a", kSample);
  Tuned other = kSample;
  other.knobs.precond = "poly";
  save_tuned(path, "b", other);
  expect_same(*load_tuned(path, "a"), kSample);
  expect_same(*load_tuned(path, "b"), other);
  EXPECT_FALSE(load_tuned(path, "c"));
  other.knobs.restart = "240";
  save_tuned(path, "b", other);  // replaced, not added
  expect_same(*load_tuned(path, "b"), other);
  expect_same(*load_tuned(path, "a"), kSample);
}

TEST(TuningFile, MalformedFilesNameTheFileAndAreNotOverwritten) {
  TempDir dir;
  for (const auto& [name, text] : std::initializer_list<std::pair<std::string, std::string>>{
           {"text.json", "not json at all"},
           {"no_list.json", R"({"tuned": 3})"},
           {"no_key.json", R"({"tuned": [{"restart": 30}]})"},
           {"restart.json", R"({"tuned": [{"key": "k", "restart": 0, "orth": "cgs", "precond": "none",
                                "ilu_blocks": "rank", "spmv": "csr", "comm": "p2p"}]})"},
           {"auto.json", R"({"tuned": [{"key": "k", "restart": 30, "orth": "auto", "precond": "none",
                             "ilu_blocks": "rank", "spmv": "csr", "comm": "p2p"}]})"},
           {"missing.json", R"({"tuned": [{"key": "k", "restart": 30, "orth": "cgs"}]})"}}) {
    SCOPED_TRACE(name);
    const std::string path = write(dir, name, text);
    expect_input_error([&] { load_tuned(path, "k"); }, path);
  }
  const std::string notes = write(dir, "notes.json", "my notes");
  expect_input_error([&] { save_tuned(notes, "k", kSample); }, notes);
  std::ifstream in(notes);
  EXPECT_EQ(std::string(std::istreambuf_iterator<char>(in), {}), "my notes");
}

TEST(TuningFile, RecallSetsOnlyTheAutoKnobsAndChecksTheWords) {
  Options o;
  o.precond = Precond::jacobi;  // fixed by hand: kept
  const std::vector<Decision> said = recall(o, kSample, "t.json");
  EXPECT_EQ(o.restart, 60);
  EXPECT_EQ(o.orth, Orth::cgs2);
  EXPECT_EQ(o.precond, Precond::jacobi);
  EXPECT_EQ(o.kernel, Kernel::unroll4);
  EXPECT_EQ(o.comm, Comm::isend);
  EXPECT_EQ(o.precond_options.ilu_blocks, IluBlocks::rank);  // not taken: the preconditioner was not auto
  EXPECT_EQ(said.size(), 4u);
  for (const Decision& d : said) EXPECT_NE(d.reason.find("t.json"), std::string::npos) << d.reason;

  Options all_auto;
  recall(all_auto, kSample, "t.json");
  EXPECT_EQ(all_auto.precond, Precond::bilu0);
  EXPECT_EQ(all_auto.precond_options.ilu_blocks, IluBlocks::thread);

  Tuned unknown = kSample;
  unknown.knobs.comm = "carrier-pigeon";
  Options fresh;
  expect_input_error([&] { recall(fresh, unknown, "t.json"); }, "t.json");
}

}  // namespace
}  // namespace ulibc::gmres
