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
  Itoyori (with --itoyori and --ityrbench, clones of github.com/itoyori/itoyori with its submodules and of
         github.com/itoyori/ityrbench): ityrbench's cilksort.cpp, 64-bit keys (-DITYRBENCH_ELEM_TYPE=long),
         compiled into the work directory with Debian's mpicxx and ityrbench's flags, once per scheduler
         (-DITYR_ITO_SCHEDULER=randws with the cyclic memory mapper, adws with block_adws); run as
         `mpirun -n T --bind-to core setarch ... cilksort -n S -r R -s 16384 -m 16384` (one process per core,
         ULIBC's cutoffs), OMPI_MCA_osc=pt2pt (Debian's Open MPI 4.1 otherwise aborts in MPI_Win_create). Its
         timer covers the sort alone; it checks each result sorted. Its keys are its own random ones, drawn
         afresh each run. On one machine Open MPI gives no progress to one-sided operations while the target
         computes, so its processes barely steal (docs/PERFORMANCE.md).

The report gives each figure's median over the rounds, and for ULIBC's best scheduler in each round its ratio to
the best peer of that round (the median of the per-round ratios): these machines are noisy.

usage: peers/tasks_vs_peers.py --build DIR [--threads 1,2] [--rounds 3] [--fib 32] [--linear 1000000]
                               [--size 100000000] [--reps 3] [--itoyori DIR --ityrbench DIR] [--workdir DIR]
                               [--json FILE]
Example (Itoyori needs its submodules lxm_random, unordered_dense and massivelogger):
  git clone --recursive https://github.com/itoyori/itoyori /tmp/itoyori
  git clone https://github.com/itoyori/ityrbench /tmp/ityrbench
  python3 peers/tasks_vs_peers.py --build build --itoyori /tmp/itoyori --ityrbench /tmp/ityrbench
"""
import argparse
import json
import os
import platform
import re
import statistics
import sys
import tempfile

import peers_common as common

SCHEDULERS = ["random", "hierarchical", "adws"]
ITOYORI_SCHEDULERS = {"randws": "cyclic", "adws": "block_adws"}  # each with the memory mapper ityrbench pairs it with
ITOYORI_CUTOFF = 16384  # ULIBC's Cilksort cutoffs (serial sort and serial merge)
ITOYORI_TIMEOUT = 1800  # seconds for one run of R sorts
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1", "OMPI_MCA_osc": "pt2pt"}


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


def build_itoyori(itoyori, ityrbench, workdir):
    """ityrbench's cilksort.cpp, once per scheduler; returns {scheduler: binary}."""
    includes = [os.path.join(itoyori, d) for d in ("include", "unordered_dense/include", "lxm_random/include",
                                                    "massivelogger/include")]
    includes += [os.path.join(ityrbench, d) for d in ("third-party/pcg-cpp/include", "third-party/backward-cpp")]
    for d in includes:
        if not os.path.isdir(d):
            sys.exit(f"{d}: missing (are Itoyori's submodules checked out?)")
    libs = ["-lrt"] + (["-lnuma"] if os.path.exists("/usr/include/numa.h") else [])
    binaries = {}
    for sched, mapper in ITOYORI_SCHEDULERS.items():
        out = os.path.join(workdir, f"cilksort_{sched}")
        common.run(["mpicxx", "-std=c++17", "-O3", "-DNDEBUG", "-fno-stack-protector"] +
                   [f"-I{d}" for d in includes] +
                   ["-DITYRBENCH_ELEM_TYPE=long", "-DITYR_ALLOCATOR_USE_DYNAMIC_WIN=false",
                    f"-DITYR_ITO_SCHEDULER={sched}", f"-DITYR_ORI_DEFAULT_MEM_MAPPER={mapper}",
                    os.path.join(ityrbench, "cilksort.cpp"), "-o", out] + libs)
        binaries[sched] = out
    return binaries


def itoyori_sort(binary, size, processes, reps):
    """The median seconds of its sorts, each checked by itself; None when the run timed out."""
    env = ["env"] + [f"{k}={v}" for k, v in MPI_ENV.items()]
    cmd = env + ["mpirun", "-n", str(processes), "--bind-to", "core", "--oversubscribe", "setarch",
                 platform.machine(), "--addr-no-randomize", binary, "-n", str(size), "-r", str(reps),
                 "-s", str(ITOYORI_CUTOFF), "-m", str(ITOYORI_CUTOFF)]
    out, _ = common.run_limited(cmd, ITOYORI_TIMEOUT)
    if out is None:
        return None
    if "Wrong result" in out:
        sys.exit(f"{' '.join(cmd)}: Itoyori's cilksort reports a wrong result")
    times = [int(ns) / 1e9 for ns in re.findall(r"^\[\d+\] (\d+) ns - Result verified", out, re.M)]
    if len(times) != reps:
        sys.exit(f"{' '.join(cmd)}: {len(times)} verified sorts of {reps}\n{out[-2000:]}")
    return statistics.median(times)


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
    for sched, binary in args.itoyori_binaries.items():
        seconds = itoyori_sort(binary, args.size, threads, args.reps)
        if seconds is not None:
            row[("sort", "itoyori " + sched)] = seconds
    return row


def report(rounds_by_threads):
    print("| threads | measure | " + " | ".join("ULIBC " + s for s in SCHEDULERS) +
          " | oneTBB | std::execution::par | OpenMP tasks | Itoyori randws | Itoyori adws | ULIBC best / best peer |")
    print("| ---: | --- |" + " ---: |" * (len(SCHEDULERS) + 6))
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
            cells = [med("ulibc " + s) for s in SCHEDULERS] + [med("tbb"), med("stdpar"), med("omp"),
                                                                med("itoyori randws"), med("itoyori adws")]
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
    p.add_argument("--itoyori", default=os.environ.get("ITOYORI_DIR"))
    p.add_argument("--ityrbench", default=os.environ.get("ITYRBENCH_DIR"))
    p.add_argument("--workdir", help="where Itoyori's cilksort is built (default: a temporary directory)")
    p.add_argument("--json")
    args = p.parse_args()
    if args.rounds < 1 or args.reps < 1:
        sys.exit("--rounds and --reps: at least 1")
    if bool(args.itoyori) != bool(args.ityrbench):
        sys.exit("--itoyori and --ityrbench go together")
    workdir = args.workdir or tempfile.mkdtemp(prefix="ulibc-itoyori-")
    os.makedirs(workdir, exist_ok=True)
    args.itoyori_binaries = build_itoyori(args.itoyori, args.ityrbench, workdir) if args.itoyori else {}
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
