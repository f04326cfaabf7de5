// bfs/distributed/traffic.cpp — gathering each rank's counted bytes.
#include "bfs/distributed/traffic.hpp"

#include "mpi/comm.hpp"

namespace ulibc::bfs::distributed {

namespace {

// Every rank's `mine` (the same length everywhere: the levels of a search are the job's), rank after rank.
std::vector<std::int64_t> gather_all(const std::vector<std::int64_t>& mine, MPI_Comm comm) {
  const mpi::Place me = mpi::place_in(comm);
  std::vector<std::int64_t> all(mine.size() * static_cast<std::size_t>(me.size));
  mpi::check(MPI_Allgather(mine.data(), static_cast<int>(mine.size()), MPI_INT64_T, all.data(),
                           static_cast<int>(mine.size()), MPI_INT64_T, comm),
             "MPI_Allgather");
  return all;
}

const char* direction_name(Direction d) { return d == Direction::bottom_up ? "bottom-up" : "top-down"; }

}  // namespace

std::vector<double> gather_values(double mine, MPI_Comm comm) {
  std::vector<double> all(static_cast<std::size_t>(mpi::place_in(comm).size));
  mpi::check(MPI_Allgather(&mine, 1, MPI_DOUBLE, all.data(), 1, MPI_DOUBLE, comm), "MPI_Allgather");
  return all;
}

nlohmann::ordered_json traffic_json(const std::vector<Search>& searches, MPI_Comm comm) {
  const auto ranks = static_cast<std::size_t>(mpi::place_in(comm).size);
  nlohmann::ordered_json out = nlohmann::ordered_json::array();
  for (const Search& s : searches) {
    std::vector<std::int64_t> mine;
    for (const Level& l : s.levels) mine.insert(mine.end(), {l.bytes.sent, l.bytes.received, l.finds});
    const std::vector<std::int64_t> all = gather_all(mine, comm);
    nlohmann::ordered_json levels = nlohmann::ordered_json::array();
    for (std::size_t k = 0; k < s.levels.size(); ++k) {
      std::vector<std::int64_t> sent, received, finds;
      for (std::size_t r = 0; r < ranks; ++r) {
        sent.push_back(all[r * mine.size() + 3 * k]);
        received.push_back(all[r * mine.size() + 3 * k + 1]);
        finds.push_back(all[r * mine.size() + 3 * k + 2]);
      }
      levels.push_back({{"direction", direction_name(s.levels[k].direction)},
                        {"frontier", s.levels[k].frontier},
                        {"discovered", s.levels[k].discovered},
                        {"sent", sent},
                        {"received", received},
                        {"finds", finds}});
    }
    out.push_back({{"root", s.record.root}, {"levels", levels}});
  }
  return out;
}

TrafficSummary summarize_traffic(const std::vector<Search>& searches, MPI_Comm comm) {
  double top_down = 0, bottom_up = 0, per_edge = 0;
  for (const Search& s : searches) {
    double sent = 0;
    for (const Level& l : s.levels) {
      (l.direction == Direction::bottom_up ? bottom_up : top_down) += static_cast<double>(l.bytes.sent);
      sent += static_cast<double>(l.bytes.sent);
    }
    if (s.record.edges > 0) per_edge += sent / static_cast<double>(s.record.edges);
  }
  const double n = searches.empty() ? 1 : static_cast<double>(searches.size());
  return {.top_down = gather_values(top_down / n, comm),
          .bottom_up = gather_values(bottom_up / n, comm),
          .per_edge = gather_values(per_edge / n, comm)};
}

}  // namespace ulibc::bfs::distributed
