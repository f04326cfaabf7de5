// gmres/recall.cpp — a tuned solve remembered (tuning_file.hpp): the key it is stored under, its knobs as words,
// those words set on a later solve's options, and the file read and written for the ranks of a job.
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <cstdint>
#include <optional>
#include <string>

#include "gmres/gmres.hpp"
#include "mpi/comm.hpp"
#include "mpi/rank_placement.hpp"
#include "ulibc/error.hpp"

namespace ulibc::gmres {

namespace {

constexpr std::uint64_t kFnvStart = 0xcbf29ce484222325ULL;
constexpr int kTuningRank = 0;  // the rank that reads and writes the tuning file

// FNV-1a, 64 bits, over the bytes of `v`: a fingerprint of the rows, not a defence against a chosen collision.
template <class T>
void fingerprint(std::uint64_t& h, const T& v) {
  const auto* bytes = reinterpret_cast<const unsigned char*>(&v);
  for (std::size_t k = 0; k < sizeof v; ++k) h = (h ^ bytes[k]) * 0x100000001b3ULL;
}

// This rank's rows: each row's length, then its entries' global columns and values.
std::uint64_t fingerprint_of_rows(const DistributedMatrix& a) {
  std::uint64_t h = kFnvStart;
  const LocalRows &d = a.diagonal(), &o = a.outside();
  for (Index i = 0; i < a.rows(); ++i) {
    fingerprint(h, d.row_start[i + 1] - d.row_start[i] + o.row_start[i + 1] - o.row_start[i]);
    for (Index k = d.row_start[i]; k < d.row_start[i + 1]; ++k) {
      fingerprint(h, a.own().begin + d.columns[k]);
      fingerprint(h, d.values[k]);
    }
    for (Index k = o.row_start[i]; k < o.row_start[i + 1]; ++k) {
      fingerprint(h, a.ghosts()[o.columns[k]]);
      fingerprint(h, o.values[k]);
    }
  }
  return h;
}

// One value per rank, in rank order, on every rank.
template <class T>
std::vector<T> from_every_rank(T mine, MPI_Datatype type, MPI_Comm comm) {
  std::vector<T> all(static_cast<std::size_t>(mpi::place_in(comm).size));
  mpi::check(MPI_Allgather(&mine, 1, type, all.data(), 1, type, comm), "MPI_Allgather");
  return all;
}

}  // namespace

std::string tuning_key(const DistributedMatrix& a) {
  std::uint64_t h = kFnvStart;
  for (const std::uint64_t rows : from_every_rank(fingerprint_of_rows(a), MPI_UINT64_T, a.comm())) fingerprint(h, rows);
  const std::vector<int> threads = from_every_rank(a.team().threads(), MPI_INT, a.comm());
  return fmt::format("{} rows, {} entries, rows {:016x}; {}; threads {}", a.global_rows(), a.global_nonzeros(), h,
                     mpi::layout_key(a.comm()), fmt::join(threads, ","));
}

Tuned tuned_of(const Result& r) {
  return {
      {std::to_string(r.restart), orth_name(r.orth), precond_name(r.precond), kernel_name(r.kernel), comm_name(r.comm)},
      ilu_blocks_name(r.ilu_blocks)};
}

std::vector<Decision> recall(Options& o, const Tuned& t, const std::string& source) {
  Options stored;
  try {
    set_knobs(stored, t.knobs);
    stored.precond_options.ilu_blocks = parse_ilu_blocks(t.ilu_blocks);
  } catch (const Error& e) {
    throw input_error(fmt::format("{}: the record for this matrix: {}", source, e.what()));
  }
  const std::string why =
      fmt::format("remembered in {} from a tuned solve of this matrix on these ranks and threads", source);
  std::vector<Decision> said;
  const auto take = [&](auto& knob, const auto& value, const char* name, const std::string& word) {
    if (knob || !value) return;
    knob = value;
    said.push_back({name, word, why});
  };
  if (!o.precond) o.precond_options.ilu_blocks = stored.precond_options.ilu_blocks;
  take(o.restart, stored.restart, "restart", t.knobs.restart);
  take(o.orth, stored.orth, "orth", t.knobs.orth);
  take(o.precond, stored.precond, "precond", t.knobs.precond);
  take(o.kernel, stored.kernel, "spmv", t.knobs.spmv);
  take(o.comm, stored.comm, "comm", t.knobs.comm);
  return said;
}

Remembered recall_tuning(const std::string& file, const DistributedMatrix& a, Options& s) {
  Remembered m;
  if (file.empty()) return m;
  m.file = file;
  m.key = tuning_key(a);
  std::optional<std::string> text;
  mpi::together(a.comm(), [&] {
    if (a.rank() == kTuningRank) text = tuning_file_text(file);
  });
  text = mpi::broadcast(text, kTuningRank, a.comm());
  mpi::together(a.comm(), [&] {
    if (!text) return;
    if (const std::optional<Tuned> t = parse_tuned(*text, file, m.key)) {
      m.found = true;
      m.decisions = recall(s, *t, file);
    }
  });
  return m;
}

void remember_tuning(const Remembered& m, const DistributedMatrix& a, const Result& r, bool converged, bool all_auto) {
  if (m.key.empty() || m.found || !converged || !all_auto) return;
  mpi::together(a.comm(), [&] {
    if (a.rank() == kTuningRank) save_tuned(m.file, m.key, tuned_of(r));
  });
}

}  // namespace ulibc::gmres
