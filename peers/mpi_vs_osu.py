#!/usr/bin/python3
"""MPI's basic costs: `ulibc bench mpi` against the OSU micro-benchmarks, side by side.

Method. The same MPI, the same rank count, the same message sizes (powers of
2 from --sizes MIN:MAX), every rank on the same processor, in alternating
rounds:

  ULIBC  `mpirun -n R ulibc bench mpi --tests p2p,allgather,allreduce,bcast
         --sizes ... --pin A,B --json --thread-level single`: its p2p one-way
         time and bandwidth, Allgather, Allreduce (sum of doubles) and Bcast,
         each the median of its 20 repetitions (each a run of calls of about
         0.5 ms). At MPI_THREAD_SINGLE, what OSU's MPI_Init gets: Open MPI
         4.1's small messages cost about a tenth more at ULIBC's default,
         funneled, and that is MPI's cost, not the measurement's.
  OSU    osu_latency, osu_bw (two ranks), osu_allgather, osu_allreduce
         (-T mpi_float: OSU sums no doubles; the same bytes, half as many
         elements) and osu_bcast, built outside this repository from their
         own source, with -z: besides its headline, the mean over its
         iterations (1000 to 10000 small, 20 to 1000 large, after skipped
         ones; the collectives' averaged over the ranks), each prints the
         median iteration (P50), rank 0's.

Which OSU figure. ULIBC reports a median, of repetitions each a short run of
calls; OSU's P50 is the like-for-like figure. OSU's mean counts every stall
of its process: on a machine shared with other work a few stalls of
milliseconds in a thousand iterations of microseconds can double it, while
its median and ULIBC's do not move. Both ratios are reported.

Placement. Ranks 0 and 1 run on --pin's processors (default: the ones
ULIBC's policy gives them, read from a first short run), the other ranks where
ULIBC's policy puts them. ULIBC pins itself (--pin); OSU's ranks are started
through `taskset -c P`, one processor each, by their launcher rank. The
launcher's own binding is turned off (Open MPI: --bind-to none) for both.

Each round runs ULIBC once and then each OSU program once. The report gives
per size the median over rounds of each figure and the median of the per-round
ratios ULIBC/OSU (times: below 1 is faster; bandwidth: above 1 is faster).

usage: mpi_vs_osu.py ULIBC --osu DIR [--ranks 2] [--sizes 8:4194304] [--pin A,B]
                     [--rounds 5] [--mpirun mpirun] [--json FILE]
  ULIBC is build/bin/ulibc; DIR holds the built osu_latency, osu_bw,
  osu_allgather, osu_allreduce and osu_bcast.
Example (OSU's source unpacked outside the repository, in $OMB):
  (cd $OMB && ./configure CC=mpicc CXX=mpicxx && make -C c/util && make -C c/mpi/pt2pt/standard &&
   make -C c/mpi/collective/blocking)
  mkdir -p $OMB/bin && cp $OMB/c/mpi/pt2pt/standard/osu_{latency,bw} \\
      $OMB/c/mpi/collective/blocking/osu_{allgather,allreduce,bcast} $OMB/bin
  /usr/bin/python3 peers/mpi_vs_osu.py build/bin/ulibc --osu $OMB/bin --rounds 5
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

import peers_common

# (name in the report, unit, ULIBC's record path, OSU program and arguments, ranks: "pair" or "all", higher is better)
TESTS = [
    ("p2p latency", "us", ("p2p", "latency"), ["osu_latency"], "pair", False),
    ("p2p bandwidth", "MB/s", ("p2p", "bandwidth"), ["osu_bw"], "pair", True),
    ("allgather", "us", ("allgather",), ["osu_allgather"], "all", False),
    ("allreduce", "us", ("allreduce",), ["osu_allreduce", "-T", "mpi_float"], "all", False),
    ("bcast", "us", ("bcast",), ["osu_bcast"], "all", False),
]

# Starts the program on this rank's processor: the launcher's rank picks one word of $ULIBC_PEER_CPUS.
PIN_WRAPPER = """#!/bin/sh
rank=${OMPI_COMM_WORLD_RANK:-${PMI_RANK:-0}}
set -f
i=0
for cpu in $ULIBC_PEER_CPUS; do
  if [ "$i" = "$rank" ]; then exec taskset -c "$cpu" "$@"; fi
  i=$((i + 1))
done
echo "no processor for rank $rank in ULIBC_PEER_CPUS=$ULIBC_PEER_CPUS" >&2
exit 2
"""


def positive_int(text):
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text}: a whole number from 1")
    return value


def size_range(text):
    """"8:4194304" -> [8, 16, ..., 4194304], the powers of 2 OSU's -m MIN:MAX runs."""
    match = re.fullmatch(r"(\d+):(\d+)", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text}: MIN:MAX in bytes")
    low, high = int(match.group(1)), int(match.group(2))
    if low < 8 or low % 8 or high < low or high > 1 << 30 or low & (low - 1):
        raise argparse.ArgumentTypeError(f"{text}: MIN a power of 2 from 8, MAX from MIN to 2^30")
    sizes = []
    while low <= high:
        sizes.append(low)
        low *= 2
    return sizes


def pin_pair(text):
    match = re.fullmatch(r"(\d+),(\d+)", text)
    if not match:
        raise argparse.ArgumentTypeError(f"{text}: two processor numbers A,B")
    return [int(match.group(1)), int(match.group(2))]


def launcher(args, ranks):
    """mpirun -n R with the launcher's binding off (Open MPI), and root or more ranks than processors allowed."""
    cmd = [args.mpirun, "-n", str(ranks)]
    if args.open_mpi:
        cmd += ["--bind-to", "none"]
        if ranks > len(os.sched_getaffinity(0)):
            cmd += ["--oversubscribe"]
    return cmd


def run(cmd, env):
    peers_common.COMMANDS.append(" ".join(cmd))
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env)
    if proc.returncode != 0:
        sys.exit(f"failed ({proc.returncode}): {' '.join(cmd)}\n{proc.stdout[-2000:]}{proc.stderr[-2000:]}")
    return proc.stdout


def ulibc_record(args, env, sizes, tests, pin, extra=()):
    cmd = launcher(args, args.ranks) + [args.ulibc, "bench", "mpi", "--tests", tests,
                                        "--sizes", ",".join(map(str, sizes)), "--json",
                                        "--thread-level", "single"]
    if pin:
        cmd += ["--pin", f"{pin[0]},{pin[1]}"]
    return json.loads(run(cmd + list(extra), env))


def rank_processors(args, env):
    """Every rank's processor under ULIBC's placement (--pin for ranks 0 and 1), from a short run."""
    record = ulibc_record(args, env, [8], "allreduce", args.pin, ["--quick", "--reps", "1"])
    cpus = [row["thread_processors"][0] for row in record["rank_table"]]
    if any(c < 0 for c in cpus):
        sys.exit("ULIBC placed no rank on a processor (policy none?): nothing to pin OSU's ranks to")
    return cpus


def osu_figures(out):
    """{bytes: (mean, P50)} from OSU's table printed with -z, and its header ("# OSU MPI Latency Test v7.4")."""
    figures, title = {}, ""
    for line in out.splitlines():
        if line.startswith("# OSU"):
            title = line[2:].strip()
        fields = line.split()
        if len(fields) >= 3 and fields[0].isdigit():
            figures[int(fields[0])] = (float(fields[1]), float(fields[2]))
    return figures, title


def ulibc_figures(record, path, unit):
    series = record
    for key in path:
        series = series[key]
    scale = 1e6 if unit == "us" else 1.0
    return {p["bytes"]: p["median"] * scale for p in series}


def one_round(args, env, wrapper, sizes, cpus, titles):
    figures = {}
    record = ulibc_record(args, env, sizes, "p2p,allgather,allreduce,bcast", [cpus[0], cpus[1]])
    for name, unit, path, program, ranks, _ in TESTS:
        n = 2 if ranks == "pair" else args.ranks
        peer_env = dict(env, ULIBC_PEER_CPUS=" ".join(map(str, cpus[:n])))
        out = run(launcher(args, n) + [wrapper, os.path.join(args.osu, program[0])] + program[1:] +
                  ["-m", f"{sizes[0]}:{sizes[-1]}", "-z"], peer_env)
        osu, title = osu_figures(out)
        titles[program[0]] = title
        mine = ulibc_figures(record, path, unit)
        missing = [s for s in sizes if s not in osu or s not in mine]
        if missing:
            sys.exit(f"{name}: no figure for sizes {missing} from {'OSU' if missing[0] not in osu else 'ULIBC'}")
        figures[name] = {s: (mine[s], osu[s][1], osu[s][0]) for s in sizes}
    return figures, record


def report(args, sizes, cpus, rounds, titles, record, mpi_version):
    print(f"# {' '.join(sys.argv)}")
    for line in peers_common.machine_lines(None, None):
        print(f"# {line}")
    print(f"# MPI: {mpi_version}")
    print(f"# OSU: {', '.join(f'{k}: {v}' for k, v in titles.items())}")
    print(f"# {args.ranks} ranks on processors {' '.join(map(str, cpus))}; ranks 0 and 1: "
          f"{record['pair']['describe']}")
    print(f"# {args.rounds} alternating rounds; medians over rounds, ratio = median of per-round ULIBC/OSU")
    print()
    print("| test | bytes | ULIBC median | OSU P50 | OSU mean | ULIBC/OSU P50 | ULIBC/OSU mean |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    results = []
    for name, unit, _, _, _, higher in TESTS:
        for s in sizes:
            per_round = [r[name][s] for r in rounds]
            mine, p50, mean = (statistics.median(p[k] for p in per_round) for k in range(3))
            to_p50 = statistics.median(p[0] / p[1] for p in per_round)
            to_mean = statistics.median(p[0] / p[2] for p in per_round)
            results.append({"test": name, "unit": unit, "bytes": s, "ulibc": mine, "osu_p50": p50, "osu_mean": mean,
                            "ratio_p50": to_p50, "ratio_mean": to_mean, "higher_is_better": higher,
                            "rounds": per_round})
            print(f"| {name} ({unit}) | {s} | {mine:.4g} | {p50:.4g} | {mean:.4g} | {to_p50:.3f} | {to_mean:.3f} |")
    print()
    for key, what in (("ratio_p50", "OSU's P50"), ("ratio_mean", "OSU's mean")):
        inside = sum(1 for r in results if abs(r[key] - 1) <= 0.10)
        print(f"{inside} of {len(results)} figures within 10% of {what}")
    peers_common.print_commands()
    return results


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ulibc", help="the ulibc binary")
    parser.add_argument("--osu", required=True, help="the directory of the built OSU programs")
    parser.add_argument("--ranks", type=positive_int, default=2, help="ranks of the collectives (default 2)")
    parser.add_argument("--sizes", type=size_range, default=size_range("8:4194304"),
                        help="MIN:MAX, powers of 2 (default 8:4194304, OSU's own range from 8)")
    parser.add_argument("--pin", type=pin_pair, help="processors of ranks 0 and 1 (default: ULIBC's policy's)")
    parser.add_argument("--rounds", type=positive_int, default=5)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--json", help="also write every round's figures to this file")
    args = parser.parse_args()
    if args.ranks < 2:
        parser.error("--ranks: from 2 (osu_latency and osu_bw need two)")
    for name in {t[3][0] for t in TESTS}:
        if not os.access(os.path.join(args.osu, name), os.X_OK):
            parser.error(f"--osu {args.osu}: no {name} there")
    if not shutil.which(args.mpirun) or not shutil.which("taskset"):
        parser.error(f"needs {args.mpirun} and taskset (util-linux) on PATH")
    mpi_version = subprocess.run([args.mpirun, "--version"], capture_output=True, text=True).stdout.splitlines()
    mpi_version = mpi_version[0] if mpi_version else "?"
    args.open_mpi = "Open MPI" in mpi_version or "OpenRTE" in mpi_version

    env = dict(os.environ)
    if os.geteuid() == 0:
        env.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    with tempfile.TemporaryDirectory() as work:
        wrapper = os.path.join(work, "pinned")
        with open(wrapper, "w") as f:
            f.write(PIN_WRAPPER)
        os.chmod(wrapper, 0o755)
        cpus = rank_processors(args, env)
        rounds, titles, record = [], {}, None
        for _ in range(args.rounds):
            figures, record = one_round(args, env, wrapper, args.sizes, cpus, titles)
            rounds.append(figures)
        results = report(args, args.sizes, cpus, rounds, titles, record, mpi_version)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"machine": peers_common.machine_record(), "mpi": mpi_version, "osu": titles,
                       "ranks": args.ranks, "processors": cpus, "pair": record["pair"],
                       "commands": peers_common.unique_commands(), "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
