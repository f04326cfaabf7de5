// os/fs.hpp — read-only access to a filesystem below a root directory.
//
// Every sysfs/procfs read of the library goes through here, so discovery can
// be pointed at an extracted snapshot and stays free of raw system calls.
// Convention: nothing throws; a file or directory that is absent or cannot be
// read is nullopt, false or an empty list.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ulibc::os {

class FsRoot {
 public:
  explicit FsRoot(std::string root);  // "/" or "" means the live filesystem

  const std::string& root() const { return root_; }
  bool is_live() const { return prefix_.empty(); }
  std::string path(std::string_view rel) const;  // rel is absolute, e.g. "/sys/..."

  // The file's contents, or nullopt if it does not exist or cannot be read.
  // Small files only (sysfs attributes, /proc/self/*): reads at most 1 MiB.
  std::optional<std::string> read(std::string_view rel) const;
  bool exists(std::string_view rel) const;
  bool is_dir(std::string_view rel) const;
  // Names in a directory (without "." and ".."), in no particular order; empty if absent.
  std::vector<std::string> list(std::string_view rel) const;

 private:
  std::string root_;
  std::string prefix_;  // root without trailing slash; empty for the live root
};

}  // namespace ulibc::os
