// inspect/inspect.cpp — reads a process's threads and memory from /proc and judges each thread (ulibc/inspect.hpp).
//
// The verdict rules are docs/INSPECT.md's; the order of the checks below is their precedence.
#include "ulibc/inspect.hpp"

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>

#include "os/fs.hpp"
#include "os/process_control.hpp"
#include "ulibc/error.hpp"
#include "ulibc/mapping.hpp"

namespace ulibc {

namespace {

std::optional<int> tid_of(const std::string& name) {
  int tid = 0;
  const auto [ptr, ec] = std::from_chars(name.data(), name.data() + name.size(), tid);
  if (ec != std::errc() || ptr != name.data() + name.size() || tid <= 0) return std::nullopt;
  return tid;
}

std::vector<int> tids_of(const os::FsRoot& fs, const std::string& dir) {
  std::vector<int> tids;
  for (const auto& name : fs.list(dir + "/task"))
    if (auto tid = tid_of(name)) tids.push_back(*tid);
  std::sort(tids.begin(), tids.end());
  return tids;
}

int node_of(const Topology& topo, int proc) {
  const Processor* p = topo.processor(proc);
  return p ? p->node : -1;
}

// A thread's stat and status, or nullopt when it exited before both were read.
std::optional<ThreadReport> read_thread(const Topology& topo, const os::FsRoot& fs, const std::string& dir, int tid) {
  const std::string task = dir + "/task/" + std::to_string(tid);
  const auto stat = fs.read(task + "/stat");
  const auto status = fs.read(task + "/status");
  if (!stat || !status) return std::nullopt;
  const StatLine s = parse_stat(*stat, task + "/stat");
  StatusLists lists = parse_status(*status, task + "/status");
  ThreadReport t{.tid = tid, .name = s.comm, .state = s.state, .last_processor = s.processor};
  t.node = node_of(topo, s.processor);
  t.allowed = std::move(lists.cpus);
  t.allowed_nodes = std::move(lists.mems);
  return t;
}

std::string unreadable_reason(int error) {
  std::string reason = std::strerror(error);
  if (error == EACCES || error == EPERM) reason += " (another user's process: run as root or as its owner)";
  if (error == ENOENT) reason += " (a kernel without NUMA support has no numa_maps)";
  return reason;
}

std::uint64_t saturated_sum(std::uint64_t a, std::uint64_t b) {
  std::uint64_t sum = 0;
  return __builtin_add_overflow(a, b, &sum) ? UINT64_MAX : sum;
}

void read_memory(const os::FsRoot& fs, const std::string& dir, ProcessReport& r) {
  const std::string file = dir + "/numa_maps";
  const os::FileText got = os::read_whole_file(fs.path(file));
  if (!got.text && !fs.is_dir(dir)) return;  // exited: inspect_process says so
  if (!got.text) {
    r.notes.push_back(file + ": cannot be read: " + unreadable_reason(got.error) + "; memory per node unknown");
    return;
  }
  r.mappings = parse_numa_maps(*got.text, file);
  r.memory_readable = true;
  for (const MemoryMapping& m : r.mappings) {
    if (r.node_bytes.size() < m.pages.size()) r.node_bytes.resize(m.pages.size(), 0);
    for (std::size_t n = 0; n < m.pages.size(); ++n)
      r.node_bytes[n] = saturated_sum(r.node_bytes[n], m.pages[n] * m.page_bytes);
  }
}

// ---- Judging ----------------------------------------------------------------------------------------------------

CpuSet core_processors(const Topology& topo, int core) {
  CpuSet out;
  for (const Processor& p : topo.processors())
    if (p.core == core) out.set(p.id);
  return out;
}

// Every allowed processor lies in `group`, and the allowed set holds all of the group the machine allows.
bool is_whole_group(const CpuSet& allowed, const CpuSet& group, const CpuSet& machine) {
  return group.contains(allowed) && allowed.contains(group & machine);
}

void classify_binding(const Topology& topo, ThreadReport& t) {
  const CpuSet machine = topo.allowed();
  const Processor* first = topo.processor(t.allowed.first());
  if (!machine.empty() && t.allowed.contains(machine)) {
    t.binding = BindingKind::unbound;
  } else if (t.allowed.count() == 1) {
    t.binding = BindingKind::processor;
    t.bound_to = t.allowed.first();
    t.binding_node = node_of(topo, t.bound_to);
  } else if (first && first->core >= 0 && is_whole_group(t.allowed, core_processors(topo, first->core), machine)) {
    t.binding = BindingKind::core;
    t.bound_to = first->core;
    t.binding_node = first->node;
  } else if (first && topo.node(first->node) && is_whole_group(t.allowed, topo.node(first->node)->cpus, machine)) {
    t.binding = BindingKind::node;
    t.bound_to = first->node;
    t.binding_node = first->node;
  } else {
    t.binding = BindingKind::other;
  }
}

bool policy_binds_so(const Topology& topo, const Placement& pl, const ThreadReport& t) {
  switch (t.binding) {
    case BindingKind::processor:
      return pl.proc == t.bound_to;
    case BindingKind::core: {
      const Processor* p = topo.processor(pl.proc);
      return p && p->core == t.bound_to;
    }
    case BindingKind::node:
      return pl.node == t.bound_to;
    default:
      return false;
  }
}

// The policies' mappings for the process's thread count; a policy that cannot build one (no usable processor) is
// left out.
std::vector<Mapping> policy_mappings(const Topology& topo, int threads) {
  std::vector<Mapping> out;
  if (threads < 1 || threads > Mapping::kMaxThreads) return out;
  for (PolicyKind kind : {PolicyKind::scatter, PolicyKind::compact, PolicyKind::compact_plus}) {
    try {
      out.push_back(Mapping::build(topo, Policy(kind), threads));
    } catch (const Error&) {
    }
  }
  return out;
}

std::string join(const std::vector<std::string>& words, const std::string& sep) {
  std::string out;
  for (const auto& w : words) out += (out.empty() ? "" : sep) + w;
  return out;
}

std::string binding_sentence(const ThreadReport& t, int rank) {
  const std::string as_policy = t.policies.empty()
                                    ? ", as no policy binds thread " + std::to_string(rank)
                                    : " = " + join(t.policies, "/") + "'s thread " + std::to_string(rank);
  switch (t.binding) {
    case BindingKind::unbound:
      return "unbound (may run on " + t.allowed.to_list() + ")";
    case BindingKind::processor:
      return "bound to processor " + std::to_string(t.bound_to) + as_policy;
    case BindingKind::core:
      return "bound to core " + std::to_string(t.bound_to) + " (processors " + t.allowed.to_list() + ")" + as_policy;
    case BindingKind::node:
      return "bound to node " + std::to_string(t.bound_to) + " (processors " + t.allowed.to_list() + ")" + as_policy;
    case BindingKind::other:
      break;
  }
  return "restricted to processors " + t.allowed.to_list() + " (not one processor, core or node)";
}

std::optional<std::string> moved_sentence(const ThreadReport& t) {
  const std::string ran = "last ran on processor " + std::to_string(t.last_processor);
  if (!t.allowed.test(t.last_processor)) return "moved: " + ran + ", outside its allowed processors";
  const bool bound =
      t.binding == BindingKind::processor || t.binding == BindingKind::core || t.binding == BindingKind::node;
  if (bound && t.node != t.binding_node)
    return "moved: " + ran + " on node " + std::to_string(t.node) + ", its binding is on node " +
           std::to_string(t.binding_node);
  return std::nullopt;
}

void judge_memory(const ProcessReport& r, ThreadReport& t) {
  const std::uint64_t total = r.resident_bytes();
  if (!r.memory_readable || total == 0 || t.node < 0) return;
  const std::uint64_t local = static_cast<std::size_t>(t.node) < r.node_bytes.size() ? r.node_bytes[t.node] : 0;
  t.remote_fraction = static_cast<double>(total - local) / static_cast<double>(total);
  t.memory_elsewhere = t.remote_fraction > 0.5;
}

void judge(const Topology& topo, ProcessReport& r) {
  const int n = static_cast<int>(r.threads.size());
  const std::vector<Mapping> maps = policy_mappings(topo, n);
  for (int rank = 0; rank < n; ++rank) {
    ThreadReport& t = r.threads[rank];
    classify_binding(topo, t);
    for (const Mapping& map : maps)
      if (policy_binds_so(topo, map[rank], t)) t.policies.push_back(map.policy().name());
    judge_memory(r, t);
    std::vector<std::string> parts{binding_sentence(t, rank)};
    const auto moved = moved_sentence(t);
    t.moved = moved.has_value();
    if (moved) parts.push_back(*moved);
    if (t.memory_elsewhere)
      parts.push_back(std::to_string(static_cast<int>(std::lround(t.remote_fraction * 100))) +
                      "% of the process's memory is on other nodes than its node " + std::to_string(t.node));
    t.explanation = join(parts, "; ");
    if (t.moved)
      t.verdict = Verdict::moved;
    else if (t.memory_elsewhere)
      t.verdict = Verdict::memory_elsewhere;
    else if (t.binding == BindingKind::unbound)
      t.verdict = Verdict::unbound;
    else if (t.binding == BindingKind::other)
      t.verdict = Verdict::restricted;
    else
      t.verdict = Verdict::bound;
  }
}

std::string process_name(int pid) { return "process " + std::to_string(pid); }

}  // namespace

std::string_view binding_name(BindingKind kind) {
  switch (kind) {
    case BindingKind::unbound:
      return "unbound";
    case BindingKind::processor:
      return "processor";
    case BindingKind::core:
      return "core";
    case BindingKind::node:
      return "node";
    case BindingKind::other:
      break;
  }
  return "other";
}

std::string_view verdict_name(Verdict verdict) {
  switch (verdict) {
    case Verdict::unbound:
      return "unbound";
    case Verdict::bound:
      return "bound";
    case Verdict::restricted:
      return "restricted";
    case Verdict::moved:
      return "moved";
    case Verdict::memory_elsewhere:
      break;
  }
  return "memory-elsewhere";
}

std::uint64_t ProcessReport::resident_bytes() const {
  std::uint64_t total = 0;
  for (std::uint64_t b : node_bytes) total = saturated_sum(total, b);
  return total;
}

ProcessReport inspect_process(const Topology& topo, int pid) {
  const os::FsRoot fs(topo.fsroot());
  const std::string dir = "/proc/" + std::to_string(pid);
  if (pid <= 0 || !fs.is_dir(dir)) throw input_error(process_name(pid) + ": no such process");
  ProcessReport r;
  r.pid = pid;
  for (int tid : tids_of(fs, dir)) {
    if (auto t = read_thread(topo, fs, dir, tid))
      r.threads.push_back(std::move(*t));
    else
      r.notes.push_back("thread " + std::to_string(tid) + " exited while being read");
  }
  if (r.threads.empty()) throw input_error(process_name(pid) + " exited while being read");
  read_memory(fs, dir, r);
  if (!fs.is_dir(dir)) r.notes.push_back(process_name(pid) + " exited while being read: this is what was read before");
  judge(topo, r);
  return r;
}

}  // namespace ulibc
