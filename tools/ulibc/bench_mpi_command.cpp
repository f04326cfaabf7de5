// bench_mpi_command.cpp — `[mpirun -n K] ulibc bench mpi`: MPI's basic costs by message size (mpi_costs/survey.hpp).
//
// A front end over kernels/mpi_costs and layers/mpi: it places each rank on one processor (its share's first under
// the policy, or --pin's for ranks 0 and 1), takes the survey the options ask for, and reports on rank 0: a table
// or --json's record (every repetition, the rank table, the machine), and with --save the profile
// `ulibc gmres --mpi-profile` reads. Options are checked on rank 0 and a bad one fails every rank with one message
// (mpi::together).
#include <fmt/format.h>

#include <array>
#include <iostream>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>

#include "bench_report.hpp"
#include "catalog.hpp"
#include "commands.hpp"
#include "harness/named.hpp"
#include "io/file_io.hpp"
#include "mpi/comm.hpp"
#include "mpi/comm_profile.hpp"
#include "mpi/rank_placement.hpp"
#include "mpi_command.hpp"
#include "mpi_costs/survey.hpp"
#include "table.hpp"
#include "ulibc/affinity.hpp"
#include "ulibc/error.hpp"

namespace ulibc::cli {

namespace {

using nlohmann::ordered_json;

struct MpiBenchOptions {
  PlacementOptions placement;
  mpi::SurveyRequest survey;
  std::string json, save;
  std::string thread_level = "funneled";
  std::optional<harness::Option> json_opt;
};

constexpr std::array<const char*, 2> kThreadLevelNames = {"single", "funneled"};

mpi::ThreadLevel thread_level(const MpiBenchOptions& o) {
  return harness::parse_name<mpi::ThreadLevel>(o.thread_level, kThreadLevelNames, "--thread-level");
}

// Rank 0 checks the options; Error(input) naming the one that is wrong.
mpi::Survey resolve(const MpiBenchOptions& o, int ranks) {
  if (!o.save.empty() && thread_level(o) != mpi::ThreadLevel::funneled)
    throw input_error(
        fmt::format("--save with --thread-level {}: the profile is what `ulibc gmres` pays, and it "
                    "runs MPI at funneled",
                    o.thread_level));
  mpi::SurveyRequest request = o.survey;
  request.profile = !o.save.empty();
  return mpi::resolve_survey(request, ranks);
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

ordered_json record(const mpi::Survey& r, const mpi::SurveyResults& m, const MpiBenchOptions& o, const Topology& topo,
                    const std::string& key, const ordered_json& ranks, ordered_json pair) {
  ordered_json parameters = mpi::plan_json(r);
  parameters["quick"] = o.survey.quick;
  parameters["thread_level"] = mpi::provided_thread_level();
  ordered_json j = {{"benchmark", "mpi"},    {"command", command_line()},
                    {"date", record_date()}, {"machine", machine_json(topo)},
                    {"build", build_json()}, {"parameters", std::move(parameters)},
                    {"ranks", ranks.size()}, {"layout_key", key},
                    {"rank_table", ranks},   {"pair", std::move(pair)}};
  j.update(mpi::results_json(r, m));
  j["notes"] = r.notes;
  j["profile"] = o.save.empty() ? ordered_json(nullptr) : ordered_json(o.save);
  return j;
}

std::string us(double seconds) { return number(seconds * 1e6); }

// One row per size, one column per figure measured.
void print_table(const mpi::Survey& r, const mpi::SurveyResults& m) {
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

void print_summary(const ordered_json& j, const mpi::Survey& r, const mpi::SurveyResults& m) {
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

void write_outputs(const ordered_json& j, const MpiBenchOptions& o, const mpi::Survey& r, const mpi::SurveyResults& m,
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
  mpi::Survey r;
  mpi::together(world, [&] {
    if (me.rank == kRoot) r = resolve(o, me.size);
  });
  r = resolve(o, me.size);  // valid now: the others' copy

  const Topology topo = load_topology("", false, "bench mpi", Detail::full);
  const Policy policy = resolve_policy(o.placement);
  mpi::RankPlacement place = mpi::place_rank(world, topo, policy);
  Mapping map = Mapping::build(place.view, policy, 1);
  mpi::together(world, [&] {
    mpi::require_buffers(r, me.size, place.local.ranks);
    if (r.pin && me.rank < 2) pin_here(topo, me.rank == 0 ? r.pin->first : r.pin->second, place, map);
  });
  // The measurements run on this thread alone, no OpenMP team: it is bound itself, so that OpenMP's binding
  // variables, which a team would respect, cannot leave a pinned rank unpinned.
  bind_current_thread(map[0]);
  const ordered_json ranks = mpi::rank_table(world, place, map);
  const std::string key = mpi::layout_key(world);

  const mpi::SurveyResults m = mpi::take_survey(world, r);
  mpi::together(world, [&] {
    if (me.rank != kRoot) return;
    const std::string pinned_by = r.pin ? std::string("--pin") : "policy " + policy.name();
    const ordered_json j = record(r, m, o, topo, key, ranks, mpi::pair_json(ranks, topo, pinned_by));
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
  sub.add("--tests", o->survey.tests,
          "p2p, overlap, allgather, allreduce, bcast (default all; p2p and overlap need two ranks)")
      .list()
      .type_name("LIST");
  sub.add("--sizes", o->survey.sizes,
          "Message sizes in bytes, whole doubles (4Ki = 4096, 4K = 4000); default 8 to 4Mi by powers of 2")
      .list()
      .type_name("LIST");
  sub.add("--reps", o->survey.reps, "Timed repetitions at each size, the median reported (default 20)");
  sub.add("--pin", o->survey.pin,
          "The processors of ranks 0 and 1 (default: each rank's share under the policy, its first "
          "processor)")
      .type_name("A,B");
  add_policy_option(sub, o->placement);
  sub.flag("--quick", o->survey.quick, "Few sizes (8 B to 2 MiB by powers of 64), 5 repetitions, shorter ones");
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
