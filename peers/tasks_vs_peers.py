#!/usr/bin/python3
"""The task runtime against oneTBB and OpenMP tasks, side by side: `ulibc bench spawn` and `ulibc bench cilksort`
against peers/tasks_peers.cpp (ulibc_peer_tasks).

Method. Each round runs, for each thread count, in this order:

  ULIBC  `ulibc bench spawn --policy compact --threads T --fib N --linear L --reps R --json` (each scheduler:
         the median ns per task of R runs of fib(N), a task per call, and of a linear tree of L children) and
         `ulibc bench cilksort --policy compact --threads T --size S --reps R --json` (each scheduler: the median
         seconds of R sorts of S random 64-bit keys).
  peers  `ulibc_peer_tasks fib N --with tbb|omp`, `linear L --with tbb|omp`, `sort S --with tbb|stdpar|omp`,
         R runs each, the same keys (SplitMix64, seed 1), each sort checked against std::sort. OpenMP runs with
         OMP_PLACES=cores and OMP_PROC_BIND=close (ULIBC's compact places its workers so); oneTBB places its own
         and gets neither (libgomp would bind the initial thread, and oneTBB's workers would inherit its one
         processor).

The report gives each figure's median over the rounds, and for ULIBC's best scheduler in each round its ratio to
the best peer of that round (the median of the per-round ratios): these machines are noisy.

usage: peers/tasks_vs_peers.py --build DIR [--threads 1,2] [--rounds 3] [--fib 32] [--linear 1000000]
                               [--size 100000000] [--reps 3] [--json FILE]
"""
import argparse
import json
import os
import statistics
import sys
import tempfile

import peers_common as common

SCHEDULERS = ["random", "hierarchical", "adws"]


def ulibc_bench(build, kernel, threads, extra):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "run.json")
        cmd = [os.path.join(build, "bin", "ulibc"), "bench", kernel, "--policy", "compact", "--threads",
               str(threads), "--json", out] + extra
        common.run(cmd)
        record = json.load(open(out))
    figures = {}
    for result in record["runs"][0]["results"]:
        if not result["valid"]:
            sys.exit(f"ulibc bench {kernel} ({result['variant']}): {result['check']}")
        for m in result["measurements"]:
            figures[(m["name"], result["variant"])] = m["value"]
    return figures


def peer(build, mode, n, runtime, threads, reps):
    # OpenMP's binding only for OpenMP: libgomp binds the initial thread at start-up when OMP_PROC_BIND is set,
    # and oneTBB's workers would inherit that one processor.
    placement = ["env", "OMP_PLACES=cores", "OMP_PROC_BIND=close"] if runtime == "omp" else []
    cmd = placement + [os.path.join(build, "bin", "ulibc_peer_tasks"), mode, str(n), "--with", runtime, "--threads",
                       str(threads), "--reps", str(reps)]
    out, _, _ = common.run(cmd)
    line = json.loads(out.strip().splitlines()[-1])
    if not line["valid"]:
        sys.exit(f"{' '.join(cmd)}: {line['check']}")
    return statistics.median(line["values"])


def one_round(args, threads):
    spawn = ulibc_bench(args.build, "spawn", threads, ["--fib", str(args.fib), "--linear", str(args.linear),
                                                        "--reps", str(args.reps)])
    sort = ulibc_bench(args.build, "cilksort", threads, ["--size", str(args.size), "--reps", str(args.reps)])
    row = {}
    for s in SCHEDULERS:
        row[("fib", "ulibc " + s)] = spawn[("fib", s)]
        row[("linear", "ulibc " + s)] = spawn[("linear", s)]
        row[("sort", "ulibc " + s)] = sort[("sort", s)]
    for runtime in ("tbb", "omp"):
        row[("fib", runtime)] = peer(args.build, "fib", args.fib, runtime, threads, args.reps)
        row[("linear", runtime)] = peer(args.build, "linear", args.linear, runtime, threads, args.reps)
    for runtime in ("tbb", "stdpar", "omp"):
        row[("sort", runtime)] = peer(args.build, "sort", args.size, runtime, threads, args.reps)
    return row


def report(rounds_by_threads):
    print("| threads | measure | " + " | ".join("ULIBC " + s for s in SCHEDULERS) +
          " | oneTBB | std::execution::par | OpenMP tasks | ULIBC best / best peer |")
    print("| ---: | --- |" + " ---: |" * (len(SCHEDULERS) + 4))
    for threads, rounds in rounds_by_threads.items():
        for measure, unit in (("fib", "ns/task"), ("linear", "ns/task"), ("sort", "s")):
            def med(who):
                vals = [r[(measure, who)] for r in rounds if (measure, who) in r]
                return f"{statistics.median(vals):.4g}" if vals else "—"
            ratios = []
            for r in rounds:
                ours = min(r[(measure, "ulibc " + s)] for s in SCHEDULERS)
                theirs = min(v for (m, who), v in r.items() if m == measure and not who.startswith("ulibc"))
                ratios.append(ours / theirs)
            cells = [med("ulibc " + s) for s in SCHEDULERS] + [med("tbb"), med("stdpar"), med("omp")]
            print(f"| {threads} | {measure} ({unit}) | " + " | ".join(cells) +
                  f" | {statistics.median(ratios):.2f} |")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build", required=True)
    p.add_argument("--threads", default="1,2")
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--fib", type=int, default=32)
    p.add_argument("--linear", type=int, default=1000000)
    p.add_argument("--size", type=int, default=100000000)
    p.add_argument("--reps", type=int, default=3)
    p.add_argument("--json")
    args = p.parse_args()
    if args.rounds < 1 or args.reps < 1:
        sys.exit("--rounds and --reps: at least 1")
    thread_counts = [int(t) for t in args.threads.split(",")]
    rounds = {t: [] for t in thread_counts}
    for r in range(args.rounds):
        for t in thread_counts:
            rounds[t].append(one_round(args, t))
            print(f"round {r + 1}/{args.rounds}, {t} threads done", file=sys.stderr)
    report(rounds)
    common.print_commands()
    if args.json:
        common.save_record(args.json, {"machine": common.machine_record(),
                                       "rounds": {str(t): [{f"{m} {w}": v for (m, w), v in row.items()}
                                                           for row in rs] for t, rs in rounds.items()}})


if __name__ == "__main__":
    main()
