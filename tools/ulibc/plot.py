"""Draws a `ulibc bench` JSON record: each measurement against the thread
count, one line per policy and variant (the ULIBC paper's Fig. 8 layout), with
95% intervals where the kernel gives them and, shaded, the range of its
repetitions, so that noise is not read as a policy's effect. With one thread
count, bars whose whiskers are that range. On a machine of one NUMA node the
title says that policies can only differ there by the order of the cores.
When the kernel's parameters carry "plot_x" ({"label", "values": {variant:
x}}), the variants are sizes: each measurement is drawn against the size,
one line per policy and thread count (the paper's Fig. 13), on a log scale.

A `ulibc gmres` record (one with a "time" split), or a list of them, is drawn
as stacked bars of where each solve's time went (Katagiri and Kuroda's Fig. 12).

usage: plot.py RECORD.json OUT.png|OUT.svg [MEASUREMENT ...]
Without measurements: the kernel's headline first, then the next three it reports.
"""
import json
import math
import sys

import matplotlib

matplotlib.use("Agg")  # no display: CI and ssh sessions
import matplotlib.pyplot as plt  # noqa: E402

MAX_PANELS = 4


def measurement_names(record):
    names = []
    for run in record["runs"]:
        for result in run["results"]:
            for m in result["measurements"]:
                if m["name"] not in names:
                    names.append(m["name"])
    headline = record.get("headline")
    if headline in names:
        names.remove(headline)
        names.insert(0, headline)
    return names[:MAX_PANELS]


def spread(m):
    """The lowest and highest repetition of a measurement, or its value twice when it kept none."""
    reps = m.get("reps") or [m["value"]]
    return min(reps), max(reps)


def series(record, name):
    """{(policy, variant): {threads: (value, ci95, (lowest, highest) repetition)}} and the unit of `name`."""
    lines, unit = {}, ""
    for run in record["runs"]:
        if not run["valid"]:
            continue
        for result in run["results"]:
            for m in result["measurements"]:
                if m["name"] != name:
                    continue
                unit = m["unit"]
                label = run["policy"] + (" / " + result["variant"] if result["variant"] else "")
                lines.setdefault(label, {})[run["threads"]] = (m["value"], m["ci95"], spread(m))
    return lines, unit


def series_against_size(record, name, plot_x):
    """{"policy, T threads": {x: (value, ci95)}} and the unit, x from plot_x's values."""
    lines, unit = {}, ""
    for run in record["runs"]:
        if not run["valid"]:
            continue
        for result in run["results"]:
            x = plot_x["values"].get(result["variant"])
            for m in result["measurements"]:
                if m["name"] == name and x is not None:
                    unit = m["unit"]
                    label = f"{run['policy']}, {plural(run['threads'], 'thread')}"
                    lines.setdefault(label, {})[x] = (m["value"], m["ci95"])
    return lines, unit


def draw_against_size(ax, lines, plot_x):
    for label, points in lines.items():
        xs = sorted(points)
        ax.plot(xs, [points[x][0] for x in xs], marker="o", label=label)
    ax.set_yscale("log")
    ax.set_xticks(sorted({x for points in lines.values() for x in points}))
    ax.set_xlabel(plot_x["label"])


def draw_lines(ax, lines):
    for label, points in lines.items():
        xs = sorted(points)
        ys = [points[x][0] for x in xs]
        errors = [points[x][1] or 0.0 for x in xs]
        drawn = ax.errorbar(xs, ys, yerr=errors if any(errors) else None, marker="o", capsize=3, label=label)
        lows, highs = [points[x][2][0] for x in xs], [points[x][2][1] for x in xs]
        if lows != highs:
            ax.fill_between(xs, lows, highs, color=drawn.lines[0].get_color(), alpha=0.15, linewidth=0)
    every = sorted({x for points in lines.values() for x in points})
    ax.set_xscale("log", base=2)
    ax.set_xticks(every)
    ax.set_xticklabels([str(x) for x in every])
    ax.set_xlabel("threads")


def draw_bars(ax, lines):
    labels = list(lines)
    values = [next(iter(lines[label].values())) for label in labels]
    below = [max(0.0, v[0] - v[2][0]) for v in values]
    above = [max(0.0, v[2][1] - v[0]) for v in values]
    ax.bar(range(len(labels)), [v[0] for v in values], yerr=[below, above] if any(below + above) else None, capsize=3)
    ax.set_xticks(range(len(labels)))
    ax.set_xticklabels(labels, rotation=30, ha="right")
    threads = next(iter(lines[labels[0]]))
    ax.set_xlabel(f"policy ({threads} threads)")


def title(record):
    machine = record["machine"]
    counts = machine["topology"]["counts"]
    line = (f"ulibc bench {record['kernel']} on {machine['hostname']}: {plural(counts['nodes'], 'node')}, "
            f"{plural(counts['packages'], 'package')}, {plural(counts['usable'], 'processor')}")
    if counts["nodes"] == 1:
        line += ("\none NUMA node: the policies differ only in the order of the cores, "
                 "so differences within the shaded spread of the repetitions are noise")
    return line


def plural(count, noun):
    return f"{count} {noun}" + ("" if count == 1 else "s")


TIME_PARTS = ["spmv", "comm", "orth", "precond", "tuning", "other"]


def time_parts(log):
    """A solve's seconds by part, from its log of where the time went (stage_log.hpp's JSON): each top-level stage,
    the products' MPI exchanges (spmv/comm) apart from their arithmetic, and what no stage holds as "other"."""
    stages = {s["name"]: s for s in log.get("stages", [])}
    parts = {name: stages[name]["seconds"] if name in stages else 0.0 for name in TIME_PARTS}
    parts["comm"] = sum(s["seconds"] for s in stages.get("spmv", {}).get("stages", []) if s["name"] == "comm")
    parts["spmv"] -= parts["comm"]
    parts["other"] = log["seconds"] - sum(s["seconds"] for s in stages.values())
    return parts


def draw_time_split(solves, path):
    """One stacked bar per solve: its seconds in each part, labelled by rank count and choices."""
    fig, ax = plt.subplots(figsize=(max(4.0, 1.2 * len(solves) + 2), 4.2))
    labels = [f"{s['ranks']} rank{'s' if s['ranks'] != 1 else ''}\n{s['choices']['precond']}, "
              f"{s['choices']['orth']}, m={s['choices']['restart']}" for s in solves]
    bottom = [0.0] * len(solves)
    parts = [time_parts(s["time"]) for s in solves]
    for part in TIME_PARTS:
        heights = [p[part] for p in parts]
        ax.bar(labels, heights, bottom=bottom, label=part)
        bottom = [b + h for b, h in zip(bottom, heights)]
    ax.set_ylabel("seconds")
    ax.legend(fontsize="small")
    ax.set_title(f"ulibc gmres: {solves[0]['matrix']['name']}, time to solution by part")
    fig.tight_layout()
    fig.savefig(path)


def main(argv):
    if len(argv) < 3:
        sys.exit(__doc__)
    with open(argv[1]) as f:
        record = json.load(f)
    if isinstance(record, list) or "time" in record:
        return draw_time_split(record if isinstance(record, list) else [record], argv[2])
    names = argv[3:] or measurement_names(record)
    plot_x = record.get("parameters", {}).get("plot_x")
    if plot_x:
        panels = [(name, *series_against_size(record, name, plot_x)) for name in names]
    else:
        panels = [(name, *series(record, name)) for name in names]
    panels = [p for p in panels if p[1]]
    if not panels:
        sys.exit("plot: no valid run reports " + ", ".join(names))
    thread_counts = {t for _, lines, _ in panels for points in lines.values() for t in points}
    columns = min(2, len(panels))
    rows = math.ceil(len(panels) / columns)
    fig, axes = plt.subplots(rows, columns, figsize=(6.4 * columns, 4.2 * rows), squeeze=False)
    for ax, (name, lines, unit) in zip(axes.flat, panels):
        if plot_x:
            draw_against_size(ax, lines, plot_x)
        else:
            (draw_lines if len(thread_counts) > 1 else draw_bars)(ax, lines)
        ax.set_title(name)
        ax.set_ylabel(unit)
        ax.grid(True, alpha=0.3)
        if len(thread_counts) > 1 or plot_x:
            ax.legend(fontsize="small")
    for ax in list(axes.flat)[len(panels):]:
        ax.set_visible(False)
    fig.suptitle(title(record))
    fig.tight_layout()
    fig.savefig(argv[2])


if __name__ == "__main__":
    main(sys.argv)
