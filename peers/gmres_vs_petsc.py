#!/usr/bin/python3
"""GMRES(m): `ulibc gmres` with every knob on auto against PETSc's KSPGMRES, swept and at its defaults.

Method. Each problem (a Matrix Market file, or a model problem by name:
poisson2d:400, convdiff2d:400, convdiff3d:80; docs/SPARSE.md) is solved at
each rank count K by both programs under `mpirun -n K`, with b = A·1,
x0 = 0, the stopping test ‖b − A·x‖ ≤ tol·‖b‖ (default 1e-8) and at most
--max-iterations (10000):

  PETSc  peers/petsc_gmres.cpp (ulibc_peer_petsc_gmres): KSPGMRES on the
         same matrix, read by ULIBC's reader or made by ULIBC's generator,
         with right preconditioning and the test on the unpreconditioned
         residual, as `ulibc gmres` stops. Swept over every restart
         (10, 30, 50, 100) x orthogonalisation (cgs: classical Gram–Schmidt;
         cgs2: classical, always refined; mgs: modified) x preconditioner
         (none; jacobi; bilu0: block Jacobi with ILU(0) in each rank's
         block, which on one rank is ILU(0) of the whole matrix), and once
         more at PETSc's default: the driver given no setting, so that
         PETSc's own choices hold: GMRES(30), classical Gram–Schmidt
         without refinement, ILU(0) on one rank and block Jacobi ILU(0) on
         several (PETSc's own default would also precondition on the left
         and test the preconditioned residual; the driver keeps the common
         test). Its time is KSPSetUp + KSPSolve, the preconditioner's setup
         included.
  ULIBC  `ulibc gmres (--matrix F | --generate NAME) --tol T
         --max-iterations N --json FILE`, every knob on auto (restart,
         orthogonalisation, preconditioner, SpMV format, communication: its
         record's "choices"); its time is the record's time.seconds, the tuning
         included. Where `ulibc gmres --help` fails (a build without it), the
         ULIBC half is left out, saying so, and PETSc's half runs alone.

Rounds. Every round runs, for each problem and rank count, PETSc's default,
each swept setting and ULIBC in turn, so that drift in the machine's state
falls on all of them alike; the report gives each one's median over the
rounds, and ratios as the median of the per-round ratios. A setting that
does not converge in the first round (it stops at the iteration limit, or
breaks down) is not run again: its iterations and the residual it reached are
reported. A run is stopped after --min-cutoff (10) seconds plus --cutoff (10)
times the fastest converged median so far of that problem and rank count:
it cannot be the best one, and the sweep on the large problems would
otherwise take hours; it is reported as stopped, with the limit.

Report. Per problem and rank count, a Markdown table: PETSc's best swept
setting (the lowest median among those that converged in every round),
PETSc's default, ULIBC on auto (its choices), each with iterations, the true
relative residual each program computes after its solve, the median seconds,
and ULIBC's time over theirs (below 1: ULIBC is faster). Then the sweep: for
each setting, the median seconds and iterations, "no" with the residual
reached, or "stopped". A record that claims convergence with a true residual
above the tolerance is flagged. The hard problem is the one PETSc's default
fails on, or, when it solves them all, the one it is slowest on. Last, SpMV:
PETSc's MatMult GFLOP/s (2 x non-zeros per product) on each problem and rank
count, the median of --rounds rounds after a warm-up; the ULIBC column is left
for `ulibc bench gmres` (see ulibc_spmv_gflops below).

usage: gmres_vs_petsc.py [--build DIR] [--problems P,...] [--ranks 1,2] [--rounds 3] [--tol 1e-8]
                         [--max-iterations 10000] [--restarts 10,30,50,100] [--orths cgs,cgs2,mgs]
                         [--preconds none,jacobi,bilu0] [--cutoff 10] [--min-cutoff 10] [--no-matmult]
                         [--quick] [--json FILE]
  DIR is the build directory (default: build/ beside peers/), with bin/ulibc and
  bin/ulibc_peer_petsc_gmres. Problems are Matrix Market files or model problem
  names; by default every .mtx in ../shared/matrices (beside the checkout),
  when there, then poisson2d:400, convdiff2d:400 and convdiff3d:80.
Example:
  /usr/bin/python3 peers/gmres_vs_petsc.py --build build --ranks 1,2 --rounds 3 --json gmres_petsc.json
"""
import argparse
import glob
import itertools
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.dont_write_bytecode = True  # importing peers_common leaves no __pycache__ in the source tree
from peers_common import machine_lines, machine_record, print_commands, run_limited, save_record, unique_commands

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
MODEL_PROBLEMS = ["poisson2d:400", "convdiff2d:400", "convdiff3d:80"]
QUICK_PROBLEMS = ["poisson2d:20", "convdiff2d:20"]
NOT_CONVERGED = 3  # both programs' exit status for a solve that stopped short, its record written all the same

# Open MPI refuses root without these, and places no more ranks than cores without the last.
MPI_ENV = {"OMPI_ALLOW_RUN_AS_ROOT": "1", "OMPI_ALLOW_RUN_AS_ROOT_CONFIRM": "1",
           "OMPI_MCA_rmaps_base_oversubscribe": "1"}


class Problem:
    def __init__(self, spec):
        self.spec = spec
        self.is_file = spec.endswith(".mtx") or os.path.isfile(spec)
        self.name = os.path.basename(spec) if self.is_file else spec
        self.rows = self.nonzeros = None  # from the first record

    def args(self):
        return ["--matrix", os.path.abspath(self.spec)] if self.is_file else ["--generate", self.spec]


class Setting:
    """One PETSc configuration: the default (no options) or restart x orth x precond."""

    def __init__(self, restart=None, orth=None, precond=None):
        self.restart, self.orth, self.precond = restart, orth, precond
        self.default = restart is None

    @property
    def label(self):
        return "default" if self.default else f"m={self.restart} {self.orth} {self.precond}"

    def args(self):
        return [] if self.default else ["--restart", self.restart, "--orth", self.orth, "--precond", self.precond]


class Series:
    """The runs of one program at one setting, problem and rank count."""

    def __init__(self):
        self.records = []  # one per round it ran
        self.stopped = None  # the limit in seconds, when a run was stopped
        self.done = False  # not run again: stopped or not converged

    @property
    def converged(self):
        return bool(self.records) and self.stopped is None and all(r["converged"] for r in self.records)

    def median(self):
        return statistics.median(r["seconds"] for r in self.records) if self.records else None


def mpirun(ranks, cmd):
    return ["mpirun", "-n", ranks] + cmd


def last_json(text, key):
    """The last line of `text` that is a JSON object with `key` (PETSc may print -ksp_view and the like before)."""
    for line in reversed(text.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            try:
                record = json.loads(line)
            except ValueError:
                continue
            if key in record:
                return record
    return None


def run_petsc(args, problem, ranks, setting, timeout):
    cmd = mpirun(ranks, [args.petsc] + problem.args() + ["--tol", args.tol, "--max-iterations",
                                                          args.max_iterations] + setting.args())
    out, _ = run_limited(cmd, timeout, accept=(0, NOT_CONVERGED))
    if out is None:
        return None
    record = last_json(out, "peer")
    if record is None:
        sys.exit(f"no record from PETSc's driver: {cmd}\n{out[-2000:]}")
    problem.rows, problem.nonzeros = record["rows"], record["nonzeros"]
    return record


def run_ulibc(args, problem, ranks, timeout, workdir):
    path = os.path.join(workdir, "ulibc_gmres.json")
    if os.path.exists(path):
        os.remove(path)
    cmd = mpirun(ranks, [args.ulibc, "gmres"] + problem.args() + ["--tol", args.tol, "--max-iterations",
                                                                  args.max_iterations, "--json", path])
    out, _ = run_limited(cmd, timeout, accept=(0, NOT_CONVERGED))
    if out is None:
        return None
    try:
        with open(path) as f:
            raw = json.load(f)
    except (OSError, ValueError) as e:
        sys.exit(f"`ulibc gmres` wrote no readable record ({e}): {cmd}")
    # The fields this comparison uses, in the shape of PETSc's records.
    return {"converged": bool(raw["converged"]), "iterations": raw["iterations"],
            "true_relative_residual": raw["true_relative_residual"], "ranks": raw["ranks"],
            "seconds": float(raw["time"]["seconds"]), "choices": raw.get("choices", {}), "time": raw["time"],
            "reason": "converged" if raw["converged"] else "not converged"}


def probe_ulibc(args):
    """None when `ulibc gmres` exists in this build; otherwise why the ULIBC half is left out."""
    if not os.access(args.ulibc, os.X_OK):
        return f"not an executable: {args.ulibc}"
    try:
        proc = subprocess.run([args.ulibc, "gmres", "--help"], capture_output=True, text=True, timeout=60)
    except (OSError, subprocess.TimeoutExpired) as e:
        return f"`ulibc gmres --help` failed: {e}"
    if proc.returncode != 0:
        return f"`ulibc gmres --help` failed (exit {proc.returncode}): {(proc.stderr or proc.stdout).strip()[:300]}"
    return None


def ulibc_spmv_gflops(args, problem, ranks):
    """ULIBC's SpMV GFLOP/s on the problem at `ranks` ranks, or None.

    HOOK: `ulibc bench gmres` will report its SpMV GFLOP/s; until it exists
    there is nothing to run, and the report's ULIBC column says so.
    """
    return None


class Comparison:
    """Every series of one problem at one rank count."""

    def __init__(self, problem, ranks, settings, with_ulibc):
        self.problem, self.ranks = problem, ranks
        self.petsc = {s.label: Series() for s in settings}
        self.settings = settings
        self.ulibc = Series() if with_ulibc else None

    def fastest(self):
        """The fastest converged median so far, of either program (the base of the time limit)."""
        medians = [s.median() for s in self.all_series() if s.records and s.converged]
        return min(medians) if medians else None

    def all_series(self):
        return list(self.petsc.values()) + ([self.ulibc] if self.ulibc else [])

    def limit(self, args):
        fastest = self.fastest()
        return args.min_cutoff + (args.cutoff * fastest if fastest is not None else args.first_cutoff)

    def step(self, series, runner, args):
        """One more run of a series, unless it is done; its record, or None."""
        if series.done:
            return None
        limit = self.limit(args)
        record = runner(limit)
        if record is None:
            series.stopped, series.done = limit, True
            return None
        series.records.append(record)
        if not record["converged"]:
            series.done = True  # the same run again reaches the same limit
        return record

    def run_round(self, args, workdir):
        line = []
        for s in self.settings:
            record = self.step(self.petsc[s.label], lambda t: run_petsc(args, self.problem, self.ranks, s, t), args)
            if s.default and record:
                line.append(f"PETSc default {record['seconds']:.4g} s")
        if self.ulibc:
            record = self.step(self.ulibc, lambda t: run_ulibc(args, self.problem, self.ranks, t, workdir), args)
            if record:
                line.append(f"ULIBC {record['seconds']:.4g} s")
        best = self.best()
        if best:
            line.append(f"PETSc best so far {best[0]} {best[1].median():.4g} s")
        return line

    def best(self):
        """PETSc's fastest swept setting that converged in every round it ran: (label, series), or None."""
        done = [(s.label, self.petsc[s.label]) for s in self.settings if not s.default and self.petsc[s.label].converged]
        return min(done, key=lambda x: x[1].median()) if done else None

    def ratio(self, petsc_series):
        """Median over rounds of ULIBC's seconds over PETSc's (the rounds both ran); None without both."""
        if not self.ulibc or not self.ulibc.converged or not petsc_series.converged:
            return None
        pairs = list(zip(self.ulibc.records, petsc_series.records))
        return statistics.median(u["seconds"] / p["seconds"] for u, p in pairs) if pairs else None


def residual_cell(record, tol):
    r = record["true_relative_residual"]
    flag = " ⚠ claims convergence above tol" if record["converged"] and r > tol else ""
    return f"{r:.2e}{flag}"


def outcome(series, tol):
    """(converged, iterations, true residual, median seconds) cells of a series."""
    if series.stopped is not None:
        return "stopped", "—", "—", f"> {series.stopped:.0f}"
    if not series.records:
        return "—", "—", "—", "—"
    last = series.records[-1]
    yes = "yes" if series.converged else f"no ({last['reason']})"
    return yes, str(last["iterations"]), residual_cell(last, tol), f"{series.median():.4g}"


def ratio_cell(ratio):
    return "—" if ratio is None else f"{ratio:.2f}"


def print_table(c, args, ulibc_missing):
    p = c.problem
    size = f"n = {p.rows:,}, {p.nonzeros:,} non-zeros" if p.rows is not None else "size unknown"
    print(f"\n### {p.name} ({size}), {c.ranks} rank(s)\n")
    print("| program | setting | converged | iterations | true rel. residual | median s | ULIBC/this |")
    print("|:--|:--|:--|--:|--:|--:|--:|")
    best = c.best()
    if best:
        print(f"| PETSc best | {best[0]} | " + " | ".join(outcome(best[1], args.tol)) +
              f" | {ratio_cell(c.ratio(best[1]))} |")
    else:
        print("| PETSc best | none of the swept settings converged | | | | | |")
    default = c.petsc["default"]
    print(f"| PETSc default | {describe_default(default)} | " + " | ".join(outcome(default, args.tol)) +
          f" | {ratio_cell(c.ratio(default))} |")
    if c.ulibc is not None:
        choices = c.ulibc.records[-1].get("choices", {}) if c.ulibc.records else {}
        chosen = ", ".join(f"{k} {v}" for k, v in choices.items()) or "—"
        print(f"| ULIBC auto | {chosen} | " + " | ".join(outcome(c.ulibc, args.tol)) + " | 1 |")
    else:
        print(f"| ULIBC auto | not run: {ulibc_missing} | | | | | |")
    print_sweep(c, args)


def describe_default(series):
    """What PETSc's default ran, read back from its record."""
    if not series.records:
        return "GMRES(30), cgs, ILU(0) / block Jacobi ILU(0)"
    r = series.records[-1]
    return f"m={r['restart']} {r['orth']} {r['petsc_pc']}"


def print_sweep(c, args):
    """The swept settings: a row per restart and orthogonalisation, a column per preconditioner."""
    print(f"\nSweep ({c.problem.name}, {c.ranks} rank(s)): median seconds (iterations); "
          "no: not converged (residual reached); stopped: over the time limit (seconds).\n")
    preconds = list(dict.fromkeys(s.precond for s in c.settings if not s.default))
    print("| restart, orth | " + " | ".join(preconds) + " |")
    print("|:--|" + "--:|" * len(preconds))
    rows = list(dict.fromkeys((s.restart, s.orth) for s in c.settings if not s.default))
    for restart, orth in rows:
        cells = []
        for pc in preconds:
            series = c.petsc[Setting(restart, orth, pc).label]
            if series.stopped is not None:
                cells.append(f"stopped (> {series.stopped:.0f} s)")
            elif not series.records:
                cells.append("—")
            elif not series.converged:
                last = series.records[-1]
                why = "" if last["reason"] == "DIVERGED_ITS" else f", {last['reason']}"  # not the iteration limit
                cells.append(f"no ({last['true_relative_residual']:.1e}, {last['iterations']} it{why})")
            else:
                cells.append(f"{series.median():.4g} ({series.records[-1]['iterations']} it)")
        print(f"| m={restart} {orth} | " + " | ".join(cells) + " |")


def hard_problem(comparisons):
    """The problem PETSc's default fails on (all such), else the one it is slowest on; with why."""
    failed = sorted({c.problem.name for c in comparisons if not c.petsc["default"].converged})
    if failed:
        return ", ".join(failed), "PETSc's default stops short of the tolerance, or over the time limit"
    slowest = max(comparisons, key=lambda c: c.petsc["default"].median())
    return slowest.problem.name, (f"PETSc's default is slowest there: {slowest.petsc['default'].median():.4g} s "
                                  f"on {slowest.ranks} rank(s)")


def matmult_calls(nonzeros):
    """MatMult calls per round: about 10^8 multiply-adds, a few tens of milliseconds."""
    return max(10, min(100000, int(1e8 / max(1, nonzeros))))


def run_matmult(args, problems, ranks_list):
    rows = []
    for p in problems:
        for k in ranks_list:
            calls = matmult_calls(p.nonzeros or 1)
            cmd = mpirun(k, [args.petsc] + p.args() + ["--matmult", calls, "--rounds", max(5, args.rounds)])
            out, _ = run_limited(cmd, args.min_cutoff * 30)
            record = last_json(out, "gflops") if out else None
            rows.append((p, k, calls, record, ulibc_spmv_gflops(args, p, k)))
    print("\n### SpMV: PETSc's MatMult against ULIBC's SpMV\n")
    print("GFLOP/s = 2 x non-zeros x calls / seconds, the median round after a warm-up. The ULIBC column "
          "waits for `ulibc bench gmres` (the hook ulibc_spmv_gflops in this script).\n")
    print("| problem | ranks | calls/round | PETSc GFLOP/s | ULIBC GFLOP/s |")
    print("|:--|--:|--:|--:|--:|")
    for p, k, calls, record, ulibc in rows:
        petsc = f"{record['gflops']:.2f}" if record else "stopped"
        print(f"| {p.name} | {k} | {calls} | {petsc} | {'—' if ulibc is None else f'{ulibc:.2f}'} |")
    return [{"problem": p.name, "ranks": k, "calls": calls, "petsc": record, "ulibc_gflops": u}
            for p, k, calls, record, u in rows]


def sweep_settings(args):
    sweep = [Setting(m, o, pc) for pc, m, o in itertools.product(args.preconds, args.restarts, args.orths)]
    return [Setting()] + sweep  # the default first: its time sets the first runs' limit


def write_record(args, path, comparisons, hard, matmult, ulibc_missing):
    def series_record(s):
        return {"records": s.records, "stopped_after_seconds": s.stopped, "converged": s.converged,
                "median_seconds": s.median()}

    record = {
        "benchmark": "gmres_vs_petsc",
        "argv": sys.argv,
        "machine": machine_record(),
        "tol": args.tol, "max_iterations": args.max_iterations, "rounds": args.rounds,
        "ulibc": ulibc_missing or "run",
        "results": [{"problem": c.problem.name, "rows": c.problem.rows, "nonzeros": c.problem.nonzeros,
                     "ranks": c.ranks, "petsc_best": c.best()[0] if c.best() else None,
                     "petsc": {label: series_record(s) for label, s in c.petsc.items()},
                     "ulibc": series_record(c.ulibc) if c.ulibc else None,
                     "ulibc_over_petsc_best": c.ratio(c.best()[1]) if c.best() else None,
                     "ulibc_over_petsc_default": c.ratio(c.petsc["default"])} for c in comparisons],
        "hard_problem": {"problem": hard[0], "why": hard[1]},
        "matmult": matmult,
        "commands": unique_commands(),
    }
    save_record(path, record)


def default_problems(matrices):
    files = sorted(glob.glob(os.path.join(matrices, "*.mtx"))) if os.path.isdir(matrices) else []
    return files + MODEL_PROBLEMS


def int_list(text, option):
    try:
        values = list(dict.fromkeys(int(v) for v in text.split(",")))
    except ValueError:
        sys.exit(f"{option}: expected numbers like 1,2, got {text!r}")
    if not values or min(values) < 1:
        sys.exit(f"{option}: each value must be at least 1")
    return values


def choice_list(text, option, allowed):
    values = list(dict.fromkeys(v for v in text.split(",") if v))
    bad = [v for v in values if v not in allowed]
    if not values or bad:
        sys.exit(f"{option}: expected some of {','.join(allowed)}, got {text!r}")
    return values


def parse_args():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--build", default=os.path.join(REPO, "build"),
                        help="the build directory, with bin/ulibc and bin/ulibc_peer_petsc_gmres (default: build/)")
    parser.add_argument("--problems", help="comma-separated .mtx files and model problems "
                        "(default: ../shared/matrices/*.mtx where present, poisson2d:400, convdiff2d:400, "
                        "convdiff3d:80)")
    parser.add_argument("--matrices", default=os.path.join(REPO, "..", "shared", "matrices"),
                        help="where the default problems' .mtx files are (default: ../shared/matrices)")
    parser.add_argument("--ranks", default="1,2", help="MPI rank counts (default 1,2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds of every converging run (default 3)")
    parser.add_argument("--tol", type=float, default=1e-8, help="relative residual to reach (default 1e-8)")
    parser.add_argument("--max-iterations", type=int, default=10000, help="(default 10000)")
    parser.add_argument("--restarts", default="10,30,50,100", help="PETSc's swept restarts (default 10,30,50,100)")
    parser.add_argument("--orths", default="cgs,cgs2,mgs", help="PETSc's swept orthogonalisations")
    parser.add_argument("--preconds", default="none,jacobi,bilu0", help="PETSc's swept preconditioners")
    parser.add_argument("--cutoff", type=float, default=10,
                        help="stop a run after this many times the fastest converged median so far, plus "
                             "--min-cutoff (default 10)")
    parser.add_argument("--min-cutoff", type=float, default=10, help="seconds every run gets (default 10)")
    parser.add_argument("--first-cutoff", type=float, default=600,
                        help="the limit before anything has converged, plus --min-cutoff (default 600)")
    parser.add_argument("--no-matmult", action="store_true", help="leave out the SpMV table")
    parser.add_argument("--quick", action="store_true",
                        help=f"a smoke test: {','.join(QUICK_PROBLEMS)} (unless --problems), 1 round")
    parser.add_argument("--json", help="write every record and the commands to this file")
    args = parser.parse_args()

    if args.quick:
        args.rounds = 1
    if args.rounds < 1 or args.max_iterations < 1 or not 0 < args.tol < 1:
        sys.exit("--rounds and --max-iterations must be at least 1, --tol between 0 and 1")
    args.ranks = int_list(args.ranks, "--ranks")
    args.restarts = int_list(args.restarts, "--restarts")
    args.orths = choice_list(args.orths, "--orths", ["cgs", "cgs2", "mgs"])
    args.preconds = choice_list(args.preconds, "--preconds", ["none", "jacobi", "bilu0"])
    if args.problems:
        specs = [p for p in args.problems.split(",") if p]
    else:
        specs = QUICK_PROBLEMS if args.quick else default_problems(args.matrices)
    for spec in specs:
        if spec.endswith(".mtx") and not os.path.isfile(spec):
            sys.exit(f"--problems: no such file: {spec}")
    args.problems = [Problem(s) for s in specs]
    args.build = os.path.abspath(args.build)
    args.petsc = os.path.join(args.build, "bin", "ulibc_peer_petsc_gmres")
    args.ulibc = os.path.join(args.build, "bin", "ulibc")
    if not os.access(args.petsc, os.X_OK):
        sys.exit(f"not built: {args.petsc} (needs PETSc's development files, Debian petsc-dev; "
                 "ninja -C BUILD ulibc_peer_petsc_gmres)")
    if not shutil.which("mpirun"):
        sys.exit("mpirun not found (Debian openmpi-bin)")
    return args


def main():
    args = parse_args()
    for key, value in MPI_ENV.items():
        os.environ.setdefault(key, value)
    print(f"# {' '.join(sys.argv)}")
    for line in machine_lines(None, None):
        print(f"# {line}")
    ulibc_missing = probe_ulibc(args)
    if ulibc_missing:
        print(f"# ULIBC half left out: {ulibc_missing}")
    sys.stdout.flush()

    settings = sweep_settings(args)
    comparisons = [Comparison(p, k, settings, ulibc_missing is None) for p in args.problems for k in args.ranks]
    workdir = tempfile.mkdtemp(prefix="gmres_vs_petsc.")
    try:
        for rnd in range(args.rounds):
            for c in comparisons:
                line = c.run_round(args, workdir)
                print(f"# round {rnd + 1}, {c.problem.name}, {c.ranks} rank(s): " + "; ".join(line))
                sys.stdout.flush()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)

    print(f"\n## GMRES: ULIBC (auto) against PETSc {petsc_version(comparisons)}\n")
    print(f"b = A·1, x0 = 0, stopping at ‖b − A·x‖ ≤ {args.tol:g}·‖b‖ (the residual GMRES updates, right "
          f"preconditioning), at most {args.max_iterations} iterations; medians over {args.rounds} "
          "round(s); ULIBC/this: ULIBC's time over the row's, median of the per-round ratios (below 1: ULIBC "
          "is faster). PETSc's default: no setting given to the driver (GMRES(30), classical Gram–Schmidt "
          "without refinement, ILU(0) on one rank, block Jacobi ILU(0) on several).")
    for c in comparisons:
        print_table(c, args, ulibc_missing)
    hard = hard_problem(comparisons)
    print(f"\nHard problem: {hard[0]} ({hard[1]}).")
    matmult = [] if args.no_matmult else run_matmult(args, args.problems, args.ranks)
    print()
    print_commands()
    if args.json:
        write_record(args, args.json, comparisons, hard, matmult, ulibc_missing)


def petsc_version(comparisons):
    for c in comparisons:
        for s in c.petsc.values():
            if s.records:
                return s.records[0]["version"]
    return "?"


if __name__ == "__main__":
    main()
