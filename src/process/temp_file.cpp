// process/temp_file.cpp — a temporary file for another program, over the OS layer's creation.
#include <cstring>

#include "os/process_control.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process.hpp"

namespace ulibc {

TempFile::TempFile(const std::string& prefix, const std::string& suffix, const std::string& what) {
  const os::CreatedFile file = os::create_temp_file(prefix, suffix);
  if (file.error) throw system_error("cannot create a temporary file for " + what + ": " + std::strerror(file.error));
  path_ = file.path;
}

TempFile::~TempFile() { (void)os::remove_file(path_); }  // already gone is as good as removed

}  // namespace ulibc
