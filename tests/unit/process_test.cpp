// process_test.cpp — ulibc::run_program: the exit code as a shell gives it, and a program that cannot start named;
// ulibc::TempFile: made in the temporary directory, gone with its scope, refused by name.
#include "ulibc/process.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stdexcept>
#include <string>

#include "scoped_env.hpp"
#include "ulibc/error.hpp"

TEST(RunProgram, GivesTheExitCode) {
  EXPECT_EQ(ulibc::run_program({"true"}), 0);
  EXPECT_EQ(ulibc::run_program({"sh", "-c", "exit 3"}), 3);
}

TEST(RunProgram, AProgramKilledByASignalGives128PlusIt) {
  EXPECT_EQ(ulibc::run_program({"sh", "-c", "kill -TERM $$"}), 128 + 15);
}

TEST(RunProgram, AProgramThatCannotStartIsASystemErrorNamingIt) {
  try {
    ulibc::run_program({"ulibc-no-such-program", "--flag"});
    ADD_FAILURE() << "a missing program ran";
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::system);
    EXPECT_EQ(std::string(e.what()), "cannot run \"ulibc-no-such-program\": No such file or directory");
  }
  EXPECT_THROW(ulibc::run_program({}), ulibc::Error);
}

TEST(TempFile, IsMadeEmptyInTheTemporaryDirectoryAndGoneWithItsScope) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "ulibc-temp-file-test";
  std::filesystem::create_directories(dir);
  const ulibc::testing::ScopedEnv tmpdir("TMPDIR", dir.string());
  std::string path;
  try {
    const ulibc::TempFile file("ulibc-test-", ".json", "the test");
    path = file.path();
    EXPECT_EQ(std::filesystem::path(path).parent_path(), dir);
    EXPECT_TRUE(std::filesystem::path(path).filename().string().starts_with("ulibc-test-")) << path;
    EXPECT_TRUE(path.ends_with(".json")) << path;
    EXPECT_EQ(std::filesystem::file_size(path), 0u);
    throw std::runtime_error("leaving the scope by an exception");
  } catch (const std::runtime_error&) {
  }
  EXPECT_FALSE(std::filesystem::exists(path)) << path;
  std::filesystem::remove_all(dir);
}

TEST(TempFile, ATemporaryDirectoryThatIsNoneIsASystemErrorNamingWhatItWasFor) {
  const ulibc::testing::ScopedEnv tmpdir("TMPDIR", "/proc/version");  // a file, not a directory
  try {
    const ulibc::TempFile file("ulibc-test-", ".svg", "the picture");
    ADD_FAILURE() << "made " << file.path();
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::system);
    EXPECT_TRUE(std::string(e.what()).starts_with("cannot create a temporary file for the picture: ")) << e.what();
  }
}
