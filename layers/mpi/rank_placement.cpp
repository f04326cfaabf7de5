// mpi/rank_placement.cpp — the ranks on one machine, found by MPI, and their shares.
#include "mpi/rank_placement.hpp"

#include <fmt/format.h>

#include <vector>

namespace ulibc::mpi {

namespace {

// The ranks that share this one's memory, by their rank in `comm`.
LocalRank local_rank_of(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  const Place p = place_in(node);
  check(MPI_Comm_free(&node), "MPI_Comm_free");
  return {p.rank, p.size};
}

// Every rank's text, gathered in rank order on every rank.
std::vector<std::string> gather_text(MPI_Comm comm, const std::string& mine) {
  const Place p = place_in(comm);
  int length = static_cast<int>(mine.size());
  std::vector<int> lengths(static_cast<std::size_t>(p.size)), offsets(static_cast<std::size_t>(p.size) + 1, 0);
  check(MPI_Allgather(&length, 1, MPI_INT, lengths.data(), 1, MPI_INT, comm), "MPI_Allgather");
  for (int r = 0; r < p.size; ++r) offsets[r + 1] = offsets[r] + lengths[r];
  std::string all(static_cast<std::size_t>(offsets.back()), '\0');
  check(MPI_Allgatherv(mine.data(), length, MPI_CHAR, all.data(), lengths.data(), offsets.data(), MPI_CHAR, comm),
        "MPI_Allgatherv");
  std::vector<std::string> texts;
  for (int r = 0; r < p.size; ++r) texts.push_back(all.substr(offsets[r], lengths[r]));
  return texts;
}

}  // namespace

RankPlacement place_rank(MPI_Comm comm, const Topology& topo, const Policy& policy) {
  RankPlacement me{place_in(comm), local_rank_of(comm), processor_name(), topo.allowed(), "", topo};
  if (policy.kind() == PolicyKind::none) return me;
  const RankShares shares = rank_shares(topo, policy, me.local.ranks);
  me.share = shares.cpus.at(static_cast<std::size_t>(me.local.rank));
  me.rule = shares.rule_name();
  me.view = topo.restricted_to(me.share);
  return me;
}

std::string layout_key(MPI_Comm comm) {
  const Place me = place_in(comm);
  MPI_Comm node = MPI_COMM_NULL;
  check(MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node), "MPI_Comm_split_type");
  int leader = place_in(node).rank == 0 ? 1 : 0;
  check(MPI_Comm_free(&node), "MPI_Comm_free");
  check(MPI_Allreduce(MPI_IN_PLACE, &leader, 1, MPI_INT, MPI_SUM, comm), "MPI_Allreduce");
  std::string host = processor_name();
  int length = static_cast<int>(host.size());
  check(MPI_Bcast(&length, 1, MPI_INT, 0, comm), "MPI_Bcast");
  host.resize(static_cast<std::size_t>(length));
  check(MPI_Bcast(host.data(), length, MPI_CHAR, 0, comm), "MPI_Bcast");
  return fmt::format("{}/{} ranks/{} hosts", host, me.size, leader);
}

nlohmann::ordered_json rank_table(MPI_Comm comm, const RankPlacement& me, const Mapping& threads,
                                  const nlohmann::ordered_json& extra) {
  std::vector<int> procs;
  for (const Placement& p : threads.threads()) procs.push_back(p.proc);
  nlohmann::ordered_json row = {{"rank", me.world.rank},
                                {"host", me.host},
                                {"local_rank", me.local.rank},
                                {"local_ranks", me.local.ranks},
                                {"processors", me.share.to_list()},
                                {"rule", me.rule},
                                {"threads", threads.size()},
                                {"thread_processors", procs}};
  row.update(extra);
  nlohmann::ordered_json table = nlohmann::ordered_json::array();
  for (const std::string& text : gather_text(comm, row.dump())) table.push_back(nlohmann::ordered_json::parse(text));
  return table;
}

}  // namespace ulibc::mpi
