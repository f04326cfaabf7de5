// process_test.cpp — ulibc::run_program: the exit code as a shell gives it, and a program that cannot start named.
#include "ulibc/process.hpp"

#include <gtest/gtest.h>

#include <string>

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
