// os/fs.cpp — read-only access to a filesystem below a root directory.
#include "os/fs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <utility>

namespace ulibc::os {

FsRoot::FsRoot(std::string root) : root_(root.empty() ? "/" : std::move(root)) {
  // "/.", "//" or a link to / are the live machine too: only the resolved
  // path decides whether the calling process may be consulted.
  std::error_code ec;
  const auto resolved = std::filesystem::canonical(root_, ec);
  prefix_ = ec ? root_ : resolved.string();
  while (!prefix_.empty() && prefix_.back() == '/') prefix_.pop_back();
}

std::string FsRoot::path(std::string_view rel) const { return prefix_ + std::string(rel); }

namespace {

bool is_sysfs(std::string_view rel) { return rel.starts_with("/sys/"); }

// The file opened as `fd` (closed here), read whole. A sysfs attribute
// arrives whole in one read (at most a page), so there a short read is the
// end and a file costs open, one read and close. procfs files are generated
// record by record and may return short reads early.
std::optional<std::string> read_and_close(int fd, bool one_shot) {
  if (fd < 0) return std::nullopt;
  char buf[4096];
  std::string out;
  constexpr std::size_t kLimit = 1 << 20;
  for (;;) {
    const ssize_t n = ::read(fd, buf, sizeof buf);
    if (n < 0) {
      ::close(fd);
      return std::nullopt;
    }
    out.append(buf, static_cast<std::size_t>(n));
    if (n == 0 || (one_shot && static_cast<std::size_t>(n) < sizeof buf) || out.size() >= kLimit) break;
  }
  ::close(fd);
  return out;
}

std::vector<std::string> names_in(DIR* d) {
  std::vector<std::string> out;
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") out.emplace_back(name);
  }
  ::closedir(d);
  return out;
}

constexpr int kDirFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC;

}  // namespace

std::optional<std::string> FsRoot::read(std::string_view rel) const {
  return read_and_close(::open(path(rel).c_str(), O_RDONLY | O_CLOEXEC), is_sysfs(rel));
}

bool FsRoot::exists(std::string_view rel) const { return ::access(path(rel).c_str(), F_OK) == 0; }

bool FsRoot::is_dir(std::string_view rel) const {
  struct stat st {};
  return ::stat(path(rel).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> FsRoot::list(std::string_view rel) const { return names_in(::opendir(path(rel).c_str())); }

FsDir FsRoot::dir(std::string_view rel) const {
  std::string where = path(rel);
  const int fd = ::open(where.c_str(), kDirFlags);
  return FsDir(fd, std::move(where), is_sysfs(rel));
}

FsDir::FsDir(FsDir&& o) noexcept : fd_(std::exchange(o.fd_, -1)), path_(std::move(o.path_)), sysfs_(o.sysfs_) {}

FsDir& FsDir::operator=(FsDir&& o) noexcept {
  if (this != &o) {
    if (fd_ >= 0) ::close(fd_);
    fd_ = std::exchange(o.fd_, -1);
    path_ = std::move(o.path_);
    sysfs_ = o.sysfs_;
  }
  return *this;
}

FsDir::~FsDir() {
  if (fd_ >= 0) ::close(fd_);
}

std::string FsDir::path(std::string_view name) const { return path_ + "/" + std::string(name); }

std::optional<std::string> FsDir::read(std::string_view name) const {
  if (fd_ < 0) return std::nullopt;
  return read_and_close(::openat(fd_, std::string(name).c_str(), O_RDONLY | O_CLOEXEC), sysfs_);
}

// getdents64 on the held descriptor, from its start: no second open, as
// opendir would need (fdopendir takes the descriptor over).
std::vector<std::string> FsDir::list() const {
  std::vector<std::string> out;
  if (fd_ < 0 || ::lseek(fd_, 0, SEEK_SET) != 0) return out;
  alignas(dirent64) char buf[8192];
  for (;;) {
    const ssize_t n = ::getdents64(fd_, buf, sizeof buf);
    if (n <= 0) break;
    for (ssize_t at = 0; at < n;) {
      const auto* e = reinterpret_cast<const dirent64*>(buf + at);
      const std::string_view name = e->d_name;
      if (name != "." && name != "..") out.emplace_back(name);
      at += e->d_reclen;
    }
  }
  return out;
}

FsDir FsDir::dir(std::string_view name) const {
  const int fd = fd_ < 0 ? -1 : ::openat(fd_, std::string(name).c_str(), kDirFlags);
  return FsDir(fd, path(name), sysfs_);
}

}  // namespace ulibc::os
