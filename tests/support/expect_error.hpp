// expect_error.hpp — the one way the tests check a refusal: f throws a
// ulibc::Error of the expected kind (input, or system) whose message contains
// `needle`, or whose whole message the test then examines.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "ulibc/error.hpp"

namespace ulibc::testing {

inline bool contains(const std::string& text, const std::string& needle) {
  return text.find(needle) != std::string::npos;
}

inline void expect_error(const std::function<void()>& f, ulibc::ErrorKind kind, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming \"" << needle << "\"";
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

inline void expect_input_error(const std::function<void()>& f, const std::string& needle) {
  expect_error(f, ulibc::ErrorKind::input, needle);
}

// The same for Error(system): what the environment refused (a file that cannot be written).
inline void expect_system_error(const std::function<void()>& f, const std::string& needle) {
  expect_error(f, ulibc::ErrorKind::system, needle);
}

// The message of the Error(input) that f throws; "" and a test failure when none.
inline std::string input_error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::input) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no error";
  return "";
}

}  // namespace ulibc::testing
