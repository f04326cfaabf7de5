// bfs/distributed/traffic.hpp — every rank's bytes, search by search and level by level, gathered for the record.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <vector>

#include "bfs/distributed/graph500.hpp"

namespace ulibc::bfs::distributed {

// Collective: each search's levels, with every rank's bytes sent and received in each, as JSON: one entry per
// search, {"root", "levels": [{"direction", "frontier", "discovered", "sent", "received", "finds"}]}, the last three
// per rank (finds: the vertices a rank sent to others of its grid row, with the parent it found).
nlohmann::ordered_json traffic_json(const std::vector<Search>& searches, MPI_Comm comm);

// What a search moved: per rank, the mean over the searches of the bytes it sent in one, top-down and bottom-up
// levels apart, and the same per input edge of the search (Graph500's m).
struct TrafficSummary {
  std::vector<double> top_down, bottom_up;  // bytes sent per search, per rank
  std::vector<double> per_edge;             // bytes sent per input edge, per rank
};
// Collective.
TrafficSummary summarize_traffic(const std::vector<Search>& searches, MPI_Comm comm);

// Collective: every rank's value, in rank order.
std::vector<double> gather_values(double mine, MPI_Comm comm);

}  // namespace ulibc::bfs::distributed
