// gmres/tuning_file.hpp — what a tuned solve settled on, kept in a file for the next solve of the same matrix on the
// same ranks and threads: FFTW's "wisdom", for GMRES.
//
// Katagiri and Kuroda's conclusion (§3.3): measurements made once should be fed back instead of repeated. On a
// small matrix the trials cost as much as the solve they tune (docs/PERFORMANCE.md); a program that solves the same
// matrix again (a time step, a parameter sweep) pays them once. `ulibc gmres --tuning-file FILE` reads the choices
// stored for its key (gmres.hpp's tuning_key: the matrix's entries, the rank layout, the threads) and otherwise tunes
// and stores them. The file is a keyed file (mpi/keyed_file.hpp) of "tuned" records:
//   {"key": …, "restart": 60, "orth": "cgs2", "precond": "bilu0", "ilu_blocks": "rank", "spmv": "csr",
//    "comm": "isend"}
// This part reads and writes the file and needs no MPI (the fuzz target builds it alone); gmres.hpp turns a record
// into the solver's options.
#pragma once
#include <optional>
#include <string>

namespace ulibc::gmres {

// The knobs as a command line words them: "auto" or a value's name ("cgs2", "bilu0"), the restart a number.
struct KnobWords {
  std::string restart = "auto", orth = "auto", precond = "auto", spmv = "auto", comm = "auto";
  bool operator==(const KnobWords&) const = default;
};

// One stored record: every knob a value's name (none "auto"), and block ILU(0)'s blocks ("rank" or "thread").
struct Tuned {
  KnobWords knobs;
  std::string ilu_blocks = "rank";
};

// The record stored under `key`; nullopt when there is none. Error(input) naming `source` for a file that is not a
// tuning file or a record whose fields are missing, of the wrong type or "auto" (the words themselves are checked
// when the solver takes them).
std::optional<Tuned> parse_tuned(const std::string& text, const std::string& source, const std::string& key);
// The text of the file at `path`; nullopt when there is no such file yet.
std::optional<std::string> tuning_file_text(const std::string& path);
// parse_tuned of that text; nullopt also when there is no such file yet.
std::optional<Tuned> load_tuned(const std::string& path, const std::string& key);
// Stores `t` under `key`, replacing a record of that key and keeping the others; creates the file.
void save_tuned(const std::string& path, const std::string& key, const Tuned& t);

}  // namespace ulibc::gmres
