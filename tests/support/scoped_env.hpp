// scoped_env.hpp — sets (or unsets) an environment variable for the lifetime
// of the object and puts the old value back afterwards.
#pragma once
#include <cstdlib>
#include <optional>
#include <string>

namespace ulibc::testing {

class ScopedEnv {
 public:
  // value nullopt: the variable is unset while the object lives.
  ScopedEnv(const char* name, const std::optional<std::string>& value) : name_(name) {
    if (const char* old = std::getenv(name)) old_ = old;
    value ? ::setenv(name, value->c_str(), 1) : ::unsetenv(name);
  }
  ~ScopedEnv() { old_ ? ::setenv(name_, old_->c_str(), 1) : ::unsetenv(name_); }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  const char* name_;
  std::optional<std::string> old_;
};

}  // namespace ulibc::testing
