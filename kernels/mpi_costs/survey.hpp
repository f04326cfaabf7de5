// mpi_costs/survey.hpp — one run of `ulibc bench mpi`: which measurements at which sizes, taken, and recorded.
//
// The request is what the command's options say, as typed; resolving it checks every word (Error(input) naming
// the option) and gives a Survey, the same on every rank, which is then taken collectively over the job's ranks.
// The record is the measurements' part of the command's JSON: every repetition, and where ranks 0 and 1 ran.
#pragma once
#include <mpi.h>

#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "mpi_costs/mpi_costs.hpp"
#include "ulibc/topology.hpp"

namespace ulibc::mpi {

// The options as typed: rank 0 resolves them, so that a bad word is reported once, not by every rank.
struct SurveyRequest {
  std::vector<std::string> tests;  // --tests: micro names; empty: every one the job's ranks can run
  std::vector<std::string> sizes;  // --sizes: "8", "4Ki", "4M"; empty: default_sizes(quick)
  std::optional<int> reps;         // --reps
  std::string pin;                 // --pin "A,B": the processors of ranks 0 and 1
  bool quick = false;              // few sizes, few and short repetitions
  bool profile = false;            // --save: the survey must measure what a profile holds
};

struct Survey {
  std::vector<Micro> tests;  // in the order asked, each once
  MicroPlan plan;
  std::optional<std::pair<int, int>> pin;  // the processors of ranks 0 and 1, when asked
  std::vector<std::string> notes;          // what was left out and why, one line each
  bool has(Micro m) const;
};

// Error(input) naming the option: an unknown test, a size that is not whole doubles, --reps out of range, a
// --pin that is not A,B, p2p, overlap or --pin on one rank, --save without a test its profile needs.
Survey resolve_survey(const SurveyRequest& request, int ranks);

// What the survey measured; the series of the tests it left out are empty.
struct SurveyResults {
  Series latency, bandwidth, allgather, allreduce, bcast;
  std::vector<OverlapPoint> overlap;
};
// Collective over comm: every test of the survey, in its order. Figures are rank 0's.
SurveyResults take_survey(MPI_Comm comm, const Survey& survey);

// Error(input) when the message buffers of the largest size do not fit this machine's memory, for the ranks on it
// (at most the gathered ranks' and its own for MPI_Allgather, two for a transfer).
void require_buffers(const Survey& survey, int ranks, int local_ranks);

// The record's parts: the plan ({tests, sizes, reps, batch_seconds, window}), and one member per test measured
// (p2p: {latency, bandwidth}; overlap; allgather; allreduce; bcast), every repetition kept.
nlohmann::ordered_json plan_json(const Survey& survey);
nlohmann::ordered_json results_json(const Survey& survey, const SurveyResults& results);
// Where ranks 0 and 1 ran (from mpi::rank_table's rows) and what their processors share on this machine's
// topology; pinned_by says who chose ("--pin", "policy scatter"). Null with one rank.
nlohmann::ordered_json pair_json(const nlohmann::ordered_json& rank_table, const Topology& topo,
                                 const std::string& pinned_by);

}  // namespace ulibc::mpi
