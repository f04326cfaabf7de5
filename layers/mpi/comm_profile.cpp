// mpi/comm_profile.cpp — the profile file: read, write, and read between measured sizes.
#include "mpi/comm_profile.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

#include "mpi/keyed_file.hpp"
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

namespace {

// Beyond any measurement: a size or time past these is a broken file, and reading one would overflow.
constexpr double kMaxBytes = 0x1p48;
constexpr double kMaxSeconds = 1e6;

nlohmann::json to_json(const Curve& c) { return {{"bytes", c.bytes}, {"seconds", c.seconds}}; }

Curve curve_from(const nlohmann::json& j, const std::string& name, const std::string& path) {
  Curve c;
  if (!j.contains(name)) return c;
  const auto& o = j.at(name);
  c.bytes = o.at("bytes").get<std::vector<double>>();
  c.seconds = o.at("seconds").get<std::vector<double>>();
  const bool sizes_ok = std::is_sorted(c.bytes.begin(), c.bytes.end()) &&
                        std::adjacent_find(c.bytes.begin(), c.bytes.end()) == c.bytes.end();
  const auto in = [](double lo, double hi) { return [=](double v) { return v > lo && v <= hi; }; };
  const bool positive = std::all_of(c.bytes.begin(), c.bytes.end(), in(0, kMaxBytes)) &&
                        std::all_of(c.seconds.begin(), c.seconds.end(), in(0, kMaxSeconds));
  if (c.bytes.size() != c.seconds.size() || !sizes_ok || !positive)
    throw input_error(
        fmt::format("{}: \"{}\" needs as many seconds (0 to {:g}) as strictly ascending sizes (0 to {:g} bytes)", path,
                    name, kMaxSeconds, kMaxBytes));
  return c;
}

const KeyedFile kProfileFile{"an MPI profile", "profiles"};

}  // namespace

std::optional<CommProfile> parse_profile(const std::string& text, const std::string& source, const std::string& key) {
  const std::optional<nlohmann::json> p = find_record(text, source, kProfileFile, key);
  if (!p) return std::nullopt;
  try {
    return CommProfile{key, curve_from(*p, "p2p", source), curve_from(*p, "allgather", source),
                       curve_from(*p, "bcast", source), curve_from(*p, "allreduce", source)};
  } catch (const nlohmann::json::exception& e) {
    throw input_error(fmt::format("{}: not an MPI profile: {}", source, e.what()));
  }
}

std::optional<CommProfile> load_profile(const std::string& path, const std::string& key) {
  return parse_profile(read_text_file(path, kProfileFile), path, key);
}

void save_profile(const std::string& path, const CommProfile& p) {
  store_record(path, kProfileFile,
               {{"key", p.key},
                {"p2p", to_json(p.p2p)},
                {"allgather", to_json(p.allgather)},
                {"bcast", to_json(p.bcast)},
                {"allreduce", to_json(p.allreduce)}});
}

}  // namespace ulibc::mpi
