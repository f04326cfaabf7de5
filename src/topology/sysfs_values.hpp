// topology/sysfs_values.hpp — typed reads of sysfs attribute files.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "os/fs.hpp"
#include "ulibc/cpuset.hpp"

namespace ulibc::topo {

// A decimal integer file such as core_id. nullopt if absent; Error naming the
// file if present but not an integer.
std::optional<long long> read_int(const os::FsRoot& fs, const std::string& rel);

// A processor set from "<base>_list" (cpulist) or, on kernels without it,
// "<base>" (hex cpumap), e.g. base ".../thread_siblings". nullopt if neither
// exists; Error naming the file if malformed.
std::optional<CpuSet> read_set(const os::FsRoot& fs, const std::string& list_file, const std::string& mask_file);

// "32K", "1024K", "8M" as in cache/index*/size.
std::optional<std::uint64_t> parse_size(std::string_view text);

// Parses `text` with `parse`, turning a parse error into one that names `rel`.
CpuSet parse_set_in(const os::FsRoot& fs, const std::string& rel, std::string_view text, bool is_list);

// Numeric suffix of names like "cpu12" / "node3"; -1 if `name` is not prefix + digits.
int suffix_id(std::string_view name, std::string_view prefix);

}  // namespace ulibc::topo
