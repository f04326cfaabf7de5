// mpi_costs/mpi_costs.cpp — the timing loops of mpi_costs/mpi_costs.hpp, OSU's definitions, each repetition kept.
#include "mpi_costs/mpi_costs.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <thread>
#include <utility>

#include "epcc/epcc.hpp"
#include "harness/named.hpp"
#include "harness/stats.hpp"
#include "mpi/comm.hpp"
#include "ulibc/error.hpp"
#include "ulibc/process_memory.hpp"

namespace ulibc::mpi {

namespace {

constexpr std::array<const char*, 5> kMicroNames = {"p2p", "overlap", "allgather", "allreduce", "bcast"};

using harness::Better;
using harness::Summary;

// OSU's most iterations (osu_latency's 10000 small messages), rounded up: a repetition of the quickest calls
// stops here, long before its time, rather than stretch the run.
constexpr long kMaxOperations = 1 << 14;
constexpr int kTag = 1;
constexpr int kAnswerTag = 2;
constexpr std::chrono::milliseconds kIdlePoll{1};

void barrier(MPI_Comm comm) { check(MPI_Barrier(comm), "MPI_Barrier"); }

int count_of(std::size_t bytes) { return static_cast<int>(bytes); }

// The communicator of ranks 0 and 1, MPI_COMM_NULL on the others.
class Pair {
 public:
  explicit Pair(MPI_Comm comm) {
    const Place p = place_in(comm);
    check(MPI_Comm_split(comm, p.rank < 2 ? 0 : MPI_UNDEFINED, p.rank, &comm_), "MPI_Comm_split");
    if (comm_ != MPI_COMM_NULL && place_in(comm_).size < 2) {
      MPI_Comm_free(&comm_);
      throw input_error("p2p and overlap need two ranks (mpirun -n 2 or more)");
    }
  }
  ~Pair() {
    if (comm_ != MPI_COMM_NULL) MPI_Comm_free(&comm_);
  }
  Pair(const Pair&) = delete;
  Pair& operator=(const Pair&) = delete;
  MPI_Comm comm() const { return comm_; }
  bool here() const { return comm_ != MPI_COMM_NULL; }
  int rank() const { return place_in(comm_).rank; }

 private:
  MPI_Comm comm_ = MPI_COMM_NULL;
};

// Runs work(pair, rank in the pair) on ranks 0 and 1 while the others wait for them without spinning: a rank
// polling inside MPI would take a core, and with more ranks than cores the pair's own.
template <class Result, class Work>
Result on_pair(MPI_Comm comm, Work work) {
  const Pair pair(comm);
  Result result;
  if (pair.here()) result = work(pair.comm(), pair.rank());
  MPI_Request done = MPI_REQUEST_NULL;
  check(MPI_Ibarrier(comm, &done), "MPI_Ibarrier");
  for (int finished = pair.here(); !finished;) {
    check(MPI_Test(&done, &finished, MPI_STATUS_IGNORE), "MPI_Test");
    if (!finished) std::this_thread::sleep_for(kIdlePoll);
  }
  check(MPI_Wait(&done, MPI_STATUS_IGNORE), "MPI_Wait");
  return result;
}

// How many operations make a repetition of about `target` seconds: doubling from one until the slowest rank's run
// takes a quarter of that twice in a row, then scaled. `run(n)` performs n operations and returns this rank's
// seconds for them; every rank agrees on the count. The runs are also the warm-up (OSU's skipped iterations): the
// first operations of a size pay for connections and cold caches, and a run preempted once would otherwise stop
// the doubling early and leave each repetition a handful of operations.
template <class Run>
long operations_per_rep(MPI_Comm comm, double target, Run run) {
  run(1);
  for (long n = 1;; n *= 2) {
    double t = max(run(n), comm);
    if (t >= target / 4 && n < kMaxOperations) t = std::min(t, max(run(n), comm));
    if (t >= target / 4 || n >= kMaxOperations)
      return std::clamp(std::lround(static_cast<double>(n) * target / std::max(t, 1e-9)), 1L, kMaxOperations);
  }
}

harness::Measurement figure(const char* name, const char* unit, Better better, std::vector<double> reps) {
  return harness::measurement_of(name, unit, better, std::move(reps), Summary::median);
}

// osu_latency's round trips: rank 0 sends and waits for the answer of the same size, rank 1 the reverse.
double round_trips(MPI_Comm pair, int me, std::vector<char>& out, std::vector<char>& in, std::size_t bytes, long n) {
  const int peer = 1 - me;
  barrier(pair);
  const double start = MPI_Wtime();
  for (long i = 0; i < n; ++i) {
    if (me == 0) {
      check(MPI_Send(out.data(), count_of(bytes), MPI_CHAR, peer, kTag, pair), "MPI_Send");
      check(MPI_Recv(in.data(), count_of(bytes), MPI_CHAR, peer, kTag, pair, MPI_STATUS_IGNORE), "MPI_Recv");
    } else {
      check(MPI_Recv(in.data(), count_of(bytes), MPI_CHAR, peer, kTag, pair, MPI_STATUS_IGNORE), "MPI_Recv");
      check(MPI_Send(out.data(), count_of(bytes), MPI_CHAR, peer, kTag, pair), "MPI_Send");
    }
  }
  return MPI_Wtime() - start;
}

// osu_bw's windows: rank 0 posts `window` sends of one buffer and waits for them and for a one-byte answer;
// rank 1 posts as many receives into one buffer, waits, and answers.
double windows(MPI_Comm pair, int me, std::vector<char>& out, std::vector<char>& in, std::size_t bytes, int window,
               long n) {
  const int peer = 1 - me;
  std::vector<MPI_Request> requests(static_cast<std::size_t>(window));
  barrier(pair);
  const double start = MPI_Wtime();
  for (long i = 0; i < n; ++i) {
    for (MPI_Request& r : requests)
      check(me == 0 ? MPI_Isend(out.data(), count_of(bytes), MPI_CHAR, peer, kTag, pair, &r)
                    : MPI_Irecv(in.data(), count_of(bytes), MPI_CHAR, peer, kTag, pair, &r),
            me == 0 ? "MPI_Isend" : "MPI_Irecv");
    check(MPI_Waitall(window, requests.data(), MPI_STATUSES_IGNORE), "MPI_Waitall");
    if (me == 0)
      check(MPI_Recv(in.data(), 1, MPI_CHAR, peer, kAnswerTag, pair, MPI_STATUS_IGNORE), "MPI_Recv");
    else
      check(MPI_Send(out.data(), 1, MPI_CHAR, peer, kAnswerTag, pair), "MPI_Send");
  }
  return MPI_Wtime() - start;
}

// One transfer per barrier, rank 0 to rank 1, with `delay` of computation between the post and the wait: the
// summed seconds from post to completion. The barrier lines the ranks up, as a solver's step would.
double transfers(MPI_Comm pair, int me, std::vector<char>& buffer, std::size_t bytes, long n, std::int64_t delay) {
  double total = 0;
  for (long i = 0; i < n; ++i) {
    barrier(pair);
    const double start = MPI_Wtime();
    MPI_Request r = MPI_REQUEST_NULL;
    check(me == 0 ? MPI_Isend(buffer.data(), count_of(bytes), MPI_CHAR, 1, kTag, pair, &r)
                  : MPI_Irecv(buffer.data(), count_of(bytes), MPI_CHAR, 0, kTag, pair, &r),
          me == 0 ? "MPI_Isend" : "MPI_Irecv");
    if (delay > 0) epcc::delay(delay);
    check(MPI_Wait(&r, MPI_STATUS_IGNORE), "MPI_Wait");
    total += MPI_Wtime() - start;
  }
  return total;
}

// osu_allgather's loop: each call timed alone, a barrier after it; this rank's summed seconds.
template <class Call>
double timed_calls(MPI_Comm comm, long n, Call call) {
  barrier(comm);
  double total = 0;
  for (long i = 0; i < n; ++i) {
    const double start = MPI_Wtime();
    call();
    total += MPI_Wtime() - start;
    barrier(comm);
  }
  return total;
}

// A collective at every size: seconds per call, averaged over the ranks (OSU's "Avg Latency").
template <class Call>
Series collective(MPI_Comm comm, const MicroPlan& plan, const char* name, Call call) {
  const int ranks = place_in(comm).size;
  Series series;
  for (const std::size_t bytes : plan.sizes) {
    auto once = [&] { call(bytes); };
    const long n = operations_per_rep(comm, plan.batch_seconds, [&](long k) { return timed_calls(comm, k, once); });
    std::vector<double> reps;
    for (int r = 0; r < plan.reps; ++r)
      reps.push_back(sum(timed_calls(comm, n, once), comm) / ranks / static_cast<double>(n));
    series.push_back({bytes, n, figure(name, "s", Better::lower, std::move(reps))});
  }
  return series;
}

std::size_t largest(const MicroPlan& plan) { return plan.sizes.empty() ? 0 : plan.sizes.back(); }

// A message buffer, written once so that its pages exist before anything is timed.
std::vector<char> buffer(std::size_t bytes, char fill) {
  return std::vector<char>(std::max<std::size_t>(bytes, 1), fill);
}

std::string cache_name(const Cache& c) {
  const char* kind = c.type == "Data" ? "d" : c.type == "Instruction" ? "i" : "";
  return fmt::format("L{}{} ({})", c.level, kind, ulibc::format_bytes(c.size_bytes));
}

}  // namespace

const char* micro_name(Micro m) { return kMicroNames[static_cast<std::size_t>(m)]; }

Micro parse_micro(std::string_view word) {
  return harness::parse_name<Micro>(std::string(word), kMicroNames, "measurement");
}

bool needs_two_ranks(Micro m) { return m == Micro::p2p || m == Micro::overlap; }

std::vector<std::size_t> default_sizes(bool quick) {
  std::vector<std::size_t> sizes;
  const std::size_t top = quick ? std::size_t{2} << 20 : std::size_t{4} << 20;
  for (std::size_t b = 8; b <= top; b *= quick ? 64 : 2) sizes.push_back(b);
  return sizes;
}

std::vector<std::size_t> message_sizes(std::vector<std::uint64_t> given) {
  if (given.empty()) throw input_error("no message size given");
  for (const std::uint64_t b : given)
    if (b == 0 || b % sizeof(double) != 0 || b > kMaxMessageBytes)
      throw input_error(fmt::format("{} bytes: message sizes are whole doubles (multiples of 8 bytes) from 8 to {}", b,
                                    ulibc::format_bytes(kMaxMessageBytes)));
  std::sort(given.begin(), given.end());
  given.erase(std::unique(given.begin(), given.end()), given.end());
  return {given.begin(), given.end()};
}

Series p2p_latency(MPI_Comm comm, const MicroPlan& plan) {
  return on_pair<Series>(comm, [&](MPI_Comm pair, int me) {
    std::vector<char> out = buffer(largest(plan), 'a'), in = buffer(largest(plan), 'b');
    Series series;
    for (const std::size_t bytes : plan.sizes) {
      auto run = [&](long n) { return round_trips(pair, me, out, in, bytes, n); };
      const long n = operations_per_rep(pair, plan.batch_seconds, run);
      std::vector<double> reps;
      for (int r = 0; r < plan.reps; ++r) reps.push_back(run(n) / (2.0 * static_cast<double>(n)));
      series.push_back({bytes, n, figure("p2p", "s", Better::lower, std::move(reps))});
    }
    return series;
  });
}

Series p2p_bandwidth(MPI_Comm comm, const MicroPlan& plan) {
  return on_pair<Series>(comm, [&](MPI_Comm pair, int me) {
    std::vector<char> out = buffer(largest(plan), 'a'), in = buffer(largest(plan), 'b');
    Series series;
    for (const std::size_t bytes : plan.sizes) {
      auto run = [&](long n) { return windows(pair, me, out, in, bytes, plan.window, n); };
      const long n = operations_per_rep(pair, plan.batch_seconds, run);
      const double moved = static_cast<double>(bytes) * plan.window * static_cast<double>(n);
      std::vector<double> reps;
      for (int r = 0; r < plan.reps; ++r) reps.push_back(moved / run(n) / 1e6);
      series.push_back({bytes, n, figure("p2p bandwidth", "MB/s", Better::higher, std::move(reps))});
    }
    return series;
  });
}

double OverlapPoint::overlap() const {
  const double shorter = std::min(alone.value, compute);
  if (!(shorter > 0)) return 0;
  return std::clamp((alone.value + compute - loaded.value) / shorter, 0.0, 1.0);
}

std::vector<OverlapPoint> overlap(MPI_Comm comm, const MicroPlan& plan) {
  return on_pair<std::vector<OverlapPoint>>(comm, [&](MPI_Comm pair, int me) {
    std::vector<char> data = buffer(largest(plan), me == 0 ? 'a' : 'b');
    std::vector<OverlapPoint> points;
    for (const std::size_t bytes : plan.sizes) {
      auto reps = [&](long n, std::int64_t delay) {
        std::vector<double> seconds;
        for (int r = 0; r < plan.reps; ++r)
          seconds.push_back(max(transfers(pair, me, data, bytes, n, delay), pair) / static_cast<double>(n));
        return seconds;
      };
      OverlapPoint p{.bytes = bytes};
      p.operations =
          operations_per_rep(pair, plan.batch_seconds, [&](long n) { return transfers(pair, me, data, bytes, n, 0); });
      p.alone = figure("overlap alone", "s", Better::lower, reps(p.operations, 0));
      // Each rank sizes its own computation: the two cores need not run at one speed.
      const std::int64_t delay = epcc::calibrate_delay(p.alone.value * 1e6);
      p.compute = max(epcc::delay_time_us(delay) * 1e-6, pair);
      p.loaded = figure("overlap loaded", "s", Better::lower, reps(p.operations, delay));
      points.push_back(std::move(p));
    }
    return points;
  });
}

Series allgather_time(MPI_Comm comm, const MicroPlan& plan) {
  const std::size_t ranks = static_cast<std::size_t>(place_in(comm).size);
  std::vector<char> out = buffer(largest(plan), 'a'), in = buffer(largest(plan) * ranks, 'b');
  return collective(comm, plan, "allgather", [&](std::size_t bytes) {
    check(MPI_Allgather(out.data(), count_of(bytes), MPI_CHAR, in.data(), count_of(bytes), MPI_CHAR, comm),
          "MPI_Allgather");
  });
}

Series allreduce_time(MPI_Comm comm, const MicroPlan& plan) {
  const std::size_t most = largest(plan) / sizeof(double);
  std::vector<double> out(std::max<std::size_t>(most, 1), 1.0), in(std::max<std::size_t>(most, 1), 0.0);
  return collective(comm, plan, "allreduce", [&](std::size_t bytes) {
    check(MPI_Allreduce(out.data(), in.data(), count_of(bytes / sizeof(double)), MPI_DOUBLE, MPI_SUM, comm),
          "MPI_Allreduce");
  });
}

Series bcast_time(MPI_Comm comm, const MicroPlan& plan) {
  std::vector<char> data = buffer(largest(plan), 'a');
  return collective(comm, plan, "bcast", [&](std::size_t bytes) {
    check(MPI_Bcast(data.data(), count_of(bytes), MPI_CHAR, 0, comm), "MPI_Bcast");
  });
}

Curve curve_of(const Series& s) {
  Curve c;
  for (const Point& p : s) {
    c.bytes.push_back(static_cast<double>(p.bytes));
    c.seconds.push_back(p.figure.value);
  }
  return c;
}

CommProfile profile_of(std::string key, const Series& p2p, const Series& allgather, const Series& bcast,
                       const Series& allreduce) {
  return {std::move(key), curve_of(p2p), curve_of(allgather), curve_of(bcast), curve_of(allreduce)};
}

Sharing sharing(const Topology& topo, int a, int b) {
  const Processor* pa = topo.processor(a);
  const Processor* pb = topo.processor(b);
  if (!pa || !pb) throw input_error(fmt::format("processor {} is not on this machine", pa ? b : a));
  Sharing s{*pa, *pb, {}};
  for (const Cache& c : topo.caches())
    if (c.cpus.test(a) && c.cpus.test(b)) s.caches.push_back(c);
  return s;
}

std::string Sharing::describe() const {
  std::string where;
  if (same_processor())
    where = fmt::format("processor {} for both", a.id);
  else if (same_core())
    where = fmt::format("processors {} and {}: two hardware threads of one core", a.id, b.id);
  else if (same_package())
    where = fmt::format("processors {} and {}: two cores of package {}", a.id, b.id, a.package);
  else
    where = fmt::format("processors {} and {}: packages {} and {}", a.id, b.id, a.package, b.package);
  where += same_node() ? fmt::format(", node {}", a.node) : fmt::format(", nodes {} and {}", a.node, b.node);
  std::string caches;
  for (const Cache& c : this->caches) caches += (caches.empty() ? "" : ", ") + cache_name(c);
  return where + "; shared caches: " + (caches.empty() ? "none known" : caches);
}

}  // namespace ulibc::mpi
