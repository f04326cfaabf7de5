#!/usr/bin/python3
"""Simpath: `ulibc simpath` against TdZdd and Graphillion, side by side.

Method. For each K, the K x K-cell grid: (K+1)^2 vertices, 2K(K+1) edges,
vertex (r,c) numbered r*(K+1)+c, s = 0 (top left), t = (K+1)^2-1 (bottom
right). Each program builds the ZDD of all simple s-t paths, reduces it and
counts its sets exactly; each one's own timer is taken (no process start-up):

  ULIBC        `ulibc simpath --grid K --threads T --policy compact --json` at
               each T of --threads: its "seconds"."total". Skipped, with the
               reason, where the subcommand is missing (probed on K=2: 12 paths).
  TdZdd        github.com/kunisura/TdZdd (header-only). DRIVER_SOURCE, compiled
               into the work directory with g++ -std=c++11 -O3 -DNDEBUG -fopenmp
               (the flags of TdZdd's apps/) against the clone's include/, builds
               tdzdd::PathZdd (spec/PathZdd.hpp: Knuth's Simpath mate array,
               with lookahead) into a DdStructure<2>, then zddReduce() and
               zddCardinality() (TdZdd's BigNumber, in decimal); its timer
               covers graph set-up, build, reduction and count. T = 1: useMP
               false; T > 1: TdZdd's OpenMP algorithms (useMP) on T threads.
  Graphillion  PyPI graphillion, in the interpreter given (OMP_NUM_THREADS=1):
               the timer covers GraphSet.set_universe(edges, traversal=...),
               GraphSet.paths(s, t) and .len(), not the import. Inside:
               TdZdd's DegreeConstraint then FrontierBasedSearch (zddSubset),
               conversion to its SAPPOROBDD ZDD, a big-integer count. Its ZDD
               size is counted afterwards from setset.dumps() (a line a node),
               and its peak RSS then is its VmHWM read before that dump.

All three take the edges in one order: row by row, each vertex's right edge
then its down edge (a frontier of K+2 vertices). Graphillion keeps it with
traversal='as-is'; its default, 'greedy', gives odd K a frontier of about 2K
and runs out of memory from K=9 (try --graphillion-traversal greedy).

Real graphs (--graph NAME=FILE:S:T, repeatable): a MATPOWER case file (.m:
its in-service branches, buses numbered in sorted order from 0), a TNTP
network (_net.tntp: its links as undirected edges, nodes numbered in sorted
order from 0) or an edge list ("u v" lines, ids from 0); S and T in that
numbering, or "far" for the first pair at the largest hop distance.
Self-loops and repeated edges are dropped. The edges are written in the
order `ulibc simpath` picks for the graph (read back from its --zdd file),
and every program then takes that file in its order (ULIBC --order input),
so all build the same ZDD. Graphillion runs grids only.

Counts are checked against each other at each K and against OEIS A007764
(K <= 16); a mismatch stops the script with an error. A run past --timeout,
killed by a signal or out of memory (--mem-limit sets RLIMIT_AS) is reported
as such, and that program is not run at larger K. Rounds alternate the
programs. The report: per K, the median over rounds of each program's seconds;
speed = the faster peer on 1 thread / ULIBC on its fewest threads (above 1:
ULIBC is faster); ULIBC's speed-up from its fewest to its most threads; the
largest peak RSS of the rounds (GNU time's %M from /usr/bin/time, else the
program's own VmHWM); ZDD nodes, and those made before reduction.

usage: simpath_vs_peers.py ULIBC [--tdzdd DIR] [--graphillion-python PATH] [--grids 9,10,...]
                           [--graph NAME=FILE:S:T ...] [--rounds 3] [--threads 1,2] [--timeout S] [--mem-limit GiB]
                           [--graphillion-traversal as-is] [--workdir DIR] [--keep]
  ULIBC is build/bin/ulibc; DIR defaults to $TDZDD_DIR, PATH to $GRAPHILLION_PYTHON.
Example:
  git clone https://github.com/kunisura/TdZdd /tmp/tdzdd
  python3 -m venv /tmp/gx && /tmp/gx/bin/pip install graphillion
  /usr/bin/python3 peers/simpath_vs_peers.py build/bin/ulibc --tdzdd /tmp/tdzdd \\
      --graphillion-python /tmp/gx/bin/python --grids 9,10,11,12 --rounds 3
"""
import argparse
import json
import os
import re
import resource
import shlex
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
from collections import deque

# OEIS A007764: simple corner-to-corner paths in the K x K-cell grid.
KNOWN = {1: 2, 2: 12, 3: 184, 4: 8512, 5: 1262816, 6: 575780564, 7: 789360053252,
         8: 3266598486981642, 9: 41044208702632496804, 10: 1568758030464750013214100,
         11: 182413291514248049241470885236, 12: 64528039343270018963357185158482118,
         13: 69450664761521361664274701548907358996488, 14: 227449714676812739631826459327989863387613323440,
         15: 2266745568862672746374567396713098934866324885408319028,
         16: 68745445609149931587631563132489232824587945968099457285419306}
TDZDD_CXX = "g++"
TDZDD_FLAGS = ["-std=c++11", "-O3", "-DNDEBUG", "-fopenmp"]
DRIVER_SOURCE = r'''// tdzdd_simpath.cpp -- TdZdd's PathZdd: the ZDD of all simple s-t paths,
// built top-down, reduced and counted exactly. Prints one JSON object.
// Usage: tdzdd_simpath (--grid K | --edges FILE S T) [--threads N]
//   --grid K: K x K cells, vertex (r,c) = r*(K+1)+c, s = 0, t = (K+1)^2-1, the
//             edges row by row, each vertex's right edge then its down edge.
//   --edges FILE S T: lines "u v" (integers) in the order given; terminals S, T.
//   --threads N: N > 1 uses TdZdd's OpenMP algorithms (useMP) on N threads.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#ifdef _OPENMP
#include <omp.h>
#endif
#include <tdzdd/DdStructure.hpp>
#include <tdzdd/spec/PathZdd.hpp>
#include <tdzdd/util/Graph.hpp>

typedef std::chrono::steady_clock Clock;
static std::string str(long long x) { std::ostringstream o; o << x; return o.str(); }
static double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }
static long long vm_hwm_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, 6, "VmHWM:") == 0) return std::atoll(line.c_str() + 6) * 1024;
  return -1;
}

int main(int argc, char* argv[]) {
  int grid = 0, threads = 1;
  std::string file, s, t;
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--grid" && i + 1 < argc) grid = std::atoi(argv[++i]);
    else if (a == "--edges" && i + 3 < argc) { file = argv[++i]; s = argv[++i]; t = argv[++i]; }
    else if (a == "--threads" && i + 1 < argc) threads = std::atoi(argv[++i]);
    else grid = -1;
  }
  if (grid < 0 || (grid == 0) == file.empty() || threads < 1) {
    std::fprintf(stderr, "usage: %s (--grid K | --edges FILE S T) [--threads N]\n", argv[0]);
    return 2;
  }
  Clock::time_point t0 = Clock::now();
  tdzdd::Graph g;
  if (grid > 0) {
    const long long w = grid + 1;
    for (long long r = 0; r < w; ++r)
      for (long long c = 0; c < w; ++c) {
        if (c + 1 < w) g.addEdge(str(r * w + c), str(r * w + c + 1));
        if (r + 1 < w) g.addEdge(str(r * w + c), str((r + 1) * w + c));
      }
    s = "0", t = str(w * w - 1);
  } else {
    std::ifstream in(file.c_str());
    if (!in) { std::fprintf(stderr, "%s: cannot open %s\n", argv[0], file.c_str()); return 2; }
    for (long long u, v; in >> u >> v;) g.addEdge(str(u), str(v));
  }
  g.setColor(s, 0);  // one colour on both terminals: the pair PathZdd joins
  g.setColor(t, 0);
  g.update();
  if (!g.hasColorPairs()) { std::fprintf(stderr, "%s: S and T must be two vertices\n", argv[0]); return 2; }
#ifdef _OPENMP
  omp_set_num_threads(threads);
#endif
  const bool use_mp = threads > 1;
  const double graph_s = since(t0);
  Clock::time_point t1 = Clock::now();
  tdzdd::DdStructure<2> f(tdzdd::PathZdd(g), use_mp);  // PathZdd's lookahead on, its default
  const double build_s = since(t1);
  const size_t built = f.size();
  Clock::time_point t2 = Clock::now();
  f.zddReduce();
  const double reduce_s = since(t2);
  Clock::time_point t3 = Clock::now();
  const std::string count = f.zddCardinality();  // evaluate(ZddCardinality<std::string>())
  const double count_s = since(t3);
  std::printf("{\"program\": \"TdZdd PathZdd\", \"vertices\": %d, \"edges\": %d, \"max_frontier\": %d, "
              "\"threads\": %d, \"use_mp\": %s, \"count\": \"%s\", \"seconds\": "
              "{\"total\": %.6f, \"graph\": %.6f, \"build\": %.6f, \"reduce\": %.6f, \"count\": %.6f}, "
              "\"nodes_built\": %zu, \"zdd_nodes\": %zu, \"peak_rss_bytes\": %lld}\n",
              g.vertexSize(), g.edgeSize(), g.maxFrontierSize(), threads, use_mp ? "true" : "false",
              count.c_str(), since(t0), graph_s, build_s, reduce_s,
              count_s, built, f.size(), vm_hwm_bytes());
  return 0;
}
'''
GRAPHILLION_SOURCE = r'''# gx_simpath.py K TRAVERSAL NODES(0|1): Graphillion's s-t paths of the K x K-cell grid.
import json, sys, time
from graphillion import GraphSet

def vm_hwm_bytes():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) * 1024 for l in f if l.startswith("VmHWM:"))

K, traversal, nodes = int(sys.argv[1]), sys.argv[2], sys.argv[3] == "1"
w = K + 1
edges = [e for v in range(w * w)  # row by row: each vertex's right edge, then its down edge
         for e in [(v, v + 1)] * (v % w + 1 < w) + [(v, v + w)] * (v + w < w * w)]
t0 = time.perf_counter()
GraphSet.set_universe(edges, traversal=traversal)
t1 = time.perf_counter()
paths = GraphSet.paths(0, w * w - 1)
t2 = time.perf_counter()
count = paths.len()
t3 = time.perf_counter()
out = {"count": str(count), "traversal": traversal, "peak_rss_bytes": vm_hwm_bytes(),
       "seconds": {"total": t3 - t0, "universe": t1 - t0, "paths": t2 - t1, "len": t3 - t2}}
if nodes:
    out["zdd_nodes"] = paths._ss.dumps().count("\n") - 1  # "id level lo hi" lines, then "."
print(json.dumps(out))
'''

COMMANDS = []  # every command run, for the report
TIME = "/usr/bin/time"  # GNU time (Debian package time): the program's own peak RSS


def run(cmd, timeout, mem_limit=None, env=None):
    """Run cmd; return (status, stdout, peak RSS in bytes or None, stderr tail).

    status is "ok", "timeout", "out of memory", "killed by signal N" or
    "failed (exit N)". The child gets its own process group, killed on timeout.
    """
    cmd = [str(c) for c in cmd]
    COMMANDS.append(" ".join(shlex.quote(c) for c in cmd))
    limit = None if not mem_limit else int(mem_limit * 2**30)
    preexec = (lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit))) if limit else None
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        timed = os.access(TIME, os.X_OK)
        full = [TIME, "-f", "%M", "-o", rss_file.name] + cmd if timed else cmd
        proc = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                env=dict(os.environ, **(env or {})), start_new_session=True,
                                preexec_fn=preexec)
        try:
            out, err = proc.communicate(timeout=timeout)
            status = "ok"
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            status = "timeout"
        lines = rss_file.read().split("\n")
    rss = int(lines[-2]) * 1024 if timed and len(lines) > 1 and lines[-2].isdigit() else None
    rc = proc.returncode
    if status == "ok" and rc != 0:
        oom = any(m in err for m in ("bad_alloc", "MemoryError", "Cannot allocate", "out of memory"))
        sig = rc - 128 if timed and rc > 128 else -rc
        status = ("out of memory" if oom else f"killed by signal {sig}" + (" (memory?)" if sig == 9 else "")
                  if (timed and rc > 128) or rc < 0 else f"failed (exit {rc})")
    return status, out, rss, err[-2000:]


def read_graph_edges(path):
    """(u, v) pairs of a MATPOWER case, a TNTP network or an edge list, numbered from 0 as the docstring says."""
    text = open(path).read()
    if path.endswith(".m"):
        body = re.search(r"mpc\.branch\s*=\s*\[(.*?)\];", text, re.S)
        if not body:
            sys.exit(f"{path}: no mpc.branch matrix (not a MATPOWER case?)")
        rows = [line.split("%")[0].strip().rstrip(";").split() for line in body.group(1).splitlines()]
        pairs = [(int(r[0]), int(r[1])) for r in rows if len(r) > 10 and float(r[10]) > 0]
    elif path.endswith(".tntp"):
        if "<END OF METADATA>" not in text:
            sys.exit(f"{path}: no <END OF METADATA> (not a TNTP network?)")
        rows = [line.split() for line in text.split("<END OF METADATA>", 1)[1].splitlines()]
        pairs = [(int(r[0]), int(r[1])) for r in rows if len(r) >= 2 and not r[0].startswith("~")]
    else:
        return [(int(a), int(b)) for a, b in (line.split()[:2] for line in text.splitlines() if line.strip())]
    ids = {x: i for i, x in enumerate(sorted({x for e in pairs for x in e}))}
    return [(ids[u], ids[v]) for u, v in pairs]


def simple_edges(pairs):
    seen, out = set(), []
    for u, v in pairs:
        key = (min(u, v), max(u, v))
        if u != v and key not in seen:
            seen.add(key)
            out.append(key)
    return out


def farthest_pair(edges):
    adj = {}
    for u, v in edges:
        adj.setdefault(u, []).append(v), adj.setdefault(v, []).append(u)
    best = (-1, 0, 0)
    for s in sorted(adj):
        dist, queue = {s: 0}, deque([s])
        while queue:
            x = queue.popleft()
            for y in adj[x]:
                if y not in dist:
                    dist[y] = dist[x] + 1
                    queue.append(y)
        best = max(best, max((d, -s, -t) for t, d in dist.items()))
    return -best[1], -best[2], best[0]


def prepare_graph(args, spec, workdir):
    """A Case for NAME=FILE:S:T: the simple graph written in ULIBC's chosen edge order."""
    name, _, rest = spec.partition("=")
    path, s, t = rest.rsplit(":", 2) if rest.count(":") >= 2 else sys.exit(f"--graph {spec}: want NAME=FILE:S:T")
    edges = simple_edges(read_graph_edges(path))
    hops = None
    if s == "far" or t == "far":
        s, t, hops = farthest_pair(edges)
    raw = os.path.join(workdir, f"{name}.raw.edges")
    with open(raw, "w") as f:
        f.writelines(f"{u} {v}\n" for u, v in edges)
    zdd = os.path.join(workdir, f"{name}.zdd")
    status, _, _, err = run([args.ulibc, "simpath", "--file", raw, "--s", s, "--t", t, "--threads", 1,
                             "--zdd", zdd], args.timeout)
    if status != "ok":
        sys.exit(f"ordering {name} with `ulibc simpath` {status}: {err.strip()[-300:]}")
    lines = [line.split() for line in open(zdd) if not line.startswith("#")]
    first = next(i for i, f in enumerate(lines) if f[:1] == ["edges"]) + 1  # docs/ZDD_FORMAT.md
    order = [(int(f[1]), int(f[2])) for f in lines[first:first + int(lines[first - 1][1])]]
    if sorted(map(tuple, map(sorted, order))) != sorted(edges):
        sys.exit(f"{zdd}: its edges are not the graph's ({len(order)} against {len(edges)}); see docs/ZDD_FORMAT.md")
    ordered = os.path.join(workdir, f"{name}.edges")
    with open(ordered, "w") as f:
        f.writelines(f"{u} {v}\n" for u, v in order)
    vertices = len({x for e in edges for x in e})
    where = f", {hops} hops apart" if hops is not None else ""
    return Case(name, vertices, len(edges), [ordered, s, t], f"{name}: {path}, s={s} t={t}{where}")


class Case:
    """What the programs count: the K x K-cell grid (k) or a graph file in its edge order, with its ends."""

    def __init__(self, name, vertices, edges, files=None, about=None, k=None):
        self.name, self.vertices, self.edges, self.files, self.about, self.k = name, vertices, edges, files, about, k

    def ulibc(self):
        return ["--grid", self.k] if self.k else ["--file", self.files[0], "--s", self.files[1], "--t",
                                                    self.files[2], "--order", "input"]

    def tdzdd(self):
        return ["--grid", self.k] if self.k else ["--edges"] + self.files


class Program:
    def __init__(self, label, cmd, env=None):
        self.label, self.cmd, self.env = label, cmd, env
        self.dead = None  # why it is not run any more

    def measure(self, args, case):
        status, out, rss, err = run(self.cmd(case), args.timeout, args.mem_limit, self.env)
        if status != "ok":
            return status, err
        try:
            rec = json.loads(out)
        except ValueError:
            return "failed (no JSON on stdout)", out[-300:]
        own = int(rec.get("peak_rss_bytes", 0)) or None
        if self.label.startswith("Graphillion") and "zdd_nodes" in rec:
            rss = own  # before its node-counting dump
        return "ok", {"seconds": float(rec["seconds"]["total"]), "count": int(rec["count"]), "rss": rss or own,
                      "nodes": rec.get("zdd_nodes"), "built": rec.get("nodes_built", rec.get("states")), "rec": rec}


def probe_ulibc(args):
    if not os.access(args.ulibc, os.X_OK):
        return f"not an executable: {args.ulibc}"
    status, out, _, err = run([args.ulibc, "simpath", "--grid", 2, "--threads", 1, "--policy", "compact",
                               "--json"], 120)
    if status != "ok":
        return f"`ulibc simpath` {status}: {err.strip()[-300:]}"
    try:
        count = json.loads(out)["count"]
    except (ValueError, KeyError, TypeError):
        return f"`ulibc simpath --json` printed no JSON with a count: {out[:200]!r}"
    return None if str(count) == "12" else f"`ulibc simpath --grid 2` counts {count}, not 12"


def build_driver(args, workdir):
    src, exe = os.path.join(workdir, "tdzdd_simpath.cpp"), os.path.join(workdir, "tdzdd_simpath")
    with open(src, "w") as f:
        f.write(DRIVER_SOURCE)
    status, _, _, err = run([TDZDD_CXX] + TDZDD_FLAGS + ["-I", os.path.join(args.tdzdd, "include"), src, "-o",
                                                          exe], 600)
    if status != "ok":
        sys.exit(f"compiling the TdZdd driver {status}: {COMMANDS[-1]}\n{err}")
    return exe


def header_lines(args):
    lines = [" ".join(sys.argv)]
    lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    model = next((l.split(":", 1)[1].strip() for l in lscpu.splitlines() if l.startswith("Model name")), "?")
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    lines.append(f"machine: {model}, {os.cpu_count()} CPUs, {memory:.0f} GiB")
    cc = subprocess.run([TDZDD_CXX, "--version"], capture_output=True, text=True).stdout.splitlines()
    lines.append(f"compiler: {cc[0] if cc else '?'} {' '.join(TDZDD_FLAGS)}")
    if args.tdzdd:
        commit = subprocess.run(["git", "-C", args.tdzdd, "log", "-1", "--format=%H %cs"], capture_output=True,
                                text=True).stdout.strip()
        lines.append(f"TdZdd: {args.tdzdd} at {commit or '?'}")
    if args.graphillion_python:
        ver = subprocess.run([args.graphillion_python, "-c", "import graphillion, sys; print("
                              "graphillion.__version__, sys.version.split()[0])"], capture_output=True, text=True)
        lines.append(f"Graphillion: {ver.stdout.strip() or ver.stderr.strip()[-200:]} ({args.graphillion_python}),"
                     f" traversal={args.graphillion_traversal}")
    return lines


def cell(results, label, key, fmt):
    vals = [r[key] for r in results.get(label, []) if isinstance(r, dict) and r.get(key) is not None]
    fails = [r for r in results.get(label, []) if isinstance(r, str)]
    if not vals:
        return fails[0] if fails else "-"
    return fmt(statistics.median(vals) if key == "seconds" else max(vals)) + (f" ({fails[0]} once)" if fails else "")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ulibc", help="the ulibc binary (build/bin/ulibc)")
    parser.add_argument("--tdzdd", default=os.environ.get("TDZDD_DIR"), help="TdZdd's clone (default $TDZDD_DIR)")
    parser.add_argument("--graphillion-python", default=os.environ.get("GRAPHILLION_PYTHON"),
                        help="a Python with graphillion installed (default $GRAPHILLION_PYTHON)")
    parser.add_argument("--graphillion-traversal", default="as-is", choices=["as-is", "greedy", "bfs", "dfs"])
    parser.add_argument("--no-graphillion-nodes", action="store_true", help="skip counting Graphillion's ZDD")
    parser.add_argument("--grids", default="9,10,11,12,13,14", help="values of K (K x K cells)")
    parser.add_argument("--graph", action="append", default=[], metavar="NAME=FILE:S:T",
                        help="a real graph too (MATPOWER .m, TNTP _net.tntp or 'u v' lines; S, T or 'far')")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--threads", default="1,2", help="ULIBC's and TdZdd's thread counts")
    parser.add_argument("--timeout", type=float, default=600, help="seconds per run (default 600)")
    parser.add_argument("--mem-limit", type=float, help="GiB of address space per run (RLIMIT_AS)")
    parser.add_argument("--workdir", help="for the driver (default: a temporary directory, removed after)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory")
    args = parser.parse_args()
    args.ulibc = os.path.abspath(args.ulibc)
    grids = [int(k) for k in args.grids.split(",") if k]
    threads = sorted({int(t) for t in args.threads.split(",")})
    if args.tdzdd and not os.path.isfile(os.path.join(args.tdzdd, "include", "tdzdd", "spec", "PathZdd.hpp")):
        sys.exit(f"not a TdZdd clone (no include/tdzdd/spec/PathZdd.hpp): {args.tdzdd}")
    workdir = args.workdir or tempfile.mkdtemp(prefix="simpath_vs_peers.")
    os.makedirs(workdir, exist_ok=True)
    for line in header_lines(args) + ([f"work directory: {workdir}"] if args.keep else []):
        print(f"# {line}")
    sys.stdout.flush()

    programs = []
    why = probe_ulibc(args)
    if why:
        print(f"# ULIBC skipped: {why}")
    else:
        for t in threads:
            programs.append(Program(f"ULIBC {t}t", lambda c, t=t: [args.ulibc, "simpath"] + c.ulibc() +
                                    ["--threads", t, "--policy", "compact", "--json"]))
    if args.tdzdd:
        driver = build_driver(args, workdir)
        for t in threads:
            env = {"OMP_NUM_THREADS": str(t), "OMP_PROC_BIND": "close", "OMP_PLACES": "cores"}
            programs.append(Program(f"TdZdd {t}t", lambda c, t=t: [driver] + c.tdzdd() + ["--threads", t], env))
    else:
        print("# TdZdd skipped: no --tdzdd DIR nor $TDZDD_DIR")
    if args.graphillion_python:
        script = os.path.join(workdir, "gx_simpath.py")
        with open(script, "w") as f:
            f.write(GRAPHILLION_SOURCE)
        nodes = "0" if args.no_graphillion_nodes else "1"
        programs.append(Program("Graphillion 1t", lambda c: [args.graphillion_python, script, c.k,
                                args.graphillion_traversal, nodes], {"OMP_NUM_THREADS": "1"}))
    else:
        print("# Graphillion skipped: no --graphillion-python PATH nor $GRAPHILLION_PYTHON")
    if not programs:
        sys.exit("nothing to run")

    cases = [Case(str(k), (k + 1) ** 2, 2 * k * (k + 1), k=k) for k in grids]
    if args.graph and not why:
        cases += [prepare_graph(args, spec, workdir) for spec in args.graph]
    for c in cases:
        if c.about:
            print(f"# {c.about}")
    rows = []
    for case in cases:
        k = case.name
        results = {p.label: [] for p in programs}
        counts = {}  # label -> count
        for rnd in range(args.rounds):
            for p in programs:
                if p.label.startswith("Graphillion") and not case.k:
                    continue  # grids only
                if p.dead:
                    if rnd == 0:
                        results[p.label].append(f"skipped ({p.dead})")
                    continue
                status, res = p.measure(args, case)
                if status != "ok":
                    p.dead = f"{status} at K={k}"
                    results[p.label].append(status)
                    print(f"# K={k} round {rnd + 1}: {p.label}: {status}; {res.strip()[-200:]!r}")
                    continue
                results[p.label].append(res)
                counts[p.label] = res["count"]
                known = KNOWN.get(case.k)
                if len(set(counts.values())) > 1 or (known is not None and res["count"] != known):
                    sys.exit(f"COUNT MISMATCH at K={k}: {counts}" + (f", OEIS A007764: {known}" if known else ""))
                rss = f"{res['rss'] / 2**20:.1f} MiB" if res["rss"] else "?"
                print(f"# K={k} round {rnd + 1}: {p.label}: {res['seconds']:.4f} s, peak RSS {rss}, ZDD nodes "
                      f"{res['nodes']}, built {res['built']}; {json.dumps(res['rec']['seconds'])}"
                      + (f"; order {res['rec']['order']}" if "order" in res["rec"] else "") + "; load "
                      f"{os.getloadavg()[0]:.2f}")
                sys.stdout.flush()
        rows.append((case, results, next(iter(counts.values()), None)))

    labels = [p.label for p in programs]
    ulibc = [l for l in labels if l.startswith("ULIBC")]
    peers = [l for l in labels if not l.startswith("ULIBC") and l.endswith(" 1t")]
    print()
    print(f"Simple s-t paths in the K x K-cell grid (corner to corner) and the graphs above: medians over {args.rounds} alternating "
          f"rounds of each program's own seconds; speed = faster peer on 1 thread / {ulibc[0] if ulibc else 'ULIBC'}"
          f" (above 1: ULIBC faster).")
    print()
    head = ["K or graph", "vertices", "edges", "paths"] + [f"{l} s" for l in labels] + ["speed", "ULIBC speed-up"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---:" for _ in head) + "|")
    for case, results, count in rows:
        med = {l: statistics.median(v) for l in labels
               if (v := [r["seconds"] for r in results[l] if isinstance(r, dict)])}
        fast = min((med[l] for l in peers if l in med), default=None)
        speed = f"{fast / med[ulibc[0]]:.2f}" if ulibc and ulibc[0] in med and fast else "n/a"
        up = f"{med[ulibc[0]] / med[ulibc[-1]]:.2f}" if len(ulibc) > 1 and ulibc[-1] in med and ulibc[0] in med \
            else "n/a"
        print(f"| {case.name} | {case.vertices} | {case.edges} | {count if count is not None else '?'} | " +
              " | ".join(cell(results, l, "seconds", lambda x: f"{x:.4g}") for l in labels) + f" | {speed} | {up} |")
    print()
    print("Peak RSS (MiB, the largest of the rounds) and ZDD nodes after reduction (before it: TdZdd's nodes built, "
          "ULIBC's states).")
    print()
    head = ["K or graph"] + [f"{l} RSS" for l in labels] + [f"{l} nodes" for l in labels] + \
        [f"{l} built" for l in labels if not l.startswith("Graphillion")]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join("---:" for _ in head) + "|")
    for case, results, _ in rows:
        print(f"| {case.name} | " + " | ".join(cell(results, l, "rss", lambda x: f"{x / 2**20:.1f}") for l in labels) +
              " | " + " | ".join(cell(results, l, "nodes", lambda x: f"{x:,}") for l in labels) + " | " +
              " | ".join(cell(results, l, "built", lambda x: f"{x:,}") for l in labels
                         if not l.startswith("Graphillion")) + " |")
    print()
    print("# commands:")
    for c in dict.fromkeys(COMMANDS):
        print(f"#   {c}")
    if not args.workdir and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
