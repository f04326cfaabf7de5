// ulibc/error.hpp — the one exception type of the C++ API.
#pragma once
#include <stdexcept>
#include <string>

namespace ulibc {

// Why a call failed: the caller's input (a bad cpulist, a missing file under
// the filesystem root, an unknown policy) or the system (a failed syscall).
// The command line turns these into exit codes 2 and 1.
enum class ErrorKind { input, system };

class Error : public std::runtime_error {
 public:
  Error(ErrorKind kind, const std::string& what) : std::runtime_error(what), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

inline Error input_error(const std::string& what) { return Error(ErrorKind::input, what); }
inline Error system_error(const std::string& what) { return Error(ErrorKind::system, what); }

}  // namespace ulibc
