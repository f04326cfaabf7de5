// bench/peer_process.hpp — what the Boost peers of the graph benchmarks
// report about themselves: the Boost release and their own peak memory.
#pragma once
#include <boost/version.hpp>

#include <fstream>
#include <string>

namespace ulibc::bench_peers {

inline std::string boost_version() {
  return std::to_string(BOOST_VERSION / 100000) + "." + std::to_string(BOOST_VERSION / 100 % 1000) + "." +
         std::to_string(BOOST_VERSION % 100);
}

// The process's peak resident set, VmHWM: of this program alone (getrusage's
// ru_maxrss survives exec, so it would also count what the parent held).
inline long long peak_rss_bytes() {
  std::ifstream status("/proc/self/status");
  for (std::string line; std::getline(status, line);)
    if (line.rfind("VmHWM:", 0) == 0) return std::stoll(line.substr(6)) * 1024;  // in kB
  return -1;
}

}  // namespace ulibc::bench_peers
