// gmres/team.cpp — the split of a rank's rows among its threads.
#include "gmres/team.hpp"

#include <algorithm>

namespace ulibc::gmres {

Team::Team(std::span<const Index> row_start, int threads) : rows_(static_cast<Index>(row_start.size()) - 1) {
  const Index entries = row_start.back() - row_start.front();
  threads = static_cast<int>(std::clamp<Index>(entries / kMinEntriesPerThread, 1, threads));
  for (int t = 0; t < threads; ++t) {
    const Range r = weighted_share(row_start, static_cast<std::size_t>(t), static_cast<std::size_t>(threads));
    shares_.push_back({static_cast<Index>(r.begin), static_cast<Index>(r.end)});
  }
}

}  // namespace ulibc::gmres
