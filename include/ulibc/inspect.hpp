// ulibc/inspect.hpp — where a running process's threads and memory really are, and what a policy would have said.
//
// Reads /proc/PID below a filesystem root (the topology's), so a fake /proc tree inspects exactly like a live
// process. For each thread: the processor it last ran on and that processor's node, the processors and memory
// nodes it may use, and a verdict (docs/INSPECT.md states the rules); for the process: its resident pages per
// node from numa_maps, mapping by mapping. A process that exits while it is read gives what was read before, with
// a note, or Error(input) "process N exited while being read"; numa_maps that cannot be read (another user's
// process) leaves the memory unreadable, with a note, and the threads still reported.
#pragma once
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "ulibc/cpuset.hpp"
#include "ulibc/topology.hpp"

namespace ulibc {

// What a thread's allowed processors amount to.
enum class BindingKind {
  unbound,    // every processor the machine lets a process use (Topology::allowed())
  processor,  // one processor
  core,       // every allowed processor of one core, more than one
  node,       // every allowed processor of one node, on more than one core
  other       // any other subset
};

// The one-word verdict on a thread, by precedence: moved, then memory_elsewhere, then bound or unbound or
// restricted (a subset that is no single processor, core or node).
enum class Verdict { unbound, bound, restricted, moved, memory_elsewhere };

std::string_view binding_name(BindingKind kind);  // "unbound", "processor", "core", "node", "other"
std::string_view verdict_name(Verdict verdict);   // "unbound", "bound", "restricted", "moved", "memory-elsewhere"

struct ThreadReport {
  int tid = -1;
  std::string name;         // comm
  char state = '?';         // R, S, D, Z, ...
  int last_processor = -1;  // stat field 39
  int node = -1;            // the node of last_processor, -1 if the topology does not know it
  CpuSet allowed;           // Cpus_allowed_list
  NodeSet allowed_nodes;    // Mems_allowed_list
  BindingKind binding = BindingKind::unbound;
  int bound_to = -1;      // the processor, core (Processor::core) or node id of the binding; -1 otherwise
  int binding_node = -1;  // the node of that processor, core or node; -1 when unbound or other
  // The policies whose mapping for the process's thread count binds this thread (by its rank among the
  // threads, in tid order) the same way: "scatter", "compact", "compact+". Empty when none does.
  std::vector<std::string> policies;
  bool moved = false;             // last processor outside its allowed set, or on another node than its binding's
  double remote_fraction = 0.0;   // of the process's resident pages, the share on nodes other than `node`
  bool memory_elsewhere = false;  // remote_fraction > 0.5 (memory readable, some pages resident, node known)
  Verdict verdict = Verdict::unbound;
  std::string explanation;  // the verdict in a sentence: "bound to processor 5 = compact's thread 3"
};

// One line of numa_maps.
struct MemoryMapping {
  std::uint64_t address = 0;
  std::string policy;                // "default", "bind:0", "interleave:0-1", "prefer:1", ...
  std::string kind;                  // "file", "heap", "stack", "huge" (hugetlbfs) or "anon"
  std::string file;                  // for kind file: the path as numa_maps writes it (spaces escaped as \040)
  std::uint64_t page_bytes = 0;      // kernelpagesize_kB × 1024; 0 when no page is resident
  std::vector<std::uint64_t> pages;  // resident pages by node id (N<k>=), as long as the highest node named + 1
  std::uint64_t resident_bytes() const;
};

struct ProcessReport {
  int pid = -1;
  std::vector<ThreadReport> threads;  // by tid
  bool memory_readable = false;
  std::vector<MemoryMapping> mappings;
  std::vector<std::uint64_t> node_bytes;  // resident bytes by node id, summed over the mappings
  std::uint64_t resident_bytes() const;
  // Threads that exited while being read, numa_maps that could not be read, ...
  std::vector<std::string> notes;
};

// Inspects process `pid` below topo.fsroot(). Error(input): "process N: no such process", "process N exited while
// being read", or a malformed file named with what is wrong in it.
ProcessReport inspect_process(const Topology& topo, int pid);

// A program run to its end while it is inspected: a process's threads and memory are gone once it has exited, so
// it is sampled while it runs and the last sample is kept.
struct WatchedRun {
  int exit_code = 0;                    // 128 + signal when a signal killed it, as a shell says
  std::optional<ProcessReport> report;  // nullopt when it ended before a sample could be read
  std::chrono::milliseconds age{0};     // how long before its end `report` was read
};
// Starts argv (execvp, this process's environment) and inspects it every `interval` until it ends; SIGINT,
// SIGTERM, SIGHUP and SIGQUIT sent to the caller go to the program meanwhile. Error(system) when it cannot start.
WatchedRun run_inspected(const Topology& topo, const std::vector<std::string>& argv,
                         std::chrono::milliseconds interval = std::chrono::milliseconds(25));

// The parsers, for tests and fuzzing; each throws Error(input) naming `what` (a file) and the fault.
struct StatLine {
  std::string comm;
  char state = '?';
  int processor = -1;
};
StatLine parse_stat(std::string_view text, std::string_view what);
struct StatusLists {
  CpuSet cpus;
  NodeSet mems;
};
StatusLists parse_status(std::string_view text, std::string_view what);
std::vector<MemoryMapping> parse_numa_maps(std::string_view text, std::string_view what);

}  // namespace ulibc
