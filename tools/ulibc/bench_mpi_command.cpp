// bench_mpi_command.cpp — `[mpirun -n K] ulibc bench mpi`: MPI's basic costs by message size (mpi_costs/mpi_costs.hpp).
//
// A front end over kernels/mpi_costs and layers/mpi: it places each rank on one processor (its share's first under the
// policy, or
// --pin's for ranks 0 and 1), runs the measurements asked for, and reports on rank 0: a table or --json's record
// (every repetition, the rank table, the machine), and with --save the profile `ulibc gmres --mpi-profile` reads.
// Options are checked on rank 0 and a bad one fails every rank with one message (mpi::together).
#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <fstream>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench_report.hpp"
#include "catalog.hpp"
#include "commands.hpp"
#include "harness/memory_check.hpp"
#include "harness/named.hpp"
#include "io/file_io.hpp"
#include "mpi/comm.hpp"
#include "mpi/comm_profile.hpp"
#include "mpi/rank_placement.hpp"
#include "mpi_command.hpp"
#include "mpi_costs/mpi_costs.hpp"
#include "table.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::cli {

namespace {

using nlohmann::ordered_json;

constexpr int kQuickReps = 5;
constexpr double kQuickBatchSeconds = 2.5e-4;
constexpr int kMaxReps = 1000;

struct MpiBenchOptions {
  PlacementOptions placement;
  std::vector<std::string> tests, sizes;
  std::optional<int> reps;
  std::string pin, json, save;
  std::string thread_level = "funneled";
  std::optional<harness::Option> json_opt;
  bool quick = false;
};

// What the options resolve to, the same on every rank.
struct Resolved {
  std::vector<mpi::Micro> tests;
  mpi::MicroPlan plan;
  std::optional<std::pair<int, int>> pin;
  std::vector<std::string> notes;
  bool has(mpi::Micro m) const { return std::find(tests.begin(), tests.end(), m) != tests.end(); }
};

std::vector<mpi::Micro> resolve_tests(const MpiBenchOptions& o, int ranks, std::vector<std::string>& notes) {
  std::vector<mpi::Micro> tests;
  for (const std::string& word : o.tests) {
    mpi::Micro m{};
    try {
      m = mpi::parse_micro(word);
    } catch (const Error& e) {
      throw input_error(fmt::format("--tests: {}", e.what()));
    }
    if (mpi::needs_two_ranks(m) && ranks < 2)
      throw input_error(
          fmt::format("--tests {}: {} runs between ranks 0 and 1, and this job has one rank "
                      "(mpirun -n 2 ulibc bench mpi)",
                      word, word));
    if (std::find(tests.begin(), tests.end(), m) == tests.end()) tests.push_back(m);
  }
  if (!o.tests.empty()) return tests;
  for (const mpi::Micro m : mpi::kMicros)
    if (ranks >= 2 || !mpi::needs_two_ranks(m)) tests.push_back(m);
  if (ranks < 2) notes.push_back("p2p and overlap need two ranks: not measured (mpirun -n 2 ulibc bench mpi)");
  return tests;
}

// "4Ki" → 4096, "4M" → 4000000, as STREAM's --size reads them; read here rather than by CLI11 so that a bad size
// is reported once, by rank 0, not by every rank as it parses.
std::uint64_t parse_size(const std::string& given) {
  try {
    return harness::parse_size(given, true);
  } catch (const std::invalid_argument&) {
    throw input_error(fmt::format("--sizes \"{}\": a size in bytes, e.g. 8, 4Ki or 4Mi", given));
  }
}

std::vector<std::size_t> resolve_sizes(const MpiBenchOptions& o) {
  if (o.sizes.empty()) return mpi::default_sizes(o.quick);
  std::vector<std::uint64_t> sizes;
  for (const std::string& word : o.sizes) {
    sizes.push_back(parse_size(word));
    try {
      mpi::message_sizes({sizes.back()});
    } catch (const Error& e) {
      throw input_error(fmt::format("--sizes {}: {}", word, e.what()));
    }
  }
  return mpi::message_sizes(sizes);
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

constexpr std::array<const char*, 2> kThreadLevelNames = {"single", "funneled"};

mpi::ThreadLevel thread_level(const MpiBenchOptions& o) {
  return harness::parse_name<mpi::ThreadLevel>(o.thread_level, kThreadLevelNames, "--thread-level");
}

Resolved resolve(const MpiBenchOptions& o, int ranks) {
  Resolved r;
  r.tests = resolve_tests(o, ranks, r.notes);
  r.plan.sizes = resolve_sizes(o);
  r.plan.reps = o.reps.value_or(o.quick ? kQuickReps : r.plan.reps);
  if (r.plan.reps < 1 || r.plan.reps > kMaxReps)
    throw input_error(fmt::format("--reps {}: from 1 to {}", r.plan.reps, kMaxReps));
  if (o.quick) r.plan.batch_seconds = kQuickBatchSeconds;
  if (!o.pin.empty()) {
    r.pin = parse_pin(o.pin);
    if (ranks < 2)
      throw input_error(fmt::format("--pin {}: pins ranks 0 and 1, and this job has one rank (mpirun -n 2)", o.pin));
  }
  if (!o.save.empty() && thread_level(o) != mpi::ThreadLevel::funneled)
    throw input_error(
        fmt::format("--save with --thread-level {}: the profile is what `ulibc gmres` pays, and it "
                    "runs MPI at funneled",
                    o.thread_level));
  if (!o.save.empty())
    for (const mpi::Micro m : {mpi::Micro::p2p, mpi::Micro::allgather, mpi::Micro::bcast, mpi::Micro::allreduce})
      if (!r.has(m) && (ranks >= 2 || !mpi::needs_two_ranks(m)))
        throw input_error(fmt::format("--save stores p2p, allgather, bcast and allreduce: --tests leaves out {}",
                                      mpi::micro_name(m)));
  return r;
}

// The message buffers of the largest size, for every rank on this machine: at most the gathered ranks' and its own
// for MPI_Allgather, two for a transfer.
void require_buffers(const mpi::MicroPlan& plan, int ranks, int local_ranks) {
  const std::uint64_t largest = plan.sizes.back();
  const std::uint64_t per_rank = harness::saturating_mul(largest, static_cast<std::uint64_t>(ranks) + 2);
  harness::require_memory(harness::saturating_mul(per_rank, static_cast<std::uint64_t>(local_ranks)),
                          fmt::format("the message buffers of {} ranks here ({} each, {} ranks in the job)",
                                      local_ranks, ulibc::format_bytes(largest), ranks));
}

// A pinned rank runs on its processor alone, whatever the policy gave it.
void pin_here(const Topology& topo, int proc, mpi::RankPlacement& place, Mapping& map) {
  const Processor* p = topo.processor(proc);
  if (!p)
    throw input_error(
        fmt::format("--pin: processor {} is not on {} (usable: {})", proc, place.host, topo.usable().to_list()));
  if (!p->usable())
    throw input_error(
        fmt::format("--pin: processor {} on {} is not usable: offline or outside this process's mask "
                    "(usable: {})",
                    proc, place.host, topo.usable().to_list()));
  place.share = CpuSet{proc};
  place.rule = "--pin";
  place.view = topo.restricted_to(place.share);
  map = Mapping::build(topo, Policy::explicit_list({proc}), 1);
}

// Where ranks 0 and 1 ran, and what their processors share: null without two ranks.
ordered_json pair_json(const ordered_json& ranks, const Topology& topo, const Resolved& r, const Policy& policy) {
  if (ranks.size() < 2) return nullptr;
  const ordered_json& r0 = ranks[0];
  const ordered_json& r1 = ranks[1];
  const int a = r0["thread_processors"][0].get<int>(), b = r1["thread_processors"][0].get<int>();
  ordered_json j = {{"processors", {a, b}},
                    {"hosts", {r0["host"], r1["host"]}},
                    {"pinned_by", r.pin ? std::string("--pin") : "policy " + policy.name()}};
  if (a < 0 || b < 0) {
    j["describe"] = "not pinned: the operating system places them";
  } else if (r0["host"] != r1["host"]) {
    j["describe"] = fmt::format("processor {} of {} and processor {} of {}: two machines", a,
                                r0["host"].get<std::string>(), b, r1["host"].get<std::string>());
  } else {
    const mpi::Sharing s = mpi::sharing(topo, a, b);
    ordered_json caches = ordered_json::array();
    for (const Cache& c : s.caches)
      caches.push_back({{"level", c.level}, {"type", c.type}, {"size_bytes", c.size_bytes}});
    j["shared"] = {{"processor", s.same_processor()},
                   {"core", s.same_core()},
                   {"package", s.same_package()},
                   {"node", s.same_node()},
                   {"caches", caches}};
    j["describe"] = s.describe();
  }
  return j;
}

ordered_json point_json(const mpi::Point& p) {
  return {{"bytes", p.bytes},
          {"operations", p.operations},
          {"median", p.figure.value},
          {"unit", p.figure.unit},
          {"reps", p.figure.reps}};
}

ordered_json series_json(const mpi::Series& s) {
  ordered_json j = ordered_json::array();
  for (const mpi::Point& p : s) j.push_back(point_json(p));
  return j;
}

ordered_json overlap_json(const std::vector<mpi::OverlapPoint>& points) {
  ordered_json j = ordered_json::array();
  for (const mpi::OverlapPoint& p : points) {
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

struct Results {
  mpi::Series latency, bandwidth, allgather, allreduce, bcast;
  std::vector<mpi::OverlapPoint> overlap;
};

Results measure(const Resolved& r, MPI_Comm world) {
  Results m;
  for (const mpi::Micro t : r.tests) {
    switch (t) {
      case mpi::Micro::p2p:
        m.latency = mpi::p2p_latency(world, r.plan);
        m.bandwidth = mpi::p2p_bandwidth(world, r.plan);
        break;
      case mpi::Micro::overlap:
        m.overlap = mpi::overlap(world, r.plan);
        break;
      case mpi::Micro::allgather:
        m.allgather = mpi::allgather_time(world, r.plan);
        break;
      case mpi::Micro::allreduce:
        m.allreduce = mpi::allreduce_time(world, r.plan);
        break;
      case mpi::Micro::bcast:
        m.bcast = mpi::bcast_time(world, r.plan);
        break;
    }
  }
  return m;
}

ordered_json record(const Resolved& r, const Results& m, const MpiBenchOptions& o, const Topology& topo,
                    const std::string& key, const ordered_json& ranks, ordered_json pair) {
  ordered_json tests = ordered_json::array();
  for (const mpi::Micro t : r.tests) tests.push_back(mpi::micro_name(t));
  ordered_json j = {{"benchmark", "mpi"},
                    {"command", command_line()},
                    {"date", record_date()},
                    {"machine", machine_json(topo)},
                    {"build", build_json()},
                    {"parameters",
                     {{"tests", tests},
                      {"sizes", r.plan.sizes},
                      {"reps", r.plan.reps},
                      {"batch_seconds", r.plan.batch_seconds},
                      {"window", r.plan.window},
                      {"quick", o.quick},
                      {"thread_level", mpi::provided_thread_level()}}},
                    {"ranks", ranks.size()},
                    {"layout_key", key},
                    {"rank_table", ranks},
                    {"pair", std::move(pair)}};
  if (r.has(mpi::Micro::p2p)) j["p2p"] = {{"latency", series_json(m.latency)}, {"bandwidth", series_json(m.bandwidth)}};
  if (r.has(mpi::Micro::overlap)) j["overlap"] = overlap_json(m.overlap);
  if (r.has(mpi::Micro::allgather)) j["allgather"] = series_json(m.allgather);
  if (r.has(mpi::Micro::allreduce)) j["allreduce"] = series_json(m.allreduce);
  if (r.has(mpi::Micro::bcast)) j["bcast"] = series_json(m.bcast);
  j["notes"] = r.notes;
  j["profile"] = o.save.empty() ? ordered_json(nullptr) : ordered_json(o.save);
  return j;
}

std::string us(double seconds) { return number(seconds * 1e6); }

// One row per size, one column per figure measured.
void print_table(const Resolved& r, const Results& m) {
  std::vector<Table::Column> columns = {{"bytes"}};
  if (r.has(mpi::Micro::p2p)) columns.insert(columns.end(), {{"p2p us"}, {"p2p MB/s"}});
  if (r.has(mpi::Micro::overlap))
    columns.insert(columns.end(), {{"Isend alone MB/s"}, {"Isend loaded MB/s"}, {"overlap %"}});
  if (r.has(mpi::Micro::allgather)) columns.push_back({"allgather us"});
  if (r.has(mpi::Micro::allreduce)) columns.push_back({"allreduce us"});
  if (r.has(mpi::Micro::bcast)) columns.push_back({"bcast us"});
  Table t(columns);
  for (std::size_t i = 0; i < r.plan.sizes.size(); ++i) {
    const double bytes = static_cast<double>(r.plan.sizes[i]);
    std::vector<std::string> row = {std::to_string(r.plan.sizes[i])};
    if (r.has(mpi::Micro::p2p)) {
      row.push_back(us(m.latency[i].figure.value));
      row.push_back(number(m.bandwidth[i].figure.value));
    }
    if (r.has(mpi::Micro::overlap)) {
      const mpi::OverlapPoint& p = m.overlap[i];
      row.push_back(number(bytes / p.alone.value / 1e6));
      row.push_back(number(bytes / p.loaded.value / 1e6));
      row.push_back(fmt::format("{:.0f}", 100 * p.overlap()));
    }
    if (r.has(mpi::Micro::allgather)) row.push_back(us(m.allgather[i].figure.value));
    if (r.has(mpi::Micro::allreduce)) row.push_back(us(m.allreduce[i].figure.value));
    if (r.has(mpi::Micro::bcast)) row.push_back(us(m.bcast[i].figure.value));
    t.add(row);
  }
  t.print(std::cout);
}

void print_summary(const ordered_json& j, const Resolved& r, const Results& m) {
  fmt::print("ulibc bench mpi: {} rank(s), layout \"{}\", MPI thread level {}; medians of {} repetitions\n",
             j["ranks"].get<int>(), j["layout_key"].get<std::string>(),
             j["parameters"]["thread_level"].get<std::string>(), r.plan.reps);
  for (const auto& row : j["rank_table"]) {
    const int proc = row["thread_processors"][0].get<int>();
    fmt::print("  rank {} on {}: {}\n", row["rank"].get<int>(), row["host"].get<std::string>(),
               proc < 0 ? std::string("not pinned") : fmt::format("processor {}", proc));
  }
  if (!j["pair"].is_null())
    fmt::print("ranks 0 and 1 ({}): {}\n", j["pair"]["pinned_by"].get<std::string>(),
               j["pair"]["describe"].get<std::string>());
  std::cout.flush();
  print_table(r, m);
  for (const std::string& note : r.notes) fmt::print("{}\n", note);
  if (r.has(mpi::Micro::overlap))
    fmt::print(
        "overlap: a transfer with a computation of its own length on both cores; 100% hides it entirely, 0% "
        "means the effective bandwidth halves\n");
}

void write_outputs(const ordered_json& j, const MpiBenchOptions& o, const Resolved& r, const Results& m,
                   const mpi::CommProfile* profile) {
  if (profile) mpi::save_profile(o.save, *profile);
  if (o.json_opt->given() && (o.json.empty() || o.json == "-")) {
    print_json(j);
    return;
  }
  print_summary(j, r, m);
  if (profile) fmt::print("profile for \"{}\" saved in {}\n", profile->key, o.save);
  if (o.json_opt->given()) io::write_file(o.json, [&](std::ostream& out) { out << j.dump(2) << '\n'; });
}

void run_bench_mpi(const MpiBenchOptions& o) {
  const MPI_Comm world = MPI_COMM_WORLD;
  const mpi::Place me = mpi::place_in(world);
  Resolved r;
  mpi::together(world, [&] {
    if (me.rank == kRoot) r = resolve(o, me.size);
  });
  r = resolve(o, me.size);  // valid now: the others' copy

  const Topology topo = load_topology("", false, "bench mpi", Detail::full);
  const Policy policy = resolve_policy(o.placement);
  mpi::RankPlacement place = mpi::place_rank(world, topo, policy);
  Mapping map = Mapping::build(place.view, policy, 1);
  mpi::together(world, [&] {
    require_buffers(r.plan, me.size, place.local.ranks);
    if (r.pin && me.rank < 2) pin_here(topo, me.rank == 0 ? r.pin->first : r.pin->second, place, map);
  });
  // The measurements run on this thread alone, no OpenMP team: it is bound itself, so that OpenMP's binding
  // variables, which a team would respect, cannot leave a pinned rank unpinned.
  bind_current_thread(map[0]);
  const ordered_json ranks = mpi::rank_table(world, place, map);
  const std::string key = mpi::layout_key(world);

  const Results m = measure(r, world);
  mpi::together(world, [&] {
    if (me.rank != kRoot) return;
    const ordered_json j = record(r, m, o, topo, key, ranks, pair_json(ranks, topo, r, policy));
    std::optional<mpi::CommProfile> profile;
    if (!o.save.empty()) profile = mpi::profile_of(key, m.latency, m.allgather, m.bcast, m.allreduce);
    write_outputs(j, o, r, m, profile ? &*profile : nullptr);
  });
}

}  // namespace

// `bench` with one subcommand, `mpi`: MPI's own costs, measured across ranks rather than swept over policies.
Command add_bench_mpi_command(harness::Options& parent) {
  auto o = std::make_shared<MpiBenchOptions>();
  harness::Options bench = parent.subcommand("bench", std::string(summary_of("bench")));
  bench.require_subcommand(1, 1);
  harness::Options sub = bench.subcommand("mpi", std::string(summary_of("bench mpi")));
  sub.add("--tests", o->tests,
          "p2p, overlap, allgather, allreduce, bcast (default all; p2p and overlap need two ranks)")
      .list()
      .type_name("LIST");
  sub.add("--sizes", o->sizes,
          "Message sizes in bytes, whole doubles (4Ki = 4096, 4K = 4000); default 8 to 4Mi by powers of 2")
      .list()
      .type_name("LIST");
  sub.add("--reps", o->reps, "Timed repetitions at each size, the median reported (default 20)");
  sub.add("--pin", o->pin,
          "The processors of ranks 0 and 1 (default: each rank's share under the policy, its first "
          "processor)")
      .type_name("A,B");
  add_policy_option(sub, o->placement);
  sub.flag("--quick", o->quick, "Few sizes (8 B to 2 MiB by powers of 64), 5 repetitions, shorter ones");
  sub.add("--thread-level", o->thread_level,
          "The MPI thread level to measure at: funneled (default), what `ulibc gmres` and its OpenMP teams "
          "run at, or single, what a program of one thread gets from MPI_Init (to compare with the OSU "
          "micro-benchmarks)")
      .type_name("single|funneled");
  o->json_opt = add_json_file_option(sub, o->json);
  sub.add("--save", o->save,
          "Store the p2p, allgather, bcast and allreduce medians as the profile `ulibc gmres --mpi-profile "
          "FILE` reads (other layouts' profiles in FILE are kept)")
      .type_name("FILE");
  sub.footer("Runs on this machine, under mpirun -n K or alone as one rank: no --fsroot.");
  return {bench, [o] { run_mpi_command([&] { run_bench_mpi(*o); }, thread_level(*o)); }};
}

}  // namespace ulibc::cli
