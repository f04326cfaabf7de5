// expect_error.hpp — the one way the tests check a refusal: f throws a
// ulibc::Error of kind input whose message contains `needle`.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "ulibc/error.hpp"

namespace ulibc::testing {

inline void expect_input_error(const std::function<void()>& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "no error; expected one naming \"" << needle << "\"";
  } catch (const ulibc::Error& e) {
    EXPECT_EQ(e.kind(), ulibc::ErrorKind::input) << e.what();
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

}  // namespace ulibc::testing
