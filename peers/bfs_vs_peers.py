#!/usr/bin/python3
"""Graph500 BFS: `ulibc bench bfs` against GAP's bfs and the Boost Graph Library, side by side.

Method. For each SCALE, one Kronecker graph (edgefactor 16) and its 64 roots,
both chosen by ULIBC, are searched by three programs:

  ULIBC  `ulibc bench bfs --scale S --edgefactor 16 --threads T --policy compact
         --variants do --root R1,R2,... --json`: the direction-optimizing kernel
         on T threads placed by the compact policy, its search timer covering
         the re-initialisation of its state (allocated once per run). A first
         run draws the roots (--roots 64) and writes the tuples
         (--write-graph gS.bin); a second, on that file with one root, writes
         them as text (gS.el) for GAP's converter. Each round generates the
         graph again from the same seed and searches the first run's roots;
         its vertex, tuple and per-root edge counts are checked against the
         first run's.
  GAP    GAP Benchmark Suite's bfs (github.com/sbeamer/gapbs), built outside
         this repository with its own Makefile (g++ -std=c++11 -O3 -Wall
         -fopenmp). GAP's `bfs -r R` searches from one root only, so by default
         a small driver (DRIVER_SOURCE below, compiled into the work directory
         with GAP's flags against GAP's src/) includes GAP's src/bfs.cc
         unchanged, loads the graph once with GAP's Builder and times
         DOBFS(g, root) for each of the 64 roots exactly as GAP's
         BenchmarkKernel times a trial: the timer covers the whole DOBFS call,
         allocation and initialisation of the parent array, queue and bitmaps
         included. `--gap-mode processes` runs GAP's own binary instead,
         `bfs -f G.sg -r R -n 1` once per root (each trial then is a fresh
         process's first, and GAP prints 5 decimals). Either way under
         `ulibc run --policy compact -n T`, which sets OMP_PLACES,
         OMP_PROC_BIND and OMP_NUM_THREADS for GAP's OpenMP threads as ULIBC
         binds its own; the driver prints the processor each thread runs on.
         GAP reads the graph from a .sg file made once by GAP's converter
         from the .el that ULIBC writes (comment lines removed; a self-loop on
         the last vertex appended, which GAP drops, so that GAP counts the
         same vertices even when the last ones have no edges).
  Boost  peers/bfs_boost.cpp (ulibc_peer_bfs_boost): boost::breadth_first_search
         on a compressed_sparse_row_graph, recording parents; sequential (BGL's
         BFS has no parallel version). It reads ULIBC's binary edge list.

All three graphs are the same undirected graph: both arcs of each edge,
self-loops and duplicates dropped. TEPS for every program and root use
ULIBC's count of that root's edges (Graph500's input tuples in the root's
component); each program's figure is the harmonic mean over the roots.
Rounds alternate ULIBC, GAP, Boost; the report gives medians over rounds of
each harmonic mean and of the per-round ratios ULIBC/GAP and ULIBC/Boost
(above 1: ULIBC is faster).

Memory, per input tuple (edgefactor x 2^SCALE), two ways. Peak RSS: the
process's high-water mark (GNU time's %M from /usr/bin/time; wait4's
ru_maxrss without it), the largest of the rounds. It counts whatever a
program holds while getting its graph and checking its answers: ULIBC holds
no tuples (its kernel counts and scatters them as the generator draws them,
twice, and its validator draws them again for each search) but its
validator's 9 bytes a vertex count here; GAP loads a ready .sg; Boost reads
the tuples and builds. Structural: the graph and one search's state. ULIBC:
its record's parameters.graph_bytes (what it holds outside the kernel: 0 for
a generated graph, a file's tuples) + the variant's details.kernel_bytes (the
kernel's lists, ordered for the search, as allocated, and its per-vertex
state). GAP, computed from its vertex and edge counts: the CSR, (n+1) 8-byte
row pointers + arcs x 4, and DOBFS's parent array (n x 4), sliding queue
(n x 4) and two bitmaps (n / 8 each). Boost, from its record: the CSR,
(n+1) x 8 + arcs x 4, with the parent array (n x 4) and two-bit colour map (n / 4).

usage: bfs_vs_peers.py ULIBC [--gap DIR] [--boost PATH] [--workdir DIR] [--scales 20,22]
                       [--threads 2] [--rounds 3] [--roots 64] [--seed N] [--variant do]
                       [--gap-mode driver|processes] [--keep]
  ULIBC is build/bin/ulibc; DIR holds GAP's built bfs and converter (default
  $GAPBS_DIR); PATH defaults to ulibc_peer_bfs_boost next to ULIBC.
Example:
  git clone https://github.com/sbeamer/gapbs /tmp/gapbs && make -C /tmp/gapbs bfs converter
  /usr/bin/python3 peers/bfs_vs_peers.py build/bin/ulibc --gap /tmp/gapbs --scales 20,22 --rounds 3
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # importing peers_common leaves no __pycache__ in the source tree
from peers_common import (COMMANDS, GAP_DRIVER_HELPERS, build_gap_driver, gap_launch, machine_lines,
                          print_commands, run)

# Compiled with GAP's Makefile flags into the work directory (peers_common.build_gap_driver).
DRIVER_SOURCE = r'''// gap_bfs_roots.cc -- GAP's bfs, unchanged, with the roots given in a file.
// Includes GAP's src/bfs.cc verbatim (its main() renamed away) and does what
// GAP's BenchmarkKernel (src/benchmark.h) does for each trial -- a Timer
// around DOBFS(g, root), the parent array freed outside the timed region --
// once per root of the file. The graph is loaded once, by GAP's Builder.
// Usage: gap_bfs_roots GRAPH.sg ROOTS.txt [-v]
#define main gap_bfs_main
#include "bfs.cc"
#undef main

#include <sched.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>
#include <omp.h>

@GAP_DRIVER_HELPERS@
int main(int argc, char* argv[]) {
  if (argc < 3 || argc > 4 || (argc == 4 && std::strcmp(argv[3], "-v") != 0)) {
    std::fprintf(stderr, "usage: %s GRAPH.sg ROOTS.txt [-v]\n", argv[0]);
    return 2;
  }
  std::ifstream roots_file(argv[2]);
  if (!roots_file) {
    std::fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[2]);
    return 2;
  }
  std::vector<NodeID> roots;
  for (long long r; roots_file >> r;) roots.push_back(static_cast<NodeID>(r));
  const bool verify = argc == 4;

  // GAP's command line object, given only "-f GRAPH": GAP's Builder reads it.
  std::string prog = argv[0], flag = "-f", file = argv[1];
  char* cl_argv[] = {&prog[0], &flag[0], &file[0], nullptr};
  CLApp cli(3, cl_argv, "breadth-first search (roots from a file)");
  if (!cli.ParseArgs()) return 2;
  Builder b(cli);
  Graph g = b.MakeGraph();
  g.PrintStats();
  for (NodeID r : roots)
    if (r < 0 || r >= g.num_nodes()) {
      std::fprintf(stderr, "%s: root %d outside 0..%lld\n", argv[0], r, (long long)g.num_nodes() - 1);
      return 2;
    }

  print_thread_cpus();  // where the OpenMP threads run

  // GAP's CSR: an index of n+1 pointers into one array of 32-bit neighbours
  // (an undirected graph stores its out-arcs only; in_neigh is out_neigh).
  const long long graph_bytes = (g.num_nodes() + 1) * (long long)sizeof(NodeID*) +
                                g.num_edges_directed() * (long long)sizeof(NodeID) *
                                    (g.directed() ? 2 : 1);
  std::printf("Graph Bytes: %lld\n", graph_bytes);

  double total_seconds = 0;
  Timer trial_timer;
  for (NodeID root : roots) {
    trial_timer.Start();
    auto result = DOBFS(g, root);
    trial_timer.Stop();
    long long reached = 0;
    for (NodeID n = 0; n < g.num_nodes(); n++) reached += result[n] >= 0;
    std::printf("Root: %d  Trial Time: %.9f  Reached: %lld\n", root, trial_timer.Seconds(), reached);
    total_seconds += trial_timer.Seconds();
    if (verify) std::printf("Verification: %s\n", BFSVerifier(g, root, result) ? "PASS" : "FAIL");
  }
  if (!roots.empty()) PrintTime("Average Time", total_seconds / roots.size());
  std::printf("Peak RSS: %lld\n", vm_hwm_bytes());
  return 0;
}
'''.replace("@GAP_DRIVER_HELPERS@", GAP_DRIVER_HELPERS)


def harmonic_teps(seconds_by_root, edges_by_root):
    """Harmonic mean over the roots of edges / seconds."""
    roots = list(edges_by_root)
    return len(roots) / sum(seconds_by_root[r] / edges_by_root[r] for r in roots)


def ulibc_result(record, variant):
    results = record["runs"][0]["results"]
    for res in results:
        if res.get("variant") == variant:
            return res
    sys.exit(f"ulibc's record has no variant {variant!r}: {[r.get('variant') for r in results]}")


def run_ulibc(args, scale, roots=None, write_graph=None, graph_file=None):
    cmd = [args.ulibc, "bench", "bfs"]
    cmd += ["--file", graph_file] if graph_file else ["--scale", scale, "--edgefactor", args.edgefactor]
    if args.seed is not None and not graph_file:
        cmd += ["--seed", args.seed]
    cmd += ["--threads", args.threads, "--policy", "compact", "--variants", args.variant]
    cmd += ["--root", ",".join(str(r) for r in roots)] if roots else ["--roots", args.roots]
    if write_graph:
        cmd += ["--write-graph", write_graph]
    cmd += ["--json"]
    out, rss, _ = run(cmd)
    record = json.loads(out)
    res = ulibc_result(record, args.variant)
    searches = res["details"]["searches"]
    if not res.get("valid", False) or not all(s.get("valid", True) for s in searches):
        sys.exit(f"ulibc's BFS failed its validation: {COMMANDS[-1]}")
    return record, res, rss


def run_gap(args, gap_driver, sg, roots_file, roots):
    launch = gap_launch(args.ulibc, args.threads)
    if args.gap_mode == "driver":
        out, rss, _ = run(launch + [gap_driver, sg, roots_file])
        seconds = {int(m.group(1)): float(m.group(2))
                   for m in re.finditer(r"^Root: (\d+)\s+Trial Time: ([0-9.]+)", out, re.M)}
        reached = {int(m.group(1)): int(m.group(2))
                   for m in re.finditer(r"^Root: (\d+)\s+Trial Time: [0-9.]+\s+Reached: (\d+)", out, re.M)}
        cpus = re.search(r"^Threads: .*$", out, re.M)
        info = {"cpus": cpus.group(0) if cpus else "?"}
    else:
        seconds, reached, rss, info = {}, {}, 0, {"cpus": "not reported (stock bfs)"}
        for r in roots:
            out, r_rss, _ = run(launch + [os.path.join(args.gap, "bfs"), "-f", sg, "-r", r, "-n", 1, "-a"])
            seconds[r] = float(re.search(r"^Trial Time:\s+([0-9.]+)", out, re.M).group(1))
            tree = re.search(r"BFS Tree has (\d+) nodes", out)
            if tree:
                reached[r] = int(tree.group(1))
            rss = max(rss, r_rss)
    nodes = re.search(r"Graph has (\d+) nodes and (\d+) undirected edges", out)
    info["vertices"] = int(nodes.group(1))
    info["edges"] = int(nodes.group(2))
    if set(seconds) != set(roots):
        sys.exit(f"GAP's output lacks roots: {sorted(set(roots) - set(seconds))[:5]}")
    return seconds, reached, rss, info


def run_boost(args, graph, roots_file):
    out, rss, _ = run([args.boost, graph, "--roots", roots_file])
    record = json.loads(out)
    seconds = {s["root"]: s["seconds"] for s in record["searches"]}
    reached = {s["root"]: s["reached"] for s in record["searches"]}
    return record, seconds, reached, rss


def prepare_gap_graph(args, el, sg, vertices):
    """GAP's .sg from ULIBC's .el: comments out, a dropped self-loop on the last vertex in."""
    plain = el + ".gap.el"
    COMMANDS.append(f"grep -v '^[#%]' {el} > {plain}; echo '{vertices - 1} {vertices - 1}' >> {plain}")
    with open(plain, "w") as f:
        subprocess.run(["grep", "-v", "^[#%]", el], stdout=f, check=True)
        f.write(f"{vertices - 1} {vertices - 1}\n")
    run([os.path.join(args.gap, "converter"), "-f", plain, "-s", "-b", sg])
    os.remove(plain)


def build_driver(args, workdir):
    return build_gap_driver(args.gap, workdir, "gap_bfs_roots", DRIVER_SOURCE)


def mib(x):
    return x / 2**20


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ulibc", help="the ulibc binary (build/bin/ulibc)")
    parser.add_argument("--gap", default=os.environ.get("GAPBS_DIR"),
                        help="GAP's directory, with bfs and converter built (default $GAPBS_DIR)")
    parser.add_argument("--boost", help="ulibc_peer_bfs_boost (default: next to ULIBC)")
    parser.add_argument("--workdir", help="for graphs and roots (default: a temporary directory, removed after)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory's files")
    parser.add_argument("--scales", default="20,22")
    parser.add_argument("--edgefactor", type=int, default=16)
    parser.add_argument("--threads", type=int, default=2, help="of ULIBC and GAP (Boost is sequential)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--roots", type=int, default=64, help="roots per graph, chosen by ULIBC (default 64)")
    parser.add_argument("--seed", type=int, help="ULIBC's generator seed (default: ULIBC's)")
    parser.add_argument("--variant", default="do", help="ULIBC's BFS variant to compare (default do)")
    parser.add_argument("--gap-mode", choices=["driver", "processes"], default="driver")
    args = parser.parse_args()
    if not args.gap or not os.path.isfile(os.path.join(args.gap, "converter")):
        sys.exit("GAP's built directory is needed: --gap DIR or GAPBS_DIR (make -C DIR bfs converter)")
    args.ulibc = os.path.abspath(args.ulibc)
    args.boost = os.path.abspath(args.boost or os.path.join(os.path.dirname(args.ulibc), "ulibc_peer_bfs_boost"))
    for tool in (args.ulibc, args.boost):
        if not os.access(tool, os.X_OK):
            sys.exit(f"not an executable: {tool}")
    workdir = args.workdir or tempfile.mkdtemp(prefix="bfs_vs_peers.")
    os.makedirs(workdir, exist_ok=True)

    print(f"# {' '.join(sys.argv)}")
    for line in machine_lines(args.gap, "built with `make bfs converter`"):
        print(f"# {line}")
    sys.stdout.flush()
    gap_driver = build_driver(args, workdir) if args.gap_mode == "driver" else None

    rows = []
    for scale in [int(s) for s in args.scales.split(",")]:
        tag = os.path.join(workdir, f"g{scale}")
        # Once: the graph and ULIBC's roots, written for the peers.
        record, res, _ = run_ulibc(args, scale, write_graph=tag + ".bin")
        params = record["parameters"]
        roots = [int(r) for r in params["roots"]]
        vertices, input_edges = int(params["vertices"]), int(params["input_edges"])
        edges = {int(s["root"]): int(s["edges"]) for s in res["details"]["searches"]}
        roots_file = tag + ".roots"
        with open(roots_file, "w") as f:
            f.write("".join(f"{r}\n" for r in roots))
        # The text edge list for GAP's converter, written from the same binary file
        # (one search: this run is not measured).
        run_ulibc(args, scale, roots=roots[:1], write_graph=tag + ".el", graph_file=tag + ".bin")
        prepare_gap_graph(args, tag + ".el", tag + ".sg", vertices)
        os.remove(tag + ".el")

        ulibc_hm, gap_hm, boost_hm, r_gap, r_boost = [], [], [], [], []
        rss = {"ULIBC": [], "GAP": [], "Boost": []}
        for rnd in range(args.rounds):
            rec, res, u_rss = run_ulibc(args, scale, roots=roots)
            p = rec["parameters"]
            if (int(p["vertices"]), int(p["input_edges"])) != (vertices, input_edges):
                sys.exit(f"ULIBC's graph changed between runs: {p['vertices']} {p['input_edges']}")
            u_sec = {int(s["root"]): float(s["seconds"]) for s in res["details"]["searches"]}
            u_edges = {int(s["root"]): int(s["edges"]) for s in res["details"]["searches"]}
            if u_edges != edges:
                sys.exit("ULIBC's per-root edge counts changed between runs")
            g_sec, g_reached, g_rss, g_info = run_gap(args, gap_driver, tag + ".sg", roots_file, roots)
            b_rec, b_sec, b_reached, b_rss = run_boost(args, tag + ".bin", roots_file)
            if g_info["vertices"] != vertices or b_rec["vertices"] != vertices:
                print(f"# warning: vertex counts differ: ULIBC {vertices}, GAP {g_info['vertices']}, "
                      f"Boost {b_rec['vertices']}")
            u_reached = {int(s["root"]): int(s["reached"]) for s in res["details"]["searches"]}
            mismatched = [r for r in roots if g_reached.get(r, u_reached[r]) != u_reached[r] or
                          b_reached[r] != u_reached[r]]
            if mismatched:
                print(f"# warning: ULIBC, GAP and Boost reach different vertex counts from roots {mismatched[:5]}")
            u, g, b = (harmonic_teps(s, edges) for s in (u_sec, g_sec, b_sec))
            ulibc_hm.append(u), gap_hm.append(g), boost_hm.append(b)
            r_gap.append(u / g), r_boost.append(u / b)
            rss["ULIBC"].append(u_rss), rss["GAP"].append(g_rss), rss["Boost"].append(b_rss)
            own = next((m["value"] for m in res["measurements"] if m["name"] == "GTEPS"), float("nan"))
            load = " ".join(f"{x:.2f}" for x in os.getloadavg())
            print(f"# SCALE {scale} round {rnd + 1}: GTEPS ULIBC {u * 1e-9:.4f} (its own figure {own:.4f}), "
                  f"GAP {g * 1e-9:.4f}, Boost {b * 1e-9:.4f}; GAP's threads: {g_info['cpus']}; load {load}")
            sys.stdout.flush()

        n = vertices
        gap_struct = (n + 1) * 8 + 2 * g_info["edges"] * 4  # GAP's CSR, as its driver prints it
        gap_struct += n * 4 + n * 4 + 2 * ((n + 63) // 64) * 8
        rows.append({
            "scale": scale, "vertices": vertices, "input_edges": input_edges, "arcs": b_rec["arcs"],
            "gteps": [statistics.median(x) * 1e-9 for x in (ulibc_hm, gap_hm, boost_hm)],
            "ratios": [statistics.median(r_gap), statistics.median(r_boost)],
            "rss": [max(rss[k]) / input_edges for k in ("ULIBC", "GAP", "Boost")],
            "struct": [(int(p["graph_bytes"]) + int(res["details"]["kernel_bytes"])) / input_edges,
                       gap_struct / input_edges,
                       (b_rec["graph_bytes"] + b_rec["state_bytes"]) / input_edges],
            "boost_version": b_rec["peer"],
        })
        if not args.keep:
            for ext in (".bin", ".sg", ".roots"):
                os.remove(tag + ext)

    print()
    print(f"Graph500 BFS, Kronecker edgefactor {args.edgefactor}, {args.roots} roots chosen by ULIBC; "
          f"ULIBC ({args.variant}) and GAP on {args.threads} threads (compact), Boost sequential; "
          f"medians over {args.rounds} alternating rounds of the harmonic-mean TEPS.")
    print()
    print("| SCALE | vertices | input edges | ULIBC GTEPS | GAP GTEPS | Boost GTEPS | ULIBC/GAP | ULIBC/Boost |")
    print("|------:|---------:|------------:|------------:|----------:|------------:|----------:|------------:|")
    for r in rows:
        u, g, b = r["gteps"]
        print(f"| {r['scale']} | {r['vertices']:,} | {r['input_edges']:,} | {u:.3f} | {g:.3f} | {b:.3f} | "
              f"{r['ratios'][0]:.2f} | {r['ratios'][1]:.2f} |")
    print()
    print("Bytes per input edge: peak RSS (the largest of the rounds) and structural (graph + one search's state).")
    print()
    print("| SCALE | ULIBC RSS | GAP RSS | Boost RSS | ULIBC structural | GAP structural | Boost structural |")
    print("|------:|----------:|--------:|----------:|-----------------:|---------------:|-----------------:|")
    for r in rows:
        print(f"| {r['scale']} | " + " | ".join(f"{x:.1f}" for x in r["rss"]) + " | " +
              " | ".join(f"{x:.1f}" for x in r["struct"]) + " |")
    print()
    if rows:
        print(f"# Boost: {rows[0]['boost_version']}")
    print_commands()
    if not args.workdir and not args.keep:
        shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
