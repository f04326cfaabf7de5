// os/fs.hpp — read-only access to a filesystem below a root directory.
//
// Every sysfs/procfs read of the library goes through here, so discovery can
// be pointed at an extracted snapshot and stays free of raw system calls.
// Convention (os/os.hpp's rule): nothing throws; a file or directory that is absent or cannot be
// read is nullopt, false or an empty list.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace ulibc::os {

class FsDir;

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
  // The directory held open, for many reads inside it; not open if absent.
  FsDir dir(std::string_view rel) const;

 private:
  std::string root_;
  std::string prefix_;  // root without trailing slash; empty for the live root
};

// A directory below a root, held open so that the files in it are opened
// relative to it (openat): the kernel then walks only the names below it, not
// the whole path from "/". On sysfs that is most of an attribute's cost
// (docs/PERFORMANCE.md). Same convention as FsRoot: an absent file is nullopt;
// a directory that could not be opened reads as empty.
class FsDir {
 public:
  FsDir() = default;
  FsDir(FsDir&& o) noexcept;
  FsDir& operator=(FsDir&& o) noexcept;
  FsDir(const FsDir&) = delete;
  FsDir& operator=(const FsDir&) = delete;
  ~FsDir();

  bool is_open() const { return fd_ >= 0; }
  // Where `name` is, for messages: the root's path of this directory, "/", name.
  std::string path(std::string_view name) const;
  // A file inside (name may hold '/'); as FsRoot::read.
  std::optional<std::string> read(std::string_view name) const;
  std::vector<std::string> list() const;
  FsDir dir(std::string_view name) const;  // a directory inside

 private:
  friend class FsRoot;
  FsDir(int fd, std::string path, bool sysfs) : fd_(fd), path_(std::move(path)), sysfs_(sysfs) {}
  int fd_ = -1;
  std::string path_;    // as FsRoot::path gives it
  bool sysfs_ = false;  // a sysfs attribute arrives whole in one read
};

}  // namespace ulibc::os
