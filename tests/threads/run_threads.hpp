// run_threads.hpp — n plain std::threads running body(t), joined before it
// returns: the stress tests' team, with no binding in the way.
#pragma once
#include <functional>
#include <thread>
#include <vector>

namespace ulibc::testing {

inline void run_threads(int n, const std::function<void(int)>& body) {
  std::vector<std::thread> team;
  for (int t = 0; t < n; ++t) team.emplace_back(body, t);
  for (auto& th : team) th.join();
}

}  // namespace ulibc::testing
