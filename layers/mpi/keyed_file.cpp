// mpi/keyed_file.cpp — reading, checking and rewriting a file of keyed records.
#include "mpi/keyed_file.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

#include "io/file_io.hpp"
#include "ulibc/error.hpp"

namespace ulibc::mpi {

namespace {

// The text as JSON, its shape checked.
nlohmann::json parse_file(const std::string& text, const std::string& source, const KeyedFile& kind) {
  const auto refuse = [&](const std::string& why) {
    return input_error(
        fmt::format("{}: not {} ({}: a \"{}\" list of objects with a \"key\")", source, kind.what, why, kind.list));
  };
  nlohmann::json j;
  try {
    j = nlohmann::json::parse(text);
  } catch (const nlohmann::json::exception& e) {
    throw refuse(e.what());
  }
  if (!j.is_object() || !j.contains(kind.list) || !j.at(kind.list).is_array()) throw refuse("no such list");
  for (const nlohmann::json& r : j.at(kind.list))
    if (!r.is_object() || !r.contains("key") || !r.at("key").is_string()) throw refuse("a record without a key");
  return j;
}

}  // namespace

std::string read_text_file(const std::string& path, const KeyedFile& kind) {
  std::ifstream in(path);
  if (!in) throw input_error(fmt::format("{}: cannot open {}", path, kind.what));
  return {std::istreambuf_iterator<char>(in), {}};
}

std::optional<nlohmann::json> find_record(const std::string& text, const std::string& source, const KeyedFile& kind,
                                          const std::string& key) {
  const nlohmann::json file = parse_file(text, source, kind);
  for (const nlohmann::json& r : file.at(kind.list))
    if (r.at("key").get<std::string>() == key) return r;
  return std::nullopt;
}

void store_record(const std::string& path, const KeyedFile& kind, const nlohmann::json& record) {
  nlohmann::json file = std::filesystem::exists(path) ? parse_file(read_text_file(path, kind), path, kind)
                                                      : nlohmann::json{{kind.list, nlohmann::json::array()}};
  auto& list = file[kind.list];
  list.erase(std::remove_if(list.begin(), list.end(),
                            [&](const nlohmann::json& r) { return r.at("key") == record.at("key"); }),
             list.end());
  list.push_back(record);
  io::write_file(path, [&](std::ostream& out) { out << file.dump(1) << '\n'; });
}

}  // namespace ulibc::mpi
