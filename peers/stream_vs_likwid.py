#!/usr/bin/env python3
"""STREAM Triad: `ulibc bench stream` against likwid-bench's `stream` test, side by side.

Both run the same size (three arrays of N doubles), the same store type
(ordinary stores: likwid's `stream` kernel, ULIBC's ordinary arrays) and the
same placement (threads packed from the first processor: likwid's S0 domain,
ULIBC's compact policy). Rounds alternate the two programs, so that a change
in the machine's load hits both; the report gives medians over rounds.

likwid-bench times all its iterations together, so its figure is a mean rate;
ULIBC's figures are STREAM's best-after-first and the median repetition.

usage: stream_vs_likwid.py ULIBC [--size N] [--threads 1,2] [--rounds 5] [--test stream|stream_avx|...]
"""
import argparse
import json
import re
import statistics
import subprocess
import sys


def likwid_triad(test, size, threads):
    total_bytes = 3 * 8 * size
    out = subprocess.run(["likwid-bench", "-t", test, "-w", f"S0:{total_bytes}B:{threads}"],
                         check=True, capture_output=True, text=True).stdout
    match = re.search(r"^MByte/s:\s+([0-9.]+)", out, re.M)
    if not match:
        sys.exit("likwid-bench printed no MByte/s line:\n" + out)
    return float(match.group(1))


def ulibc_triad(ulibc, size, threads):
    out = subprocess.run([ulibc, "bench", "stream", "--size", str(size), "--policy", "compact", "--threads",
                          str(threads), "--arrays", "ordinary", "--json"], check=True, capture_output=True,
                         text=True).stdout
    record = json.loads(out)
    triad = next(m for m in record["runs"][0]["results"][0]["measurements"] if m["name"] == "Triad")
    return triad["value"], statistics.median(triad["reps"][1:])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("ulibc", help="the ulibc binary")
    parser.add_argument("--size", type=int, default=16_000_000, help="elements per array (default 16M: 128 MB each)")
    parser.add_argument("--threads", default="1,2")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--test", default="stream",
                        help="likwid-bench test with ordinary stores: stream (scalar), stream_avx, stream_avx_fma")
    args = parser.parse_args()
    print(f"# {' '.join(sys.argv)}")
    print(f"# Triad against likwid-bench -t {args.test}, {args.size} elements per array ({3 * 8 * args.size / 1e6:.0f} MB in all), "
          f"{args.rounds} alternating rounds; MB/s, medians over rounds")
    print("threads  likwid-bench  ulibc-best  ulibc-median  best/likwid  median/likwid")
    for threads in [int(t) for t in args.threads.split(",")]:
        likwid, best, median = [], [], []
        for _ in range(args.rounds):
            likwid.append(likwid_triad(args.test, args.size, threads))
            b, m = ulibc_triad(args.ulibc, args.size, threads)
            best.append(b)
            median.append(m)
        lk, bs, md = (statistics.median(x) for x in (likwid, best, median))
        print(f"{threads:>7}  {lk:>12.0f}  {bs:>10.0f}  {md:>12.0f}  {bs / lk:>11.3f}  {md / lk:>13.3f}")


if __name__ == "__main__":
    main()
