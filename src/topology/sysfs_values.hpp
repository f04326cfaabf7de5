// topology/sysfs_values.hpp — typed reads of sysfs attribute files.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "os/fs.hpp"
#include "ulibc/cpuset.hpp"

namespace ulibc::topo {

// A decimal integer file such as core_id. nullopt if absent; Error naming the
// file if present but not an integer.
std::optional<long long> read_int(const os::FsRoot& fs, const std::string& rel);
std::optional<long long> read_int(const os::FsDir& dir, std::string_view name);
// The same for `text` already read from the file at `where` (named in errors).
long long parse_int_at(const std::string& where, std::string_view text);

// A processor set from "<base>_list" (cpulist) or, on kernels without it,
// "<base>" (hex cpumap), e.g. base ".../thread_siblings". nullopt if neither
// exists; Error naming the file if malformed.
std::optional<CpuSet> read_set(const os::FsRoot& fs, const std::string& list_file, const std::string& mask_file);

// "32K", "1024K", "8M" as in cache/index*/size.
std::optional<std::uint64_t> parse_size(std::string_view text);

// Parses `text` with `parse`, turning a parse error into one that names `rel`.
CpuSet parse_set_in(const os::FsRoot& fs, const std::string& rel, std::string_view text, bool is_list);
// The same, naming the file at `where`.
CpuSet parse_set_at(const std::string& where, std::string_view text, bool is_list);

// One attribute that kernels write under different names (core_cpus_list,
// else core_cpus, else thread_siblings_list, …), read from many directories.
// A kernel writes the same attributes for every processor (every cache,
// every node), so a name found missing in the first directory that has any
// of them is not tried again: on a large machine that spares an open per
// processor for each name its kernel lacks.
class Alternatives {
 public:
  // Each name with whether it holds a cpulist (else a hex cpumap or an integer).
  struct Name {
    std::string name;
    bool is_list = true;
  };
  explicit Alternatives(std::vector<Name> names) : names_(std::move(names)), absent_(names_.size(), false) {}
  // The set in the first name present in `dir` (below `prefix`, a directory
  // path inside it ending in '/', known to exist), nullopt when none is or the
  // directory is not open; Error naming the file if malformed.
  std::optional<CpuSet> read_set(const os::FsDir& dir, const std::string& prefix = "");
  // The text of the first name present, for an attribute that is not a set.
  std::optional<std::string> read(const os::FsDir& dir);

 private:
  std::optional<std::pair<std::size_t, std::string>> first_present(const os::FsDir& dir, const std::string& prefix);
  std::vector<Name> names_;
  std::vector<bool> absent_;
  bool learnt_ = false;  // some name was found: absences are no longer the kernel's
};

// Numeric suffix of names like "cpu12" / "node3"; -1 if `name` is not digits.
int suffix_id(std::string_view name, std::string_view prefix);

}  // namespace ulibc::topo
