#!/usr/bin/env python3
"""The byte model of ULIBC's BFS across ranks (docs/DISTRIBUTED_BFS.md), checked against a run's counts.

    mpirun -n K ulibc bench bfs --scale S --policy scatter --threads 1 --variants do --json out.json
    python3 scripts/bfs_traffic_model.py out.json [--project SCALE:RANKS ...]

For each level of each search the record holds the job's frontier F and discoveries D, and every rank's bytes sent
and finds (vertices it sent, with a parent, to another rank of its grid row). The model is
    bytes = 4 F (R - 1)                     top-down: the frontier gathered along grid columns, as a list
          + (R - 1) W + (2 C - 1) W         bottom-up: the frontier along columns, as a bitmap; the row's segment
                                            bitmaps passed round the row twice (C > 1)
          + (C - 1) W                       the last bottom-up level before a top-down one: the visited gathered
                                            along rows
          + 8 finds + 8 P V                 the finds along grid rows; the V sums that steer the search: the
                                            frontier's size, its arcs (top-down, and where a top-down level
                                            follows), the root's degree (first level)
with W the graph's bitmap bytes (n / 8, in whole words per block). The check: the measured bytes equal the model's
for every level. The finds are the part a model of the search must predict: kappa = finds / (D (C - 1) / C) says
how many times over the row's ranks sent a vertex: once bottom-up (the first rank to see a parent marks it), up to C
times top-down (each rank finds it in its own column's arcs, and also sends vertices that others visited first). --project scales the measured level profile (F, D as shares of n; kappa
from 1 to min(C, 2 x edgefactor)) to a larger job on the squarest grid with R >= C (grid_shape.hpp).
"""
import argparse
import json
import math
import sys


def words(count):
    return (count + 63) // 64


def blocks(n, ranks):
    """Each rank's vertex count: whole 64-vertex words, split as the grid splits them (grid.hpp)."""
    w = words(n)
    first = [min(n, (w * p // ranks) * 64) for p in range(ranks + 1)]
    return [first[p + 1] - first[p] for p in range(ranks)]


def fixed_bytes(direction, frontier, n, rows, cols, first, switching):
    """The job's bytes in a level that do not depend on who found what (payload; the sums as 8 bytes a rank per
    value: the frontier's size, its arcs after a top-down step or before the first top-down step that follows a
    bottom-up one, the root's degree in the first level). `switching`: a bottom-up level that a top-down one
    follows."""
    ranks = rows * cols
    values = 1 + (direction == "top-down" or switching) + first
    sums = 8 * values * ranks if ranks > 1 else 0
    if direction == "top-down":
        return 4 * frontier * (rows - 1) + sums
    bitmap = 8 * sum(words(b) for b in blocks(n, ranks))
    passes = 2 * cols - 1 if cols > 1 else 0
    return bitmap * (rows - 1) + bitmap * passes + bitmap * (cols - 1) * switching + sums


def finds_share(cols):
    """The share of a grid row's finds that goes to another rank (its owner is one of C)."""
    return (cols - 1) / cols


def check(record):
    params = record["parameters"]
    n = params["vertices"]
    rows, cols = (int(x) for x in params.get("grid", "1x1").split("x"))
    print(f"grid {rows}x{cols}, {n} vertices, {params['input_edges']} tuples")
    print(f"{'level':>5} {'direction':>9} {'frontier':>10} {'found':>10} {'sent':>12} {'model':>12} {'kappa':>6}")
    ok = True
    for run in record["runs"]:
        for result in run["results"]:
            searches = result.get("details", {}).get("searches", [])
            per_level = {}
            for s in searches:
                for k, level in enumerate(s.get("levels", [])):
                    per_level.setdefault(k, []).append(level)
            for s in searches:
                levels = s.get("levels", [])
                for k, level in enumerate(levels):
                    level["switching"] = (level["direction"] == "bottom-up" and k + 1 < len(levels)
                                          and levels[k + 1]["direction"] == "top-down")
            for k in sorted(per_level):
                levels = per_level[k]
                sent = sum(sum(l["sent"]) for l in levels)
                finds = sum(sum(l["finds"]) for l in levels)
                model = sum(fixed_bytes(l["direction"], l["frontier"], n, rows, cols, k == 0, l["switching"])
                            for l in levels) + 8 * finds
                found = sum(l["discovered"] for l in levels)
                kappa = finds / (found * finds_share(cols)) if found and cols > 1 else float("nan")
                ok &= sent == model
                print(f"{k:>5} {levels[0]['direction']:>9} {sum(l['frontier'] for l in levels) / len(levels):>10.0f} "
                      f"{found / len(levels):>10.0f} {sent / len(levels):>12.0f} {model / len(levels):>12.0f} "
                      f"{kappa:>6.2f}")
    return ok, n, per_level


def project(per_level, n_measured, scale, ranks, edgefactor):
    """Bytes a rank sends per search in a job of `ranks` ranks on the default grid, at SCALE `scale`."""
    cols = max(c for c in range(1, int(math.isqrt(ranks)) + 1) if ranks % c == 0)
    rows = ranks // cols
    n = 2 ** scale
    low = high = 0.0
    for levels in per_level.values():
        share_f = sum(l["frontier"] for l in levels) / len(levels) / n_measured
        share_d = sum(l["discovered"] for l in levels) / len(levels) / n_measured
        switching = sum(l["switching"] for l in levels) / len(levels)
        fixed = (4 * share_f * n * (rows - 1) if levels[0]["direction"] == "top-down"
                 else n / 8 * (rows - 1 + 2 * cols - 1 + (cols - 1) * switching)) / ranks
        finds = 8 * share_d * n * finds_share(cols) / ranks
        low += fixed + finds
        high += fixed + finds * min(cols, 2 * edgefactor)
    return rows, cols, low, high


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("record")
    parser.add_argument("--project", action="append", default=[], metavar="SCALE:RANKS")
    args = parser.parse_args()
    with open(args.record) as f:
        record = json.load(f)
    ok, n, per_level = check(record)
    for spec in args.project:
        scale, ranks = (int(x) for x in spec.split(":"))
        rows, cols, low, high = project(per_level, n, scale, ranks, record["parameters"]["edgefactor"])
        edges = record["parameters"]["edgefactor"] * 2 ** scale
        print(f"SCALE {scale} on {ranks} ranks ({rows}x{cols}): {low / 2**20:.1f} to {high / 2**20:.1f} MiB sent per "
              f"rank per search, {low * ranks / edges:.2f} to {high * ranks / edges:.2f} bytes per input edge in all")
    print("model holds" if ok else "MODEL DOES NOT HOLD")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
