// mpi/comm_profile.cpp — the profile file: read, write, and read between measured sizes.
#include "mpi/comm_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <nlohmann/json.hpp>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::mpi {

double Curve::at(double b) const {
  if (bytes.empty()) return 0;
  if (b <= bytes.front()) return seconds.front();
  if (b >= bytes.back()) return seconds.back() * b / bytes.back();
  const std::size_t k = static_cast<std::size_t>(std::upper_bound(bytes.begin(), bytes.end(), b) - bytes.begin());
  const double f = std::log(b / bytes[k - 1]) / std::log(bytes[k] / bytes[k - 1]);
  return std::exp(std::log(seconds[k - 1]) + f * (std::log(seconds[k]) - std::log(seconds[k - 1])));
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

namespace {

nlohmann::json to_json(const Curve& c) { return {{"bytes", c.bytes}, {"seconds", c.seconds}}; }

Curve curve_from(const nlohmann::json& j, const std::string& name, const std::string& path) {
  Curve c;
  if (!j.contains(name)) return c;
  const auto& o = j.at(name);
  c.bytes = o.at("bytes").get<std::vector<double>>();
  c.seconds = o.at("seconds").get<std::vector<double>>();
  const bool sizes_ok = std::is_sorted(c.bytes.begin(), c.bytes.end()) &&
                        std::adjacent_find(c.bytes.begin(), c.bytes.end()) == c.bytes.end();
  const bool positive = std::all_of(c.bytes.begin(), c.bytes.end(), [](double v) { return v > 0; }) &&
                        std::all_of(c.seconds.begin(), c.seconds.end(), [](double v) { return v > 0; });
  if (c.bytes.size() != c.seconds.size() || !sizes_ok || !positive)
    throw input_error(
        fmt::format("{}: \"{}\" needs as many positive seconds as strictly ascending positive sizes", path, name));
  return c;
}

nlohmann::json read_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) return nlohmann::json::object();
  try {
    const nlohmann::json j = nlohmann::json::parse(in);
    if (!j.is_object() || !j.contains("profiles") || !j.at("profiles").is_array())
      throw input_error(fmt::format("{}: not an MPI profile (no \"profiles\" list)", path));
    return j;
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: not an MPI profile: {}", path, e.what()));
  }
}

}  // namespace

std::optional<CommProfile> load_profile(const std::string& path, const std::string& key) {
  std::ifstream probe(path);
  if (!probe) throw input_error(fmt::format("{}: cannot open the MPI profile", path));
  const nlohmann::json file = read_file(path);
  try {
    for (const auto& p : file.at("profiles")) {
      if (p.at("key").get<std::string>() != key) continue;
      return CommProfile{key, curve_from(p, "p2p", path), curve_from(p, "allgather", path),
                         curve_from(p, "bcast", path), curve_from(p, "allreduce", path)};
    }
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: not an MPI profile: {}", path, e.what()));
  }
  return std::nullopt;
}

void save_profile(const std::string& path, const CommProfile& p) {
  nlohmann::json file = read_file(path);
  if (!file.contains("profiles")) file["profiles"] = nlohmann::json::array();
  auto& list = file["profiles"];
  list.erase(
      std::remove_if(list.begin(), list.end(), [&](const nlohmann::json& q) { return q.value("key", "") == p.key; }),
      list.end());
  list.push_back({{"key", p.key},
                  {"p2p", to_json(p.p2p)},
                  {"allgather", to_json(p.allgather)},
                  {"bcast", to_json(p.bcast)},
                  {"allreduce", to_json(p.allreduce)}});
  std::ofstream out(path);
  out << file.dump(1) << '\n';
  if (!out) throw system_error(fmt::format("{}: cannot write the MPI profile", path));
}

}  // namespace ulibc::mpi
