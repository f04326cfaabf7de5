#!/usr/bin/python3
"""Single-source shortest paths: `ulibc sssp` against GAP's sssp and the Boost Graph Library, side by side.

Method. One road-like graph (a ROWS x COLS grid, 1000 x 1000 = 1M vertices
by default) and K sources (16), both made by ULIBC and written once as DIMACS
9th challenge files, g.gr and g.ss, are solved by three programs, one query
(one source) at a time, every query timed on its own:

  ULIBC  `ulibc sssp --graph g.gr --sources g.ss --algorithm A [--delta D]
         --threads T --policy compact --json`: each listed algorithm (default
         radix and delta) at each thread count it runs at (radix and binary,
         Dijkstra on a radix or a binary heap, are sequential: 1 thread only;
         delta is Δ-stepping, each query on all T threads, placed by the
         compact policy; many, which spreads the queries over the threads,
         answers no single query faster and is left to `ulibc bench sssp`).
         A query's time covers all of it, the initialisation of the distance
         array included. The comparison takes, at each thread count, the
         algorithm with the lowest median. The first run, `ulibc sssp
         --generate ROWS,COLS --write-graph g.gr --write-sources g.ss
         --queries K --no-solve`, makes the files (--graph and --sources give
         ready ones instead, e.g. USA-road-d.NY.gr).
  GAP    GAP Benchmark Suite's sssp (github.com/sbeamer/gapbs): Δ-stepping
         with bucket fusion, 32-bit weights and distances. A small driver
         (DRIVER_SOURCE below), compiled into the work directory with GAP's
         Makefile flags (g++ -std=c++11 -O3 -Wall -fopenmp) against GAP's
         src/, includes GAP's src/sssp.cc unchanged, loads the graph once with
         GAP's WeightedBuilder from the .gr, and times DeltaStep(g, source,
         Δ) for each source exactly as GAP's BenchmarkKernel times a trial:
         the timer covers the whole call, allocation and initialisation of
         the distance array and frontier included; the result is freed, and
         the checksum computed, outside it. It runs under `ulibc run --policy
         compact -n T`, which sets OMP_PLACES, OMP_PROC_BIND and
         OMP_NUM_THREADS for GAP's OpenMP threads as ULIBC binds its own (the
         driver prints the processor each thread runs on). GAP's reader
         subtracts 1 from DIMACS ids, so GAP's vertex v is ULIBC's 0-based v
         and the DIMACS id v + 1: the driver reads the same g.ss and
         subtracts 1. GAP counts max id + 1 vertices (it ignores the problem
         line), so it reads a copy of g.gr with a self-loop on the last
         vertex appended, which GAP's builder drops: the same n even when the
         last vertices have no arcs. GAP also drops parallel arcs (keeping the
         lightest) and self-loops, which changes no distance.
  Boost  peers/sssp_boost.cpp (ulibc_peer_sssp_boost): BGL's
         dijkstra_shortest_paths on a compressed_sparse_row_graph with the
         same arcs (parallel ones kept), 64-bit distances in a vector
         allocated in each query's timer, no predecessors (ULIBC and GAP
         compute distances only); sequential. It reads g.gr with ULIBC's
         reader. --boost-variant no-color times BGL's no_color_map version.

Fairness. Every program gets the same graph and sources, and the same
processors: ULIBC and GAP T threads placed compactly; Boost, which has no
parallel Dijkstra, one thread (not pinned). Reading and building the graph is
never timed. GAP's Δ is tuned for the graph: by default (--gap-delta auto) a
tuning run at each thread count tries Δ = mean arc weight x 1, 2, 4, ...,
64 on the first few sources (--gap-tune-queries), going on past either end
while the end is the fastest, and the rounds use the fastest; --gap-delta
D1,D2,... tunes over those, --gap-delta D fixes it (GAP's own road setting
is 50000, for USA-road-d). On ULIBC's 1000 x 1000
road graph (mean weight 1,179) GAP's time hardly moves from Δ = 1 to 64 x
the mean weight (66-72 ms a query at 1 thread; 34-36 ms at 2, 40 at Δ = the
mean); 4 to 8 x the mean weight was the fastest. Rounds alternate the
programs (ULIBC, GAP, Boost) so that drift in the machine's state hits all
of them alike.

Checksums. Each program reports, per source, the vertices reached and the
9th challenge's checksum: the sum of the distances to every reachable
vertex, modulo 2^62, computed outside the timer. Every run of every program
must give ULIBC's first run's figures for every source, in the order of
g.ss; any difference stops the script (GAP's 32-bit distances would show up
here: they hold distances below 2^30 only).

Report, per program x algorithm x thread count: the median over rounds of
each run's median query time, and the peak RSS (GNU time's %M, the largest of
the rounds; it counts reading the graph: ULIBC and Boost parse the text, GAP
parses it and builds out- and in-arcs). Per thread count: the median over
rounds of the per-round ratios ULIBC/Boost and ULIBC/GAP, each the other
program's median query time over ULIBC's (above 1: ULIBC is faster), with
the first a sequential Boost against ULIBC on T threads. --json FILE writes
all of it with the machine and every command run. ULIBC's many-query
throughput and the effect of huge pages are ULIBC-only figures: `ulibc bench
sssp`.

usage: sssp_vs_peers.py ULIBC [--gap DIR] [--boost PATH] [--size 1000x1000 | --rows R --cols C]
                        [--graph G.gr --sources S.ss] [--queries 16] [--seed N] [--threads 1,2]
                        [--rounds 3] [--ulibc-algorithms radix,delta] [--ulibc-delta D]
                        [--gap-delta auto|D[,D...]] [--gap-tune-queries 8] [--boost-variant V]
                        [--work-dir DIR] [--keep] [--json FILE]
  ULIBC is build/bin/ulibc; DIR is GAP's source directory (default $GAPBS_DIR;
  only its src/ is used); PATH defaults to ulibc_peer_sssp_boost next to ULIBC.
Example:
  git clone https://github.com/sbeamer/gapbs /tmp/gapbs
  /usr/bin/python3 peers/sssp_vs_peers.py build/bin/ulibc --gap /tmp/gapbs --size 1000x1000 --rounds 3 \\
      --json sssp_peers.json
"""
import argparse
import json
import os
import re
import shutil
import statistics
import sys
import tempfile

sys.dont_write_bytecode = True  # importing peers_common leaves no __pycache__ in the source tree
from peers_common import (COMMANDS, GAP_DRIVER_HELPERS, build_gap_driver, gap_launch, machine_lines, machine_record,
                          print_commands, run, save_record, unique_commands)

# Compiled with GAP's Makefile flags into the work directory (peers_common.build_gap_driver).
DRIVER_SOURCE = r'''// gap_sssp_sources.cc -- GAP's sssp, unchanged, with the sources of a DIMACS .ss file.
// Includes GAP's src/sssp.cc verbatim (its main() renamed away) and does what
// GAP's BenchmarkKernel (src/benchmark.h) does for each trial -- a Timer
// around DeltaStep(g, source, delta), the distances freed outside the timed
// region -- once per source of the file, for each delta given. The graph is
// loaded once, by GAP's WeightedBuilder (a .gr: GAP's reader makes DIMACS ids
// 0-based, as this driver does the sources'). After each trial, outside the
// timer: the vertices reached and the DIMACS checksum, the sum of their
// distances modulo 2^62.
// Usage: gap_sssp_sources GRAPH.gr SOURCES.ss DELTA[,DELTA...] [-v]
#define main gap_sssp_main
#include "sssp.cc"
#undef main

#include <sched.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>
#include <vector>
#include <omp.h>

@GAP_DRIVER_HELPERS@
int main(int argc, char* argv[]) {
  if (argc < 4 || argc > 5 || (argc == 5 && std::strcmp(argv[4], "-v") != 0)) {
    std::fprintf(stderr, "usage: %s GRAPH.gr SOURCES.ss DELTA[,DELTA...] [-v]\n", argv[0]);
    return 2;
  }
  std::vector<WeightT> deltas;
  for (std::string list = argv[3], item; !list.empty();) {
    const std::size_t comma = list.find(',');
    item = list.substr(0, comma);
    list = comma == std::string::npos ? "" : list.substr(comma + 1);
    char* end = nullptr;
    const long long d = std::strtoll(item.c_str(), &end, 10);
    if (item.empty() || *end != '\0' || d < 1 || d > kDistInf) {
      std::fprintf(stderr, "%s: bad delta \"%s\" (1..%d)\n", argv[0], item.c_str(), kDistInf);
      return 2;
    }
    deltas.push_back(static_cast<WeightT>(d));
  }
  if (deltas.empty()) {
    std::fprintf(stderr, "%s: no delta\n", argv[0]);
    return 2;
  }
  std::ifstream sources_file(argv[2]);
  if (!sources_file) {
    std::fprintf(stderr, "%s: cannot open %s\n", argv[0], argv[2]);
    return 2;
  }
  std::vector<long long> sources;  // DIMACS ids, 1-based
  for (std::string line; std::getline(sources_file, line);)
    if (!line.empty() && line[0] == 's') sources.push_back(std::atoll(line.c_str() + 1));
  const bool verify = argc == 5;

  // GAP's command line object, given only "-f GRAPH": GAP's builder reads it.
  std::string prog = argv[0], flag = "-f", file = argv[1];
  char* cl_argv[] = {&prog[0], &flag[0], &file[0], nullptr};
  CLApp cli(3, cl_argv, "single-source shortest paths (sources from a file)");
  if (!cli.ParseArgs()) return 2;
  WeightedBuilder b(cli);
  WGraph g = b.MakeGraph();
  g.PrintStats();
  for (long long s : sources)
    if (s < 1 || s > g.num_nodes()) {
      std::fprintf(stderr, "%s: source %lld outside 1..%lld\n", argv[0], s, (long long)g.num_nodes());
      return 2;
    }

  // The weights GAP keeps (parallel arcs squished to the lightest, self-loops dropped).
  long long weight_min = -1, weight_max = -1, weight_sum = 0;
  for (NodeID u = 0; u < g.num_nodes(); u++)
    for (WNode wn : g.out_neigh(u)) {
      if (weight_min < 0 || wn.w < weight_min) weight_min = wn.w;
      if (wn.w > weight_max) weight_max = wn.w;
      weight_sum += wn.w;
    }
  std::printf("Weights: min %lld  max %lld  mean %.3f\n", weight_min, weight_max,
              g.num_edges_directed() ? double(weight_sum) / g.num_edges_directed() : 0.0);
  print_thread_cpus();  // where the OpenMP threads run

  // GAP's CSR of a directed graph: out- and in-arcs, each an index of n+1
  // pointers into an array of (32-bit head, 32-bit weight).
  const long long graph_bytes = 2 * ((g.num_nodes() + 1) * (long long)sizeof(WNode*) +
                                     g.num_edges_directed() * (long long)sizeof(WNode));
  std::printf("Graph Bytes: %lld\n", graph_bytes);

  const std::uint64_t mask = (std::uint64_t(1) << 62) - 1;
  Timer trial_timer;
  for (WeightT delta : deltas) {
    double total_seconds = 0;
    for (long long s : sources) {
      const NodeID source = static_cast<NodeID>(s - 1);
      trial_timer.Start();
      auto dist = DeltaStep(g, source, delta);
      trial_timer.Stop();
      long long reached = 0;
      std::uint64_t checksum = 0;
      for (NodeID n = 0; n < g.num_nodes(); n++)
        if (dist[n] != kDistInf) {
          reached++;
          checksum = (checksum + static_cast<std::uint64_t>(dist[n])) & mask;
        }
      std::printf("Delta: %d  Source: %lld  Trial Time: %.9f  Reached: %lld  Checksum: %llu\n", delta, s,
                  trial_timer.Seconds(), reached, static_cast<unsigned long long>(checksum));
      total_seconds += trial_timer.Seconds();
      if (verify) std::printf("Verification: %s\n", SSSPVerifier(g, source, dist) ? "PASS" : "FAIL");
    }
    if (!sources.empty()) PrintTime("Average Time", total_seconds / sources.size());
  }
  std::printf("Peak RSS: %lld\n", vm_hwm_bytes());
  return 0;
}
'''.replace("@GAP_DRIVER_HELPERS@", GAP_DRIVER_HELPERS)

SEQUENTIAL = {"radix", "binary"}  # ULIBC's Dijkstras (radix or binary heap): one thread only
MAX_EXTEND = 6                    # --gap-delta auto: at most this many candidates beyond the first seven
MAX_DELTA = 2**30 - 1             # GAP's kDistInf: no larger Δ makes sense


def read_sources(path):
    """The DIMACS ids (1-based) of a .ss file's 's' lines, in order."""
    with open(path) as f:
        return [int(line.split()[1]) for line in f if line.startswith("s")]


def read_problem_line(path):
    """(vertices, arcs) from a .gr file's 'p sp N M' line."""
    with open(path) as f:
        for line in f:
            if line.startswith("p"):
                fields = line.split()
                if len(fields) == 4 and fields[1] == "sp":
                    return int(fields[2]), int(fields[3])
                break
    sys.exit(f"{path}: no 'p sp N M' problem line")


def check_queries(program, queries, sources, reference, reference_name):
    """Each query's source, reached count and checksum against the reference run's; exit on any difference."""
    got = [q["source"] for q in queries]
    if got != sources:
        sys.exit(f"{program} answered other sources than g.ss lists, or in another order:\n  g.ss  {sources[:8]}\n"
                 f"  {program} {got[:8]}")
    bad = [(i, q) for i, q in enumerate(queries)
           if (q["reached"], q["checksum"]) != (reference[i]["reached"], reference[i]["checksum"])]
    if bad:
        lines = [f"  source {q['source']}: {program} reached {q['reached']}, checksum {q['checksum']}; "
                 f"{reference_name} reached {reference[i]['reached']}, checksum {reference[i]['checksum']}"
                 for i, q in bad[:8]]
        hint = ("\n  (GAP's distances are 32-bit: a graph with distances of 2^30 or more cannot be compared with GAP)"
                if program.startswith("GAP") else "")
        sys.exit(f"CHECKSUM MISMATCH: {program} disagrees with {reference_name} on {len(bad)} of {len(queries)} "
                 f"sources:\n" +
                 "\n".join(lines) + hint)


def run_ulibc(args, graph, sources_file, algorithm, threads):
    cmd = [args.ulibc, "sssp", "--graph", graph, "--sources", sources_file, "--algorithm", algorithm]
    if algorithm == "delta" and args.ulibc_delta is not None:
        cmd += ["--delta", args.ulibc_delta]
    cmd += ["--threads", threads, "--policy", "compact", "--json"]
    out, rss, _ = run(cmd)
    record = json.loads(out)
    queries = [{"source": int(q["source"]), "seconds": float(q["seconds"]), "reached": int(q["reached"]),
                "checksum": int(q["checksum"])} for q in record["queries"]]
    return record, queries, rss


def parse_gap(out, deltas, sources):
    """GAP's driver output: per delta, its queries in order; and the graph's counts, weights and threads."""
    by_delta = {d: [] for d in deltas}
    for m in re.finditer(r"^Delta: (\d+)\s+Source: (\d+)\s+Trial Time: ([0-9.]+)\s+Reached: (\d+)\s+"
                         r"Checksum: (\d+)", out, re.M):
        if int(m.group(1)) not in by_delta:
            sys.exit(f"GAP's driver reports a delta it was not given: {m.group(0)}")
        by_delta[int(m.group(1))].append({"source": int(m.group(2)), "seconds": float(m.group(3)),
                                          "reached": int(m.group(4)), "checksum": int(m.group(5))})
    for d, queries in by_delta.items():
        if len(queries) != len(sources):
            sys.exit(f"GAP's driver output lacks queries for delta {d}: {len(queries)} of {len(sources)}")
    nodes = re.search(r"Graph has (\d+) nodes and (\d+) directed edges", out)
    weights = re.search(r"^Weights: min (-?\d+)\s+max (-?\d+)\s+mean ([0-9.]+)", out, re.M)
    cpus = re.search(r"^Threads: .*$", out, re.M)
    graph_bytes = re.search(r"^Graph Bytes: (\d+)", out, re.M)
    if not nodes or not weights:
        sys.exit(f"GAP's driver output lacks its graph's statistics:\n{out[-2000:]}")
    info = {"vertices": int(nodes.group(1)), "arcs": int(nodes.group(2)),
            "weight_min": int(weights.group(1)), "weight_max": int(weights.group(2)),
            "weight_mean": float(weights.group(3)), "cpus": cpus.group(0) if cpus else "?",
            "graph_bytes": int(graph_bytes.group(1)) if graph_bytes else None}
    return by_delta, info


def run_gap(args, driver, gap_graph, sources_file, deltas, threads, sources):
    out, rss, _ = run(gap_launch(args.ulibc, threads) +
                      [driver, gap_graph, sources_file, ",".join(str(d) for d in deltas)])
    by_delta, info = parse_gap(out, deltas, sources)
    return by_delta, info, rss


def run_boost(args, graph, sources_file):
    cmd = [args.boost, graph, "--sources", sources_file]
    if args.boost_variant:
        cmd += ["--variant", args.boost_variant]
    out, rss, _ = run(cmd)
    record = json.loads(out)
    return record, record["queries"], rss


def prepare_gap_graph(graph, gap_graph, vertices):
    """GAP's copy of the .gr: a self-loop on the last vertex appended (GAP drops it, but counts the vertex)."""
    COMMANDS.append(f"cp {graph} {gap_graph}; echo 'a {vertices} {vertices} 0' >> {gap_graph}")
    shutil.copyfile(graph, gap_graph)
    with open(gap_graph, "a") as f:
        f.write(f"c appended for GAP, which counts max id + 1 vertices and drops self-loops\n"
                f"a {vertices} {vertices} 0\n")


def median_query(queries):
    return statistics.median(q["seconds"] for q in queries)


def parse_size(args):
    if args.rows or args.cols:
        if not (args.rows and args.cols):
            sys.exit("--rows and --cols go together")
        return args.rows, args.cols
    m = re.fullmatch(r"(\d+)(?:[x,](\d+))?", args.size)
    if not m:
        sys.exit(f"--size: expected ROWSxCOLS or N, got {args.size!r}")
    return int(m.group(1)), int(m.group(2) or m.group(1))


def ms(seconds):
    """Milliseconds, to 4 significant digits."""
    return f"{seconds * 1e3:.4g}"


def make_inputs(args, workdir):
    """The graph and the sources, written once by ULIBC (or given): (graph, sources file, description)."""
    if args.graph:
        return os.path.abspath(args.graph), os.path.abspath(args.sources), os.path.abspath(args.graph)
    rows, cols = parse_size(args)
    graph, sources_file = os.path.join(workdir, "g.gr"), os.path.join(workdir, "g.ss")
    cmd = [args.ulibc, "sssp", "--generate", f"{rows},{cols}"]
    if args.seed is not None:
        cmd += ["--seed", args.seed]
    cmd += ["--write-graph", graph, "--write-sources", sources_file, "--queries", args.queries]
    help_text, _, _ = run([args.ulibc, "sssp", "--help"])
    if "--no-solve" in help_text:
        cmd += ["--no-solve"]
    run(cmd)
    seed = f", seed {args.seed}" if args.seed is not None else ""
    return graph, sources_file, f"ULIBC's road-like {rows} x {cols} grid{seed}"


def tune_gap_delta(args, workdir, driver, gap_graph, threads, sources, gap_deltas):
    """GAP's Δ at each thread count, the fastest candidate on the first sources; and the tuning's medians.

    auto: the candidates are the mean weight x 2^0..2^6; where the fastest is
    the smallest or the largest, the range grows by halving or doubling
    (at most MAX_EXTEND times) until a candidate beyond it is slower.
    """
    tune_sources = sources[:max(1, args.gap_tune_queries)]
    tune_file = os.path.join(workdir, "tune.ss")
    with open(tune_file, "w") as f:
        f.write(f"p aux sp ss {len(tune_sources)}\n" + "".join(f"s {s}\n" for s in tune_sources))
    candidates = gap_deltas
    if candidates is None:  # auto: from the mean weight GAP sees, which its driver prints before any query
        no_sources = os.path.join(workdir, "none.ss")
        with open(no_sources, "w") as f:
            f.write("p aux sp ss 0\n")
        _, info, _ = run_gap(args, driver, gap_graph, no_sources, [1], 1, [])
        mean = max(1.0, info["weight_mean"])
        candidates = sorted({max(1, round(mean * 2 ** k)) for k in range(7)})
    chosen, tuning = {}, {}
    for t in threads:
        if len(candidates) == 1:
            chosen[t] = candidates[0]
            continue
        medians, trying = {}, candidates
        for _ in range(MAX_EXTEND + 1):
            by_delta, _, _ = run_gap(args, driver, gap_graph, tune_file, trying, t, tune_sources)
            medians.update({d: median_query(q) for d, q in by_delta.items()})
            best = min(medians, key=medians.get)
            if gap_deltas is not None:
                break  # the given candidates only
            if best == max(medians) and best < MAX_DELTA:
                trying = [min(MAX_DELTA, best * 2)]
            elif best == min(medians) and best > 1:
                trying = [max(1, best // 2)]
            else:
                break
        tuning[t] = dict(sorted(medians.items()))
        chosen[t] = best
        print(f"# GAP's Δ on {t} thread(s), median of {len(tune_sources)} queries: " +
              ", ".join(f"{d}: {ms(sec)} ms" for d, sec in tuning[t].items()) + f" -> {chosen[t]}")
        sys.stdout.flush()
    return chosen, {"sources": tune_sources, "median_seconds": tuning}


class Rounds:
    """The measured runs: per (program, algorithm, threads), each round's median query time and peak RSS."""

    def __init__(self):
        self.medians, self.rss = {}, {}
        self.reference, self.reference_name = None, None  # ULIBC's first run, which every run must match
        self.info = {}  # per program: its view of the graph

    def add(self, key, queries, rss):
        self.medians.setdefault(key, []).append(median_query(queries))
        self.rss.setdefault(key, []).append(rss)
        return f"{key[0]} {key[1]} T={key[2]} {ms(self.medians[key][-1])}"

    def run(self, args, graph, sources_file, gap, threads, plan, sources, vertices):
        driver, gap_graph, gap_delta = gap
        line = []
        for t in threads:
            for alg in plan[t]:
                record, queries, rss = run_ulibc(args, graph, sources_file, alg, t)
                if int(record["graph"]["vertices"]) != vertices:
                    sys.exit(f"ULIBC reads {record['graph']['vertices']} vertices, the problem line says {vertices}")
                if self.reference is None:
                    self.reference, self.reference_name = queries, f"ULIBC's first run ({alg} on {t} thread(s))"
                    self.info["ULIBC"] = record["graph"]
                check_queries(f"ULIBC {alg} on {t} thread(s)", queries, sources, self.reference, self.reference_name)
                line.append(self.add(("ULIBC", alg, t), queries, rss))
            by_delta, info, rss = run_gap(args, driver, gap_graph, sources_file, [gap_delta[t]], t, sources)
            if info["vertices"] != vertices:
                sys.exit(f"GAP counts {info['vertices']} vertices, ULIBC {vertices}")
            queries = by_delta[gap_delta[t]]
            check_queries(f"GAP on {t} thread(s), Δ {gap_delta[t]}", queries, sources, self.reference,
                          self.reference_name)
            self.info["GAP"] = info
            line.append(self.add(("GAP", f"delta, Δ={gap_delta[t]}", t), queries, rss) + f" ({info['cpus']})")
        record, queries, rss = run_boost(args, graph, sources_file)
        arcs = int(self.info["ULIBC"]["arcs"])
        if (record["vertices"], record["arcs"]) != (vertices, arcs):
            sys.exit(f"Boost's graph has {record['vertices']} vertices and {record['arcs']} arcs, ULIBC's "
                     f"{vertices} and {arcs}")
        check_queries("Boost", queries, sources, self.reference, self.reference_name)
        self.info["Boost"] = {k: v for k, v in record.items() if k != "queries"}
        line.append(self.add(("Boost", f"dijkstra ({record['variant']})", 1), queries, rss))
        return line

    def comparisons(self, threads, plan, gap_delta):
        """Per thread count: ULIBC's fastest algorithm against GAP (as many threads) and Boost (sequential)."""
        boost = next(v for k, v in self.medians.items() if k[0] == "Boost")
        out = []
        for t in threads:
            best = min(plan[t], key=lambda a: statistics.median(self.medians[("ULIBC", a, t)]))
            u = self.medians[("ULIBC", best, t)]
            g = self.medians[("GAP", f"delta, Δ={gap_delta[t]}", t)]
            vs_boost = [bi / ui for ui, bi in zip(u, boost)]
            vs_gap = [gi / ui for ui, gi in zip(u, g)]
            out.append({"threads": t, "ulibc_algorithm": best, "gap_delta": gap_delta[t],
                        "ulibc_seconds": statistics.median(u), "gap_seconds": statistics.median(g),
                        "boost_seconds": statistics.median(boost),
                        "ulibc_vs_boost": statistics.median(vs_boost), "ulibc_vs_gap": statistics.median(vs_gap),
                        "ulibc_vs_boost_per_round": vs_boost, "ulibc_vs_gap_per_round": vs_gap})
        return out


def report(args, graph_desc, vertices, sources, rounds, comparisons, gap_delta, tuned):
    arcs, gap = int(rounds.info["ULIBC"]["arcs"]), rounds.info["GAP"]
    print()
    print(f"Single-source shortest paths on {graph_desc}: {vertices:,} vertices, {arcs:,} arcs"
          + (f" (GAP keeps {gap['arcs']:,}, parallel arcs and self-loops dropped)" if gap["arcs"] != arcs else "") +
          f", weights {gap['weight_min']}..{gap['weight_max']} (mean {gap['weight_mean']:.1f}); "
          f"{len(sources)} sources, one query at a time; medians over {args.rounds} alternating rounds of each "
          f"run's median query time. Every run's checksums agree with ULIBC's.")
    print()
    print("| program | algorithm | threads | median query (ms) | peak RSS (MiB) |")
    print("|:--------|:----------|--------:|------------------:|---------------:|")
    for (program, variant, t), per_round in rounds.medians.items():
        print(f"| {program} | {variant} | {t} | {ms(statistics.median(per_round))} | "
              f"{max(rounds.rss[(program, variant, t)]) / 2**20:.0f} |")
    print()
    print("ULIBC's fastest algorithm at each thread count against GAP on as many threads and a sequential Boost; "
          "ratios are the medians of the per-round ratios (above 1: ULIBC is faster).")
    print()
    print("| threads | ULIBC | ULIBC ms | GAP Δ | GAP ms | Boost ms | ULIBC/GAP | ULIBC/Boost |")
    print("|--------:|:------|---------:|------:|-------:|---------:|----------:|------------:|")
    for c in comparisons:
        print(f"| {c['threads']} | {c['ulibc_algorithm']} | {ms(c['ulibc_seconds'])} | {c['gap_delta']} | "
              f"{ms(c['gap_seconds'])} | {ms(c['boost_seconds'])} | {c['ulibc_vs_gap']:.2f} | "
              f"{c['ulibc_vs_boost']:.2f} |")
    print()
    print(f"# Boost: {rounds.info['Boost']['peer']} ({rounds.info['Boost']['variant']}); GAP's Δ: "
          + ", ".join(f"{t} thread(s) {d}" for t, d in gap_delta.items()) + (" (tuned)" if tuned else " (given)"))
    print_commands()


def write_record(args, path, graph, sources_file, graph_desc, vertices, sources, rounds, comparisons, plan,
                 gap_delta, tuning):
    record = {
        "benchmark": "sssp_vs_peers",
        "argv": sys.argv,
        "machine": machine_record(args.gap),
        "graph": {"description": graph_desc, "file": graph, "sources_file": sources_file, "vertices": vertices,
                  "arcs": int(rounds.info["ULIBC"]["arcs"]), "ulibc": rounds.info["ULIBC"],
                  "gap": {k: v for k, v in rounds.info["GAP"].items() if k != "cpus"},
                  "boost": rounds.info["Boost"]},
        "sources": sources,
        "reference": {"run": rounds.reference_name, "queries": rounds.reference},
        "threads": list(plan), "rounds": args.rounds, "ulibc_algorithms": plan,
        "gap_delta": gap_delta,
        "gap_delta_tuning": tuning,
        "results": [{"program": p, "algorithm": v, "threads": t,
                     "median_query_seconds": statistics.median(per_round),
                     "median_query_seconds_per_round": per_round,
                     "peak_rss_bytes": max(rounds.rss[(p, v, t)]), "peak_rss_bytes_per_round": rounds.rss[(p, v, t)]}
                    for (p, v, t), per_round in rounds.medians.items()],
        "comparisons": comparisons,
        "commands": unique_commands(),
    }
    save_record(path, record)


def compare(args, workdir, threads, plan, gap_deltas):
    print(f"# {' '.join(sys.argv)}")
    for line in machine_lines(args.gap, "its src/ compiled into the driver"):
        print(f"# {line}")
    sys.stdout.flush()
    driver = build_gap_driver(args.gap, workdir, "gap_sssp_sources", DRIVER_SOURCE)
    graph, sources_file, graph_desc = make_inputs(args, workdir)
    vertices, _ = read_problem_line(graph)
    sources = read_sources(sources_file)
    if not sources:
        sys.exit(f"{sources_file}: no sources")
    gap_graph = os.path.join(workdir, "g.gap.gr")
    prepare_gap_graph(graph, gap_graph, vertices)
    gap_delta, tuning = tune_gap_delta(args, workdir, driver, gap_graph, threads, sources, gap_deltas)

    rounds = Rounds()
    for rnd in range(args.rounds):
        line = rounds.run(args, graph, sources_file, (driver, gap_graph, gap_delta), threads, plan, sources, vertices)
        load = " ".join(f"{x:.2f}" for x in os.getloadavg())
        print(f"# round {rnd + 1}, median ms per query: " + "; ".join(line) + f"; checksums agree; load {load}")
        sys.stdout.flush()
    comparisons = rounds.comparisons(threads, plan, gap_delta)
    report(args, graph_desc, vertices, sources, rounds, comparisons, gap_delta, bool(tuning["median_seconds"]))
    if args.json:
        write_record(args, args.json, graph, sources_file, graph_desc, vertices, sources, rounds, comparisons, plan,
                     gap_delta, tuning)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ulibc", help="the ulibc binary (build/bin/ulibc)")
    parser.add_argument("--gap", default=os.environ.get("GAPBS_DIR"),
                        help="GAP's source directory; its src/ is compiled into the driver (default $GAPBS_DIR)")
    parser.add_argument("--boost", help="ulibc_peer_sssp_boost (default: next to ULIBC)")
    parser.add_argument("--boost-variant", choices=["color", "no-color"],
                        help="BGL's Dijkstra to time (default: the driver's, color)")
    parser.add_argument("--size", default="1000x1000", help="the generated grid, ROWSxCOLS or N for N x N")
    parser.add_argument("--rows", type=int)
    parser.add_argument("--cols", type=int)
    parser.add_argument("--seed", type=int, help="ULIBC's generator seed (default: ULIBC's)")
    parser.add_argument("--queries", type=int, default=16, help="sources, drawn by ULIBC (default 16)")
    parser.add_argument("--graph", help="a ready DIMACS .gr instead of generating one (with --sources)")
    parser.add_argument("--sources", help="its DIMACS .ss")
    parser.add_argument("--threads", default="1,2", help="thread counts of ULIBC and GAP (Boost is sequential)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--ulibc-algorithms", default="radix,delta",
                        help="ULIBC's algorithms, each run at every thread count it supports (radix and binary: "
                             "1 only); the comparison takes the fastest at each count (default radix,delta)")
    parser.add_argument("--ulibc-delta", type=int,
                        help="ULIBC's Δ for delta (default: ULIBC's own, from the weights; ULIBC rounds it down to a "
                             "power of two)")
    parser.add_argument("--gap-delta", default="auto",
                        help="GAP's Δ: D, or D1,D2,... to tune over, or auto: mean weight x 1, 2, 4, ..., 64")
    parser.add_argument("--gap-tune-queries", type=int, default=8, help="sources of the Δ tuning runs (default 8)")
    parser.add_argument("--work-dir", "--workdir", dest="work_dir",
                        help="for the graph and the drivers (default: a temporary directory, removed after)")
    parser.add_argument("--keep", action="store_true", help="keep the work directory's files")
    parser.add_argument("--json", help="write the record to this file")
    args = parser.parse_args()

    if not args.gap or not os.path.isfile(os.path.join(args.gap, "src", "sssp.cc")):
        sys.exit("GAP's source directory is needed: --gap DIR or GAPBS_DIR "
                 "(git clone https://github.com/sbeamer/gapbs)")
    args.gap = os.path.abspath(args.gap)
    args.ulibc = os.path.abspath(args.ulibc)
    args.boost = os.path.abspath(args.boost or os.path.join(os.path.dirname(args.ulibc), "ulibc_peer_sssp_boost"))
    for tool in (args.ulibc, args.boost):
        if not os.access(tool, os.X_OK):
            sys.exit(f"not an executable: {tool}")
    if bool(args.graph) != bool(args.sources):
        sys.exit("--graph and --sources go together")
    if args.rounds < 1 or args.queries < 1:
        sys.exit("--rounds and --queries must be at least 1")
    try:
        threads = list(dict.fromkeys(int(t) for t in args.threads.split(",")))
    except ValueError:
        sys.exit(f"--threads: expected counts like 1,2, got {args.threads!r}")
    if not threads or min(threads) < 1:
        sys.exit("--threads: each count must be at least 1")
    algorithms = [a for a in args.ulibc_algorithms.split(",") if a]
    if "many" in algorithms or "auto" in algorithms:
        sys.exit("--ulibc-algorithms: many (and auto, which picks it on a team) answers several queries at once; "
                 "its times are not single-query times (its throughput: `ulibc bench sssp`)")
    plan = {t: [a for a in algorithms if t == 1 or a not in SEQUENTIAL] for t in threads}
    for t, algs in plan.items():
        if not algs:
            sys.exit(f"no ULIBC algorithm of {algorithms} runs on {t} threads (radix and binary are sequential)")
    gap_deltas = None  # auto
    if args.gap_delta != "auto":
        try:
            gap_deltas = sorted({int(d) for d in args.gap_delta.split(",")})
        except ValueError:
            sys.exit(f"--gap-delta: expected auto or integers, got {args.gap_delta!r}")
        if not gap_deltas or gap_deltas[0] < 1:
            sys.exit("--gap-delta: each Δ must be at least 1")
    workdir = os.path.abspath(args.work_dir or tempfile.mkdtemp(prefix="sssp_vs_peers."))
    os.makedirs(workdir, exist_ok=True)

    try:
        compare(args, workdir, threads, plan, gap_deltas)
    finally:
        # On success and on failure alike; --work-dir DIR --keep leaves every file for a look.
        if not args.keep:
            for name in ("g.gap.gr", "tune.ss", "none.ss") + (() if args.graph else ("g.gr", "g.ss")):
                path = os.path.join(workdir, name)
                if os.path.exists(path):
                    os.remove(path)
            if not args.work_dir:
                shutil.rmtree(workdir, ignore_errors=True)


if __name__ == "__main__":
    main()
