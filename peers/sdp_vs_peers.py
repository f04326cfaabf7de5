#!/usr/bin/python3
"""Semidefinite programming: `ulibc sdp` against SDPA 7.3 and CSDP 6.2 on SDPLIB problems, side by side.

Method. Every SDPLIB problem (an SDPA sparse file, .dat-s; by default every
one in ../shared/sdplib beside the checkout, whose README lists the known
optima) is solved by three programs, each on --threads T threads (default 2),
each started with OMP_NUM_THREADS=T and OPENBLAS_NUM_THREADS=T (the peers'
OpenBLAS; SDPA's with --sdpa-blas-threads when given), in an empty work
directory (CSDP reads a param.csdp from its working directory):

  ULIBC  `ulibc sdp FILE --threads T --policy P --json J [--elements E]`; its
         record gives status (SDPA's phase words), objValPrimal, objValDual,
         relative_gap, p_feas_error, d_feas_error, iterations and times
         {elements, cholesky, other, total} in seconds.
  SDPA   `sdpa -ds FILE -o OUT -numThreads T` (Debian sdpa 7.3.16: OpenBLAS is
         linked into the binary and reads OPENBLAS_NUM_THREADS, else
         OMP_NUM_THREADS, else takes every core; -numThreads sets SDPA's own
         pthreads, which compute the Schur complement's elements; without it
         SDPA takes OMP_NUM_THREADS, else 1). Option form 2 (-ds/-o) does not
         read ./param.sdpa: SDPA's default parameters, from
         /usr/share/sdpa/param.sdpa. Its output file gives phase.value,
         Iteration, relative gap, objValPrimal, objValDual, p.feas.error,
         d.feas.error, and the phase times: "Make bMat time" (ELEMENTS, the
         Schur complement's elements), "Cholesky bMat" (CHOLESKY) and "Total".
         SDPA exits 0 whatever happens: a file without phase.value is a failure.
  CSDP   `csdp FILE SOLUTION` (Debian coinor-csdp 6.2.0, BLAS threads only).
         Its exit status: 0 solved, 1 primal infeasible, 2 dual infeasible (in
         CSDP's naming), 3 solved with reduced accuracy, 4 and above failed.
         CSDP's primal is SDPA's dual: its "Dual objective value" is SDPA's
         objValPrimal, its "Primal objective value" SDPA's objValDual, its
         "Relative dual infeasibility" SDPA's p.feas.error; its exit 2 is
         SDPA's dUNBD (SDPA's primal infeasible). Iterations: the last "Iter:"
         line; relative gap: its "Real Relative Gap", (dual - primal) /
         (1 + |dual| + |primal|), signed. Debian's build prints no phase times
         ("Elements time:", "Total time:"); they are read where a build does.

  Everything below is in SDPA's convention (SDPLIB's): primal, dual,
  objValPrimal >= objValDual at a feasible pair.

Checks, every round: the programs' answers fall in the same class (solved:
pdOPT, pdFEAS, pFEAS, dFEAS, CSDP 0 or 3; primal infeasible: dUNBD, pINF,
pINF_dFEAS, CSDP 2; dual infeasible: pUNBD, dINF, pFEAS_dINF, CSDP 1; primal
and dual infeasible: pdINF; failed: anything else); where two programs solved
it, their primal objectives, and their dual objectives, agree to 1e-6 relative
(|a - b| / max(1, (|a| + |b|) / 2), SDPA's relative gap); and each solved
program's objectives match the README's known optimum at the digits the
README lists, within one unit of its last digit (SDPLIB's values come from
SDPA runs, some rounded, some cut: gpp100's -44.94355 is listed as
-4.49435e+01), or its class is the one the README names (primal or dual
infeasible). Every disagreement is reported
under the tables, with the rounds it happened in; a phase other than pdOPT
(CSDP: 3) is listed as reduced accuracy. A program that fails (an exit status
that is not an answer, a binary not found, a run stopped after --timeout) is
recorded as failed and the run goes on; only ULIBC missing, or a ULIBC record
that lacks a key, ends the script (--no-ulibc runs the peers alone).

Rounds. Every round runs each problem with each program, ULIBC, SDPA, CSDP in
even rounds and the reverse in odd ones; each program's figure is the median
over rounds, and ULIBC's time over a peer's is the median of the per-round
ratios. Wall time is the process's, start to exit (GNU time for the peak RSS);
ELEMENTS is the program's own time for the Schur complement's elements
(ULIBC's times.elements, SDPA's "Make bMat time"). Problems whose SDPA median
wall time is under --min-seconds (0.05) go to a short table of their own:
too small to compare.

usage: sdp_vs_peers.py [--sdplib DIR] [--ulibc PATH] [--threads 2] [--rounds 3] [--problems a,b,...]
                       [--min-seconds 0.05] [--policy compact] [--elements auto|f1|f2|f3]
                       [--sdpa PATH] [--csdp PATH] [--sdpa-blas-threads N] [--timeout 600]
                       [--no-ulibc] [--markdown FILE] [--json FILE]
  DIR defaults to ../shared/sdplib beside the checkout; PATH to build/bin/ulibc.
Example:
  /usr/bin/python3 peers/sdp_vs_peers.py --threads 2 --rounds 3 --markdown sdp_peers.md
"""
import argparse
import decimal
import glob
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # importing peers_common leaves no __pycache__ in the source tree
from peers_common import machine_lines, machine_record, run_measured, save_record, unique_commands

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
AGREE = 1e-6  # relative agreement of the programs' objective values

SOLVED, PRIMAL_INF, DUAL_INF, BOTH_INF, FAILED = ("solved", "primal infeasible", "dual infeasible",
                                                  "primal and dual infeasible", "failed")
SDPA_CLASS = {"pdOPT": SOLVED, "pdFEAS": SOLVED, "pFEAS": SOLVED, "dFEAS": SOLVED,
              "dUNBD": PRIMAL_INF, "pINF": PRIMAL_INF, "pINF_dFEAS": PRIMAL_INF,
              "pUNBD": DUAL_INF, "dINF": DUAL_INF, "pFEAS_dINF": DUAL_INF,
              "pdINF": BOTH_INF}
# CSDP's exit status, in SDPA's convention (CSDP's primal is SDPA's dual).
CSDP_STATUS = {0: ("solved", SOLVED), 1: ("SDPA's dual infeasible", DUAL_INF),
               2: ("SDPA's primal infeasible", PRIMAL_INF), 3: ("reduced accuracy", SOLVED),
               4: ("iteration limit", FAILED), 5: ("stuck at primal feasibility", FAILED),
               6: ("stuck at dual feasibility", FAILED), 7: ("lack of progress", FAILED),
               8: ("X, Z or O singular", FAILED), 9: ("NaN or Inf", FAILED)}
ULIBC_KEYS = ["status", "objValPrimal", "objValDual", "relative_gap", "p_feas_error", "d_feas_error",
              "iterations", "time"]
ULIBC_STAGES = ["elements", "cholesky"]  # SDPA's two, in the log of where the time went


def stage_seconds(log, name):
    """The seconds of the top-level stage `name` of a log (harness/stage_log.hpp's JSON), None when absent."""
    for stage in log.get("stages", []):
        if isinstance(stage, dict) and stage.get("name") == name:
            return stage.get("seconds")
    return None


class Problem:
    def __init__(self, path, known):
        self.path = os.path.abspath(path)
        self.name = os.path.basename(path)[:-len(".dat-s")] if path.endswith(".dat-s") else os.path.basename(path)
        self.m, self.n = dat_size(self.path)
        self.known = known.get(self.name)  # the README's optimum (text) or "primal infeasible" / "dual infeasible"
        self.runs = {}  # program -> [record per round]
        self.issues = {}  # key -> {"text", "worst", "rounds", "programs"}

    def issue(self, key, programs, text, worst, rnd):
        entry = self.issues.get(key)
        if entry is None:
            entry = self.issues[key] = {"text": text, "worst": worst, "rounds": [], "programs": programs}
        elif worst > entry["worst"]:
            entry["text"], entry["worst"] = text, worst
        entry["rounds"].append(rnd + 1)


def dat_size(path):
    """(m, n) of an SDPA sparse file: the constraint count and the sum of the block sizes (|negative| = diagonal)."""
    numbers = []
    with open(path) as f:
        for line in f:
            s = line.strip()
            if not s or s[0] in "\"*":
                continue
            numbers.append([t for t in re.split(r"[\s,{}()=]+", s) if t])
            if len(numbers) == 3:
                break
    try:
        m, blocks = int(numbers[0][0]), int(numbers[1][0])
        return m, sum(abs(int(float(t))) for t in numbers[2][:blocks])
    except (IndexError, ValueError):
        sys.exit(f"not an SDPA sparse file (m, nBlock, block sizes): {path}")


def known_optima(sdplib):
    """The README's table: problem -> its optimal value as written, or "primal infeasible" / "dual infeasible"."""
    known = {}
    try:
        with open(os.path.join(sdplib, "README.md")) as f:
            text = f.read()
    except OSError:
        return known
    for m in re.finditer(r"^\|\s*([\w.+-]+)\s*\|\s*\d+\s*\|\s*\d+\s*\|\s*([^|]+?)\s*\|\s*$", text, re.M):
        known[m.group(1)] = m.group(2)
    return known


def known_check(value_text, x):
    """None when x is within one unit of the listed value's last digit, else |x - value|."""
    d = decimal.Decimal(value_text)
    unit = 10.0 ** d.as_tuple().exponent
    diff = abs(x - float(d))
    return None if diff <= unit * (1 + 1e-9) else diff


def rel(a, b):
    return abs(a - b) / max(1.0, (abs(a) + abs(b)) / 2)


def number(pattern, text, cast=float, last=False):
    found = re.findall(pattern, text, re.M)
    if not found:
        return None
    try:
        return cast(found[-1] if last else found[0])
    except ValueError:
        return None


def new_record(program, rnd, status, seconds, rss):
    return {"program": program, "round": rnd + 1, "exit": status, "seconds": seconds, "rss_bytes": rss,
            "phase": None, "class": FAILED, "obj_primal": None, "obj_dual": None, "relative_gap": None,
            "p_feas_error": None, "d_feas_error": None, "iterations": None, "elements": None,
            "cholesky": None, "total": None, "error": None}


def threads_env(threads, blas_threads):
    return ["env", f"OMP_NUM_THREADS={threads}", f"OPENBLAS_NUM_THREADS={blas_threads}"]


def tail(text, n=300):
    text = (text or "").strip()
    return text[-n:].replace("\n", " | ")


def not_found(program, rnd, path):
    """A failed record when the program's binary was not found, else None."""
    if path is None:
        r = new_record(program, rnd, None, None, None)
        r["error"] = f"{program} not found"
        return r
    return None


def run_sdpa(args, problem, rnd, workdir):
    missing = not_found("SDPA", rnd, args.sdpa)
    if missing:
        return missing
    out_file = os.path.join(workdir, "sdpa.out")
    if os.path.exists(out_file):
        os.remove(out_file)
    cmd = threads_env(args.threads, args.sdpa_blas_threads) + [args.sdpa, "-ds", problem.path, "-o", out_file,
                                                              "-numThreads", args.threads]
    status, out, err, rss, seconds = run_measured(cmd, args.timeout)
    r = new_record("SDPA", rnd, status, seconds, rss)
    if status is None:
        r["error"] = f"stopped after {args.timeout:g} s"
        return r
    try:
        with open(out_file) as f:
            text = f.read()
    except OSError:
        text = ""
    phase = number(r"^phase\.value\s*=\s*(\S+)", text, str)
    if status != 0 or phase is None:
        r["error"] = f"exit {status}, no phase.value in its output file: {tail(err or out)}"
        return r
    r["phase"], r["class"] = phase, SDPA_CLASS.get(phase, FAILED)
    r["iterations"] = number(r"^\s*Iteration\s*=\s*(\d+)", text, int)
    r["relative_gap"] = number(r"^relative gap\s*=\s*(\S+)", text)
    r["obj_primal"] = number(r"^objValPrimal\s*=\s*(\S+)", text)
    r["obj_dual"] = number(r"^objValDual\s*=\s*(\S+)", text)
    r["p_feas_error"] = number(r"^p\.feas\.error\s*=\s*(\S+)", text)
    r["d_feas_error"] = number(r"^d\.feas\.error\s*=\s*(\S+)", text)
    r["elements"] = number(r"^\s*Make bMat time\s*=\s*([-+.\deE]+)", text)
    r["cholesky"] = number(r"^\s*Cholesky bMat\s*=\s*([-+.\deE]+)", text)
    r["total"] = number(r"^\s*Total\s*=\s*([-+.\deE]+)", text)
    if r["total"] is None:
        r["total"] = number(r"^total time\s*=\s*(\S+)", text)
    if r["class"] == SOLVED and (r["obj_primal"] is None or r["obj_dual"] is None):
        r["class"], r["error"] = FAILED, "no objValPrimal/objValDual in its output file"
    return r


def run_csdp(args, problem, rnd, workdir):
    missing = not_found("CSDP", rnd, args.csdp)
    if missing:
        return missing
    solution = os.path.join(workdir, "csdp.sol")
    if os.path.exists(solution):
        os.remove(solution)
    cmd = threads_env(args.threads, args.threads) + [args.csdp, problem.path, solution]
    status, out, err, rss, seconds = run_measured(cmd, args.timeout)
    r = new_record("CSDP", rnd, status, seconds, rss)
    if status is None:
        r["error"] = f"stopped after {args.timeout:g} s"
        return r
    words, cls = CSDP_STATUS.get(status, (f"exit {status}", FAILED))
    r["phase"], r["class"] = f"{status}: {words}", cls
    r["iterations"] = number(r"^Iter:\s*(\d+)", out, int, last=True)
    r["obj_dual"] = number(r"^Primal objective value:\s*(\S+)", out)  # CSDP's primal is SDPA's dual
    r["obj_primal"] = number(r"^Dual objective value:\s*(\S+)", out)
    r["d_feas_error"] = number(r"^Relative primal infeasibility:\s*(\S+)", out)
    r["p_feas_error"] = number(r"^Relative dual infeasibility:\s*(\S+)", out)
    r["relative_gap"] = number(r"^Real Relative Gap:\s*(\S+)", out)
    r["elements"] = number(r"^Elements time:\s*(\S+)", out)
    r["total"] = number(r"^Total time:\s*(\S+)", out)
    if status not in CSDP_STATUS:
        r["error"] = f"exit {status}: {tail(err or out)}"
    elif cls == SOLVED and (r["obj_primal"] is None or r["obj_dual"] is None):
        r["class"], r["error"] = FAILED, "no objective values in its output"
    return r


def run_ulibc(args, problem, rnd, workdir):
    path = os.path.join(workdir, "ulibc.json")
    if os.path.exists(path):
        os.remove(path)
    cmd = threads_env(args.threads, args.threads) + [args.ulibc, "sdp", problem.path, "--threads", args.threads,
                                                     "--policy", args.policy, "--json", path]
    if args.elements:
        cmd += ["--elements", args.elements]
    status, out, err, rss, seconds = run_measured(cmd, args.timeout)
    r = new_record("ULIBC", rnd, status, seconds, rss)
    if status is None:
        r["error"] = f"stopped after {args.timeout:g} s"
        return r
    try:
        with open(path) as f:
            raw = json.load(f)
    except (OSError, ValueError) as e:
        if status == 0:
            sys.exit(f"`ulibc sdp` exited 0 but wrote no readable record ({e}): {' '.join(map(str, cmd))}")
        r["error"] = f"exit {status}, no record: {tail(err or out)}"
        return r
    missing = [k for k in ULIBC_KEYS if k not in raw]
    log = raw.get("time")
    if not missing and isinstance(log, dict):
        missing = [f"time: stage {k}" for k in ULIBC_STAGES if stage_seconds(log, k) is None]
        missing += [] if "seconds" in log else ["time.seconds"]
    elif not missing:
        missing = ["time (an object)"]
    if missing:
        sys.exit(f"`ulibc sdp`'s record {path} lacks {', '.join(missing)} (expected keys: "
                 f"{', '.join(ULIBC_KEYS)}; stages: {', '.join(ULIBC_STAGES)}): {' '.join(map(str, cmd))}")
    try:
        phase = str(raw["status"])
        r.update({"phase": phase, "class": SDPA_CLASS.get(phase, FAILED),
                  "obj_primal": as_float(raw["objValPrimal"]), "obj_dual": as_float(raw["objValDual"]),
                  "relative_gap": as_float(raw["relative_gap"]), "p_feas_error": as_float(raw["p_feas_error"]),
                  "d_feas_error": as_float(raw["d_feas_error"]), "iterations": int(raw["iterations"]),
                  "elements": as_float(stage_seconds(log, "elements")),
                  "cholesky": as_float(stage_seconds(log, "cholesky")), "total": as_float(log["seconds"]),
                  "time": log})
    except (TypeError, ValueError) as e:
        sys.exit(f"`ulibc sdp`'s record {path} has a value of the wrong type ({e}): {raw}")
    if r["class"] == SOLVED and (r["obj_primal"] is None or r["obj_dual"] is None):
        r["class"], r["error"] = FAILED, "status solved, objValPrimal or objValDual null"
    elif status != 0:
        r["error"] = f"exit {status}"
    return r


def as_float(v):
    return None if v is None else float(v)


RUNNERS = {"ULIBC": run_ulibc, "SDPA": run_sdpa, "CSDP": run_csdp}


def check_round(problem, rnd, programs):
    """Compare this round's answers with each other and with the README; note disagreements on the problem."""
    recs = [problem.runs[p][rnd] for p in programs]
    for r in recs:
        if r["class"] == FAILED:
            why = r["error"] or f"phase {r['phase']}"
            problem.issue(("failed", r["program"]), [r["program"]], f"{r['program']} failed: {why}", 0, rnd)
        elif r["phase"] not in ("pdOPT", "0: solved") and r["class"] == SOLVED:
            problem.issue(("reduced", r["program"]), [r["program"]],
                          f"{r['program']} reduced accuracy: {r['phase']} (rel. gap {fmt(r['relative_gap'])})", 0, rnd)
    for i, a in enumerate(recs):
        for b in recs[i + 1:]:
            if a["class"] == FAILED or b["class"] == FAILED:
                continue
            pair = [a["program"], b["program"]]
            if a["class"] != b["class"]:
                problem.issue(("class",) + tuple(pair), pair, f"{a['program']} {a['class']} ({a['phase']}) vs "
                              f"{b['program']} {b['class']} ({b['phase']})", 1, rnd)
            elif a["class"] == SOLVED:
                for key, label in (("obj_primal", "objValPrimal"), ("obj_dual", "objValDual")):
                    d = rel(a[key], b[key])
                    if d > AGREE:
                        problem.issue(("objective", key) + tuple(pair), pair,
                                      f"{label}: {a['program']} {a[key]:.10g} vs {b['program']} {b[key]:.10g} "
                                      f"({d:.1e} rel.)", d, rnd)
    if problem.known is None:
        return
    expected = problem.known if problem.known in (PRIMAL_INF, DUAL_INF) else SOLVED
    for r in recs:
        if r["class"] == FAILED:
            continue
        if r["class"] != expected:
            problem.issue(("known class", r["program"]), [r["program"], "SDPLIB"],
                          f"{r['program']} {r['class']} ({r['phase']}), SDPLIB: {problem.known}", 1, rnd)
        elif expected == SOLVED:
            for key, label in (("obj_primal", "objValPrimal"), ("obj_dual", "objValDual")):
                diff = known_check(problem.known, r[key])
                if diff is not None:
                    problem.issue(("known", key, r["program"]), [r["program"], "SDPLIB"],
                                  f"{label}: {r['program']} {r[key]:.10g}, SDPLIB {problem.known} (off by {diff:.2g})",
                                  diff, rnd)


def fmt(x, spec=".3g"):
    return "—" if x is None else format(x, spec)


def median_of(records, key):
    values = [r[key] for r in records if r.get(key) is not None]
    return statistics.median(values) if values else None


def answered(r):
    """A run that came back with an answer (any class but failed)."""
    return r is not None and r["class"] != FAILED and r["seconds"] is not None


def ratio(problem, num, den, key):
    """The median over rounds of num's `key` over den's, over the rounds both answered; None without any."""
    pairs = [(a[key], b[key]) for a, b in zip(problem.runs.get(num, []), problem.runs.get(den, []))
             if answered(a) and answered(b) and a[key] is not None and b[key]]
    return statistics.median(x / y for x, y in pairs) if pairs else None


def phases(records):
    seen = list(dict.fromkeys(r["phase"] or ("not run" if r["seconds"] is None else "failed") for r in records))
    return " / ".join(seen)


def issue_tags(problem, program):
    tags = []
    for key, e in problem.issues.items():
        if program not in e["programs"] or key[0] == "reduced":
            continue
        other = [p for p in e["programs"] if p != program]
        kind = key[0]
        if kind == "failed":
            tags.append("failed")
        elif kind == "class":
            tags.append(f"class ≠ {other[0]}")
        elif kind == "objective":
            tags.append(f"≠ {other[0]} {e['worst']:.0e}")
        else:
            tags.append("≠ SDPLIB")
    return ", ".join(dict.fromkeys(tags)) or "ok"


def mib(x):
    return None if x is None else x / 2**20


def results_table(problems, programs, with_ulibc):
    head = ["problem (m, n)", "program", "phase", "iterations", "rel. gap", "p. / d. feas. error", "wall s",
            "ELEMENTS s", "peak RSS MiB"]
    if with_ulibc:
        head += ["ULIBC/this wall", "ULIBC/this ELEMENTS"]
    head.append("checks")
    lines = ["| " + " | ".join(head) + " |", "|:--|:--|:--|" + "--:|" * (len(head) - 4) + ":--|"]
    for p in problems:
        for i, prog in enumerate(programs):
            recs = p.runs[prog]
            ok = [r for r in recs if answered(r)]
            cells = [f"{p.name} ({p.m}, {p.n})" if i == 0 else "", prog, phases(recs),
                     fmt(median_of(ok, "iterations"), ".0f"), fmt(median_of(ok, "relative_gap"), ".1e"),
                     f"{fmt(median_of(ok, 'p_feas_error'), '.1e')} / {fmt(median_of(ok, 'd_feas_error'), '.1e')}",
                     fmt(median_of(ok, "seconds"), ".3g"), fmt(median_of(ok, "elements"), ".3g"),
                     fmt(mib(max((r["rss_bytes"] for r in ok if r["rss_bytes"]), default=None)), ".1f")]
            if with_ulibc:
                if prog == "ULIBC":
                    cells += ["1", "1"]
                else:
                    cells += [fmt(ratio(p, "ULIBC", prog, "seconds"), ".2f"),
                              fmt(ratio(p, "ULIBC", prog, "elements"), ".2f")]
            cells.append(issue_tags(p, prog))
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def small_table(problems, programs):
    head = ["problem (m, n)"] + [f"{prog} wall s" for prog in programs] + \
           [f"phases ({', '.join(programs)})", "checks"]
    lines = ["| " + " | ".join(head) + " |", "|:--|" + "--:|" * len(programs) + ":--|:--|"]
    for p in problems:
        cells = [f"{p.name} ({p.m}, {p.n})"]
        cells += [fmt(median_of([r for r in p.runs[prog] if answered(r)], "seconds"), ".3g") for prog in programs]
        cells.append("; ".join(phases(p.runs[prog]) for prog in programs))
        bad = [prog for prog in programs if issue_tags(p, prog) != "ok"]
        cells.append("ok" if not bad else "see below")
        lines.append("| " + " | ".join(cells) + " |")
    return lines


def issue_lines(problems):
    lines = []
    for p in problems:
        for key, e in p.issues.items():
            if key[0] != "reduced":
                lines.append(f"- {p.name}: {e['text']} (rounds {', '.join(map(str, e['rounds']))})")
    reduced = [f"{p.name}: {e['text']} (rounds {', '.join(map(str, e['rounds']))})"
               for p in problems for key, e in p.issues.items() if key[0] == "reduced"]
    out = ["Disagreements (class, objective values beyond 1e-6 relative, more than one unit of the last "
           "digit SDPLIB lists from its optimum, failures):", ""]
    out += lines or ["- none"]
    out += ["", "Reduced accuracy (a phase other than pdOPT; CSDP exit 3):", ""]
    out += [f"- {x}" for x in reduced] or ["- none"]
    return out


def version_line(cmd, pattern):
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(pattern, proc.stdout + proc.stderr)
    return m.group(0).strip() if m else "?"


def blas_of(binary):
    """The BLAS that `binary` loads (its libblas.so.3 resolved), or a note that it has none of its own."""
    try:
        text = subprocess.run(["ldd", binary], capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.TimeoutExpired):
        return "?"
    m = re.search(r"lib(?:open)?blas\S*\s*=>\s*(\S+)", text)
    if m:
        return os.path.realpath(m.group(1))
    return "linked into the binary (no libblas in ldd)"


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sdplib", default=os.path.join(REPO, "..", "shared", "sdplib"),
                        help="directory of .dat-s files and README.md with the optima (default ../shared/sdplib)")
    parser.add_argument("--ulibc", default=os.path.join(REPO, "build", "bin", "ulibc"),
                        help="the ulibc binary (default build/bin/ulibc)")
    parser.add_argument("--no-ulibc", action="store_true", help="run the peers alone")
    parser.add_argument("--sdpa", default="sdpa", help="SDPA's binary (default: sdpa on PATH)")
    parser.add_argument("--csdp", default="csdp", help="CSDP's binary (default: csdp on PATH)")
    parser.add_argument("--threads", type=int, default=2, help="threads for every program (default 2)")
    parser.add_argument("--sdpa-blas-threads", type=int,
                        help="OPENBLAS_NUM_THREADS for SDPA (default: --threads; SDPA's own threads stay --threads)")
    parser.add_argument("--policy", default="compact", help="ULIBC's placement policy (default compact)")
    parser.add_argument("--elements", choices=["auto", "f1", "f2", "f3"],
                        help="passed to `ulibc sdp --elements` (default: not passed)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds (default 3)")
    parser.add_argument("--problems", help="comma-separated names in --sdplib (or .dat-s paths); default: all")
    parser.add_argument("--min-seconds", type=float, default=0.05,
                        help="problems whose SDPA median wall time is below this go to the too-small table "
                             "(default 0.05)")
    parser.add_argument("--timeout", type=float, default=600, help="seconds before a run is stopped (default 600)")
    parser.add_argument("--markdown", help="also write the report's Markdown to this file")
    parser.add_argument("--json", help="write every run's record and the commands to this file")
    args = parser.parse_args()
    if args.rounds < 1 or args.threads < 1 or args.timeout <= 0:
        sys.exit("--rounds, --threads must be at least 1, --timeout positive")
    if args.sdpa_blas_threads is None:
        args.sdpa_blas_threads = args.threads
    args.sdplib = os.path.abspath(args.sdplib)
    if args.problems:
        paths = []
        for name in (x for x in args.problems.split(",") if x):
            path = name if os.path.isfile(name) else os.path.join(args.sdplib, name + ("" if name.endswith(".dat-s")
                                                                                          else ".dat-s"))
            if not os.path.isfile(path):
                sys.exit(f"--problems: no such problem: {name} (looked for {path})")
            paths.append(path)
    else:
        paths = sorted(glob.glob(os.path.join(args.sdplib, "*.dat-s")))
        if not paths:
            sys.exit(f"no .dat-s files in {args.sdplib} (--sdplib DIR)")
    known = known_optima(args.sdplib)
    args.problems = [Problem(p, known) for p in paths]
    if not args.no_ulibc:
        args.ulibc = os.path.abspath(args.ulibc)
        if not os.access(args.ulibc, os.X_OK):
            sys.exit(f"no ulibc binary at {args.ulibc} (build it, pass --ulibc PATH, or --no-ulibc for the peers alone)")
        try:
            proc = subprocess.run([args.ulibc, "sdp", "--help"], capture_output=True, text=True, timeout=60)
            # A build without the subcommand may print the top-level help and exit 0.
            failed = (f"exit {proc.returncode}: {tail(proc.stderr or proc.stdout)}" if proc.returncode != 0 else
                      None if re.search(r"Usage:\s*\S*ulibc\S*\s+sdp\b", proc.stdout) else
                      "its help is not `ulibc sdp`'s")
        except (OSError, subprocess.TimeoutExpired) as e:
            failed = str(e)
        if failed:
            sys.exit(f"`{args.ulibc} sdp --help` failed ({failed}): a build without `ulibc sdp`? "
                     "(--no-ulibc runs the peers alone)")
    args.sdpa = shutil.which(args.sdpa)  # None: recorded as not found in every round
    args.csdp = shutil.which(args.csdp)
    return args


def main():
    args = parse_args()
    programs = (["ULIBC"] if not args.no_ulibc else []) + ["SDPA", "CSDP"]
    header = [f"# {' '.join(sys.argv)}"] + [f"# {line}" for line in machine_lines(None, None)]
    sdpa_version = version_line([args.sdpa, "--version"], r"SDPA \(SemiDefinite[^\n]*") if args.sdpa else "not found"
    csdp_version = version_line([args.csdp], r"CSDP [\d.]+") if args.csdp else "not found"
    header.append(f"# SDPA: {args.sdpa or 'not found'}, {sdpa_version}, BLAS "
                  f"{blas_of(args.sdpa) if args.sdpa else '?'}")
    header.append(f"# CSDP: {args.csdp or 'not found'}, {csdp_version}, BLAS "
                  f"{blas_of(args.csdp) if args.csdp else '?'}")
    header.append(f"# ULIBC: {'not run (--no-ulibc)' if args.no_ulibc else args.ulibc}")
    print("\n".join(header))
    sys.stdout.flush()

    workdir = tempfile.mkdtemp(prefix="sdp_vs_peers.")
    here = os.getcwd()
    os.chdir(workdir)  # no param.csdp / param.sdpa of the caller's is read
    try:
        for rnd in range(args.rounds):
            order = programs if rnd % 2 == 0 else programs[::-1]
            for p in args.problems:
                line = []
                for prog in order:
                    r = RUNNERS[prog](args, p, rnd, workdir)
                    p.runs.setdefault(prog, []).append(r)
                    line.append(f"{prog} {fmt(r['seconds'], '.3g')} s {r['phase'] or r['error']}")
                check_round(p, rnd, programs)
                print(f"# round {rnd + 1}, {p.name}: " + "; ".join(line))
                sys.stdout.flush()
    finally:
        os.chdir(here)
        shutil.rmtree(workdir, ignore_errors=True)

    def sdpa_wall(p):
        return median_of([r for r in p.runs["SDPA"] if answered(r)], "seconds")

    small = [p for p in args.problems if sdpa_wall(p) is not None and sdpa_wall(p) < args.min_seconds]
    large = [p for p in args.problems if p not in small]
    who = "ULIBC against SDPA and CSDP" if not args.no_ulibc else "SDPA and CSDP (ULIBC not run)"
    md = [f"## SDP: {who} on SDPLIB", "", "### Command", "", "```", " ".join(sys.argv), "```", "",
          "### Machine", ""]
    md += [f"- {line[2:]}" for line in header[1:]]
    md += ["", f"### Results ({args.threads} threads, medians of {args.rounds} round(s))", "",
           f"Each program on {args.threads} threads (OMP_NUM_THREADS and OPENBLAS_NUM_THREADS = "
           f"{args.threads}{'' if args.sdpa_blas_threads == args.threads else f', SDPA OpenBLAS {args.sdpa_blas_threads}'}"
           f"; SDPA `-numThreads {args.threads}`"
           f"{'' if args.no_ulibc else f'; ULIBC `--threads {args.threads} --policy {args.policy}`'}). "
           "Wall: the process, start to exit. ELEMENTS: the Schur complement's elements, the program's own "
           "timer (SDPA's \"Make bMat time\"; Debian's CSDP prints none). Rel. gap as each program reports it "
           "(SDPA and ULIBC: |p − d| / max(1, (|p| + |d|) / 2); CSDP: (d − p) / (1 + |d| + |p|) in its own "
           "naming, signed). p. / d. feas. error in SDPA's convention (CSDP's dual infeasibility is SDPA's "
           "p.feas.error)."
           + ("" if args.no_ulibc else " ULIBC/this: median of the per-round ratios (below 1: ULIBC is faster).")
           + f" SDPA under {args.min_seconds:g} s: in the next table.", ""]
    md += results_table(large, programs, not args.no_ulibc) if large else ["(none)"]
    md += ["", f"### Too small to compare (SDPA under {args.min_seconds:g} s)", ""]
    md += small_table(small, programs) if small else ["(none)"]
    md += [""] + issue_lines(args.problems)
    md += ["", "Commands run:", "", "```"] + unique_commands() + ["```"]
    print()
    print("\n".join(md))
    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("\n".join(md) + "\n")
        print(f"# markdown: {args.markdown}")
    if args.json:
        save_record(args.json, {
            "benchmark": "sdp_vs_peers", "argv": sys.argv, "machine": machine_record(),
            "threads": args.threads, "sdpa_blas_threads": args.sdpa_blas_threads, "rounds": args.rounds,
            "policy": args.policy, "sdpa": sdpa_version, "csdp": csdp_version,
            "ulibc": None if args.no_ulibc else args.ulibc,
            "problems": [{"problem": p.name, "m": p.m, "n": p.n, "known": p.known, "runs": p.runs,
                          "too_small": p in small,
                          "ulibc_over_sdpa_wall": ratio(p, "ULIBC", "SDPA", "seconds"),
                          "ulibc_over_sdpa_elements": ratio(p, "ULIBC", "SDPA", "elements"),
                          "ulibc_over_csdp_wall": ratio(p, "ULIBC", "CSDP", "seconds"),
                          "issues": [dict(e, key=list(k)) for k, e in p.issues.items()]}
                         for p in args.problems],
            "commands": unique_commands()})


if __name__ == "__main__":
    main()
