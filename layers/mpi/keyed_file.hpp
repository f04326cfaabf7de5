// mpi/keyed_file.hpp — a JSON file of records, each stored under a string key, so that one file serves many runs:
// the MPI profile (comm_profile.hpp, one record per machine and rank layout) and the solver's remembered tuning
// (gmres/tuning_file.hpp, one per matrix and layout).
//
// The file is {"<list>": [{"key": …, …}, …]}; a record's other fields are its owner's business.
#pragma once
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

namespace ulibc::mpi {

// A kind of keyed file: what messages call it, and the name of its list.
struct KeyedFile {
  std::string what;  // "an MPI profile"
  std::string list;  // "profiles"
};

// The record stored under `key` in a file's text; nullopt when there is none. Error(input) naming `source` for text
// that is not such a file (not JSON, no list of that name, a record that is not an object with a string "key").
std::optional<nlohmann::json> find_record(const std::string& text, const std::string& source, const KeyedFile& kind,
                                          const std::string& key);

// Stores `record` (an object with a string "key") in the file at `path`, replacing a record of the same key and
// keeping the others; creates the file. Error(input) for an existing file that is not such a file (it is left as
// it was), Error(system) when it cannot be written.
void store_record(const std::string& path, const KeyedFile& kind, const nlohmann::json& record);

// A whole file's text; Error(input) naming it when it cannot be opened.
std::string read_text_file(const std::string& path, const KeyedFile& kind);

}  // namespace ulibc::mpi
