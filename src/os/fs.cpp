// os/fs.cpp — read-only access to a filesystem below a root directory.
#include "os/fs.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>

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

std::optional<std::string> FsRoot::read(std::string_view rel) const {
  const int fd = ::open(path(rel).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return std::nullopt;
  // A sysfs attribute arrives whole in one read (at most a page), so there a
  // short read is the end and a file costs open, one read and close. procfs
  // files are generated record by record and may return short reads early.
  const bool one_shot = rel.starts_with("/sys/");
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

bool FsRoot::exists(std::string_view rel) const { return ::access(path(rel).c_str(), F_OK) == 0; }

bool FsRoot::is_dir(std::string_view rel) const {
  struct stat st {};
  return ::stat(path(rel).c_str(), &st) == 0 && S_ISDIR(st.st_mode);
}

std::vector<std::string> FsRoot::list(std::string_view rel) const {
  std::vector<std::string> out;
  DIR* d = ::opendir(path(rel).c_str());
  if (!d) return out;
  while (const dirent* e = ::readdir(d)) {
    const std::string_view name = e->d_name;
    if (name != "." && name != "..") out.emplace_back(name);
  }
  ::closedir(d);
  return out;
}

}  // namespace ulibc::os
