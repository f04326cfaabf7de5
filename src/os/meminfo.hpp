// os/meminfo.hpp — /proc/meminfo and the nodes' meminfo files, read by one parser of their
// "Key:   value kB" lines. Convention (os/os.hpp's rule): nothing throws; a file, key or value that is absent or
// malformed is nullopt.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

#include "os/fs.hpp"

namespace ulibc::os {

// The value of `key` ("MemTotal", "Hugepagesize") in meminfo text: bytes for a line in kB, the number
// itself for a count (HugePages_Free). A node's lines ("Node 1 MemTotal:  ...") read the same way.
std::optional<std::uint64_t> meminfo_value(std::string_view text, std::string_view key);

// The same, from the file `rel` below `fs` ("/proc/meminfo", ".../node1/meminfo").
std::optional<std::uint64_t> read_meminfo(const FsRoot& fs, std::string_view rel, std::string_view key);

// Memory the kernel could give now without swapping: MemAvailable, else (kernels before 3.14) MemFree,
// of the live /proc/meminfo, in bytes.
std::optional<std::uint64_t> available_memory();

}  // namespace ulibc::os
