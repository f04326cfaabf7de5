// mpi/comm_profile.hpp — MPI's costs measured beforehand, kept in a file the solvers read at run time.
//
// Katagiri and Kuroda (§3.3) lost about 3 seconds of a run to trying every communication way on the spot, one of
// them very slow; they conclude that MPI's basic costs should be measured beforehand and fed back at run time.
// `ulibc bench mpi --save FILE` measures them; `ulibc gmres --mpi-profile FILE` starts its choice of exchange from
// them and measures only the ways they predict to be close to the best.
//
// The file is JSON: {"profiles": [ {"key": …, "p2p": {"bytes": […], "seconds": […]}, "allgather": …, "bcast": …,
// "allreduce": …}, … ]}, one profile per machine and rank layout, so one file serves several layouts.
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace ulibc::mpi {

// Seconds by message size, measured at a few sizes; read between them on a log-log line.
struct Curve {
  std::vector<double> bytes;    // ascending, > 0
  std::vector<double> seconds;  // same length
  bool empty() const { return bytes.empty(); }
  // Interpolated at `b` (log-log), extended linearly in b beyond the largest size and flat below the smallest.
  double at(double b) const;
};

struct CommProfile {
  std::string key;  // layout_key() of the job it was measured on (mpi/rank_placement.hpp)
  Curve p2p;        // one message between two ranks of the job (half a round trip)
  Curve allgather;  // MPI_Allgather, `bytes` from each rank
  Curve bcast;      // MPI_Bcast of `bytes` from one rank to all
  Curve allreduce;  // MPI_Allreduce (sum) of `bytes` of doubles
};

// The profile stored under `key` in the file at `path`; nullopt when the file has none for it. Error(input) naming
// the file for one that cannot be read or is not such a file.
std::optional<CommProfile> load_profile(const std::string& path, const std::string& key);
// The same from a file's text; `source` names it in messages.
std::optional<CommProfile> parse_profile(const std::string& text, const std::string& source, const std::string& key);
// Stores `p` in the file at `path`, replacing a profile of the same key and keeping the others; creates the file.
void save_profile(const std::string& path, const CommProfile& p);

}  // namespace ulibc::mpi
