// mpi_costs/survey.cpp — resolving, taking and recording one `ulibc bench mpi` run (mpi_costs/survey.hpp).
#include "mpi_costs/survey.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <stdexcept>

#include "harness/memory_check.hpp"
#include "harness/options.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::mpi {

namespace {

using nlohmann::ordered_json;

constexpr int kQuickReps = 5;
constexpr double kQuickBatchSeconds = 2.5e-4;
constexpr int kMaxReps = 1000;

std::vector<Micro> resolve_tests(const SurveyRequest& q, int ranks, std::vector<std::string>& notes) {
  std::vector<Micro> tests;
  for (const std::string& word : q.tests) {
    Micro m{};
    try {
      m = parse_micro(word);
    } catch (const Error& e) {
      throw input_error(fmt::format("--tests: {}", e.what()));
    }
    if (needs_two_ranks(m) && ranks < 2)
      throw input_error(
          fmt::format("--tests {}: {} runs between ranks 0 and 1, and this job has one rank "
                      "(mpirun -n 2 ulibc bench mpi)",
                      word, word));
    if (std::find(tests.begin(), tests.end(), m) == tests.end()) tests.push_back(m);
  }
  if (!q.tests.empty()) return tests;
  for (const Micro m : kMicros)
    if (ranks >= 2 || !needs_two_ranks(m)) tests.push_back(m);
  if (ranks < 2) notes.push_back("p2p and overlap need two ranks: not measured (mpirun -n 2 ulibc bench mpi)");
  return tests;
}

// "4Ki" → 4096, "4M" → 4000000, as STREAM's --size reads them.
std::uint64_t parse_size(const std::string& given) {
  try {
    return harness::parse_size(given, true);
  } catch (const std::invalid_argument&) {
    throw input_error(fmt::format("--sizes \"{}\": a size in bytes, e.g. 8, 4Ki or 4Mi", given));
  }
}

std::vector<std::size_t> resolve_sizes(const SurveyRequest& q) {
  if (q.sizes.empty()) return default_sizes(q.quick);
  std::vector<std::uint64_t> sizes;
  for (const std::string& word : q.sizes) {
    sizes.push_back(parse_size(word));
    try {
      message_sizes({sizes.back()});
    } catch (const Error& e) {
      throw input_error(fmt::format("--sizes {}: {}", word, e.what()));
    }
  }
  return message_sizes(sizes);
}

std::pair<int, int> parse_pin(const std::string& text) {
  const auto bad = [&] {
    return input_error(fmt::format("--pin \"{}\": two processor numbers A,B, for ranks 0 and 1", text));
  };
  const std::size_t comma = text.find(',');
  if (comma == std::string::npos) throw bad();
  int a = -1, b = -1;
  const char* end = text.data() + text.size();
  const auto first = std::from_chars(text.data(), text.data() + comma, a);
  const auto second = std::from_chars(text.data() + comma + 1, end, b);
  if (first.ec != std::errc() || first.ptr != text.data() + comma || second.ec != std::errc() || second.ptr != end ||
      a < 0 || b < 0)
    throw bad();
  return {a, b};
}

// A profile holds p2p, allgather, bcast and allreduce: each of them the job can run must be measured.
void require_profile_tests(const Survey& s, int ranks) {
  for (const Micro m : {Micro::p2p, Micro::allgather, Micro::bcast, Micro::allreduce})
    if (!s.has(m) && (ranks >= 2 || !needs_two_ranks(m)))
      throw input_error(
          fmt::format("--save stores p2p, allgather, bcast and allreduce: --tests leaves out {}", micro_name(m)));
}

ordered_json point_json(const Point& p) {
  return {{"bytes", p.bytes},
          {"operations", p.operations},
          {"median", p.figure.value},
          {"unit", p.figure.unit},
          {"reps", p.figure.reps}};
}

ordered_json series_json(const Series& s) {
  ordered_json j = ordered_json::array();
  for (const Point& p : s) j.push_back(point_json(p));
  return j;
}

ordered_json overlap_json(const std::vector<OverlapPoint>& points) {
  ordered_json j = ordered_json::array();
  for (const OverlapPoint& p : points) {
    const double bytes = static_cast<double>(p.bytes);
    j.push_back({{"bytes", p.bytes},
                 {"operations", p.operations},
                 {"alone_seconds", p.alone.value},
                 {"loaded_seconds", p.loaded.value},
                 {"compute_seconds", p.compute},
                 {"alone_mb_per_s", bytes / p.alone.value / 1e6},
                 {"loaded_mb_per_s", bytes / p.loaded.value / 1e6},
                 {"overlap", p.overlap()},
                 {"alone_reps", p.alone.reps},
                 {"loaded_reps", p.loaded.reps}});
  }
  return j;
}

// What processors a and b of one machine share, for the pair's record.
ordered_json shared_json(const Sharing& s) {
  ordered_json caches = ordered_json::array();
  for (const Cache& c : s.caches)
    caches.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}});
  return {{"processor", s.same_processor()},
          {"core", s.same_core()},
          {"package", s.same_package()},
          {"node", s.same_node()},
          {"caches", caches}};
}

}  // namespace

bool Survey::has(Micro m) const { return std::find(tests.begin(), tests.end(), m) != tests.end(); }

Survey resolve_survey(const SurveyRequest& q, int ranks) {
  Survey s;
  s.tests = resolve_tests(q, ranks, s.notes);
  s.plan.sizes = resolve_sizes(q);
  s.plan.reps = q.reps.value_or(q.quick ? kQuickReps : s.plan.reps);
  if (s.plan.reps < 1 || s.plan.reps > kMaxReps)
    throw input_error(fmt::format("--reps {}: from 1 to {}", s.plan.reps, kMaxReps));
  if (q.quick) s.plan.batch_seconds = kQuickBatchSeconds;
  if (!q.pin.empty()) {
    s.pin = parse_pin(q.pin);
    if (ranks < 2)
      throw input_error(fmt::format("--pin {}: pins ranks 0 and 1, and this job has one rank (mpirun -n 2)", q.pin));
  }
  if (q.profile) require_profile_tests(s, ranks);
  return s;
}

SurveyResults take_survey(MPI_Comm comm, const Survey& survey) {
  SurveyResults m;
  for (const Micro t : survey.tests) {
    switch (t) {
      case Micro::p2p:
        m.latency = p2p_latency(comm, survey.plan);
        m.bandwidth = p2p_bandwidth(comm, survey.plan);
        break;
      case Micro::overlap:
        m.overlap = overlap(comm, survey.plan);
        break;
      case Micro::allgather:
        m.allgather = allgather_time(comm, survey.plan);
        break;
      case Micro::allreduce:
        m.allreduce = allreduce_time(comm, survey.plan);
        break;
      case Micro::bcast:
        m.bcast = bcast_time(comm, survey.plan);
        break;
    }
  }
  return m;
}

void require_buffers(const Survey& survey, int ranks, int local_ranks) {
  const std::uint64_t largest = survey.plan.sizes.back();
  const std::uint64_t per_rank = harness::saturating_mul(largest, static_cast<std::uint64_t>(ranks) + 2);
  harness::require_memory(harness::saturating_mul(per_rank, static_cast<std::uint64_t>(local_ranks)),
                          fmt::format("the message buffers of {} ranks here ({} each, {} ranks in the job)",
                                      local_ranks, ulibc::format_bytes(largest), ranks));
}

ordered_json plan_json(const Survey& survey) {
  ordered_json tests = ordered_json::array();
  for (const Micro t : survey.tests) tests.push_back(micro_name(t));
  return {{"tests", tests},
          {"sizes", survey.plan.sizes},
          {"reps", survey.plan.reps},
          {"batch_seconds", survey.plan.batch_seconds},
          {"window", survey.plan.window}};
}

ordered_json results_json(const Survey& survey, const SurveyResults& m) {
  ordered_json j = ordered_json::object();
  if (survey.has(Micro::p2p)) j["p2p"] = {{"latency", series_json(m.latency)}, {"bandwidth", series_json(m.bandwidth)}};
  if (survey.has(Micro::overlap)) j["overlap"] = overlap_json(m.overlap);
  if (survey.has(Micro::allgather)) j["allgather"] = series_json(m.allgather);
  if (survey.has(Micro::allreduce)) j["allreduce"] = series_json(m.allreduce);
  if (survey.has(Micro::bcast)) j["bcast"] = series_json(m.bcast);
  return j;
}

ordered_json pair_json(const ordered_json& rank_table, const Topology& topo, const std::string& pinned_by) {
  if (rank_table.size() < 2) return nullptr;
  const ordered_json& r0 = rank_table[0];
  const ordered_json& r1 = rank_table[1];
  const int a = r0["thread_processors"][0].get<int>(), b = r1["thread_processors"][0].get<int>();
  ordered_json j = {{"processors", {a, b}}, {"hosts", {r0["host"], r1["host"]}}, {"pinned_by", pinned_by}};
  if (a < 0 || b < 0) {
    j["describe"] = "not pinned: the operating system places them";
  } else if (r0["host"] != r1["host"]) {
    j["describe"] = fmt::format("processor {} of {} and processor {} of {}: two machines", a,
                                r0["host"].get<std::string>(), b, r1["host"].get<std::string>());
  } else {
    const Sharing s = sharing(topo, a, b);
    j["shared"] = shared_json(s);
    j["describe"] = s.describe();
  }
  return j;
}

}  // namespace ulibc::mpi
