// gmres/tuning_file.cpp — the tuning file's records: read, checked, written.
#include "gmres/tuning_file.hpp"

#include <fmt/format.h>

#include <filesystem>

#include "mpi/keyed_file.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {

const mpi::KeyedFile kTuningFile{"a GMRES tuning file", "tuned"};
constexpr int kMaxRestart = 1 << 20;  // beyond any basis that fits in memory: a broken file

// Field `name` of the record: a word other than "auto".
std::string word(const nlohmann::json& r, const char* name, const std::string& source) {
  if (!r.contains(name) || !r.at(name).is_string() || r.at(name).get<std::string>() == "auto" ||
      r.at(name).get<std::string>().empty())
    throw input_error(
        fmt::format("{}: the record for this matrix needs \"{}\" as a word other than auto", source, name));
  return r.at(name).get<std::string>();
}

}  // namespace

std::optional<Tuned> parse_tuned(const std::string& text, const std::string& source, const std::string& key) {
  const std::optional<nlohmann::json> r = mpi::find_record(text, source, kTuningFile, key);
  if (!r) return std::nullopt;
  if (!r->contains("restart") || !r->at("restart").is_number_integer() || r->at("restart").get<long long>() < 1 ||
      r->at("restart").get<long long>() > kMaxRestart)
    throw input_error(fmt::format("{}: the record for this matrix needs \"restart\" as a whole number from 1 to {}",
                                  source, kMaxRestart));
  Tuned t;
  t.knobs = {std::to_string(r->at("restart").get<long long>()), word(*r, "orth", source), word(*r, "precond", source),
             word(*r, "spmv", source), word(*r, "comm", source)};
  t.ilu_blocks = word(*r, "ilu_blocks", source);
  return t;
}

std::optional<std::string> tuning_file_text(const std::string& path) {
  if (!std::filesystem::exists(path)) return std::nullopt;
  return mpi::read_text_file(path, kTuningFile);
}

std::optional<Tuned> load_tuned(const std::string& path, const std::string& key) {
  const std::optional<std::string> text = tuning_file_text(path);
  return text ? parse_tuned(*text, path, key) : std::nullopt;
}

void save_tuned(const std::string& path, const std::string& key, const Tuned& t) {
  mpi::store_record(path, kTuningFile,
                    {{"key", key},
                     {"restart", std::stoi(t.knobs.restart)},
                     {"orth", t.knobs.orth},
                     {"precond", t.knobs.precond},
                     {"ilu_blocks", t.ilu_blocks},
                     {"spmv", t.knobs.spmv},
                     {"comm", t.knobs.comm}});
}

}  // namespace ulibc::gmres
