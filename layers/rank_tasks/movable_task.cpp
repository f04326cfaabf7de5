// rank_tasks/movable_task.cpp — the program's table of task kinds.
#include "rank_tasks/movable_task.hpp"

#include <fmt/format.h>

#include <string>
#include <vector>

#include "mpi/comm.hpp"
#include "ulibc/error.hpp"

namespace ulibc::rank_tasks {

namespace {

struct Kind {
  detail::Runner run;
  const char* name;
  std::size_t bytes;
};

// A function's static: built on first use, so registrations from any initialiser of the program find it ready.
std::vector<Kind>& table() {
  static std::vector<Kind> kinds;
  return kinds;
}

const Kind& kind_at(std::uint32_t kind) {
  if (kind >= table().size())
    throw input_error(
        fmt::format("moved task: kind {} is not one of this program's {} task kinds", kind, table().size()));
  return table()[kind];
}

}  // namespace

namespace detail {
std::uint32_t register_kind(Runner run, const char* name, std::size_t bytes) {
  table().push_back({run, name, bytes});
  return static_cast<std::uint32_t>(table().size() - 1);
}
}  // namespace detail

void run(const MovedTask& t) {
  const Kind& k = kind_at(t.kind);
  if (t.bytes != k.bytes)
    throw input_error(
        fmt::format("moved task: {} bytes for kind {} ({}), whose callable has {}", t.bytes, t.kind, k.name, k.bytes));
  k.run(t);
}

std::size_t kinds() { return table().size(); }

// FNV-1a over the names, each ended by its zero byte.
std::uint64_t fingerprint() {
  std::uint64_t h = 0xcbf29ce484222325u;
  for (const Kind& k : table())
    for (const char* c = k.name;; ++c) {
      h = (h ^ static_cast<unsigned char>(*c)) * 0x100000001b3u;
      if (*c == '\0') break;
    }
  return h;
}

// One reduction: the largest of each value and of its complement, whose complement is the smallest.
void check_same_kinds(MPI_Comm comm) {
  const std::uint64_t print = fingerprint(), count = kinds();
  std::uint64_t most[4] = {print, count, ~print, ~count};
  mpi::check(MPI_Allreduce(MPI_IN_PLACE, most, 4, MPI_UINT64_T, MPI_MAX, comm), "MPI_Allreduce");
  if (most[0] != ~most[2] || most[1] != ~most[3])
    throw input_error(
        fmt::format("the ranks know different task kinds ({} to {} kinds): they run different programs, "
                    "so a task cannot move between them",
                    ~most[3], most[1]));
}

}  // namespace ulibc::rank_tasks
