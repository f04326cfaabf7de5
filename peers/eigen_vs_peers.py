#!/usr/bin/python3
"""Complex eigenpairs: `ulibc eigen` (Jacobi–Davidson) against SLEPc's Jacobi–Davidson and ARPACK, side by side.

Method. Each problem (a Matrix Market file, complex, hermitian or real; or a
matrix `ulibc eigen --generate` makes, convdiff2d:N[:BX[:BY[:SHIFT]]],
toeplitz:N:A:B:C, spectrum:N[:S[:T]], which every driver makes the same way)
is solved for --nev K eigenpairs in each mode of --modes: largest-magnitude,
largest-real, target:T (the K nearest the complex point T, e.g.
target:0.01+0.001i), converged when ‖A u − θ u‖ ≤ tol·|θ|, by

  ULIBC   `ulibc eigen (--matrix F | --generate SPEC) --nev K
          (--which W | --target T) --tol T --jmin J --jmax J
          --correction-steps S --threads P --json -`; its record gives
          eigenvalues [{re, im, residual}], iterations, matvecs, seconds (the
          solve) and converged. Where `ulibc eigen
          --help` fails (a build without it) the ULIBC half is left out,
          saying so, and the peers run alone.
  SLEPc   peers/slepc_eigen.cpp (ulibc_peer_slepc_eigen): EPSJD with the
          same search space sizes J, the correction equation by exactly S
          steps of unpreconditioned GMRES, as ULIBC solves it. PETSc has no threads: P "threads" are
          `mpirun -n P` ranks (one rank without mpirun). Its time is
          EPSSolve's.
  ARPACK  peers/arpack_eigen.cpp (ulibc_peer_arpack_eigen): znaupd/zneupd,
          one thread, for the extremal modes only, and only where P = 1.
          Its time is the Arnoldi loop and zneupd.

Each driver recomputes every residual ‖A x − λ x‖/‖x‖ itself.

Checks, every round: the programs' eigenvalues agree as sets. A Krylov method
started from one vector finds one copy of a multiple eigenvalue, and a
Davidson one may find both, so the sets compared are the distinct values
(two within the tolerance below are one), cut to the part of the spectrum
both programs reached: for magnitude, |λ| at least the larger of the two
programs' smallest |λ| (the deeper one must have found everything above
the shallower one's last); likewise the real part, or the distance to the
target. Two values match when |λ − μ| ≤ 100·max(tol·max(1, |λ|), r_λ, r_μ)
(r: the residuals; a non-normal matrix's eigenvalue errors can be its
residual times a large condition number). A program that converged fewer
than K pairs, failed, or was stopped after --timeout seconds is recorded and
the run goes on.

Rounds. Every round runs each problem, mode and thread count with every
program, in one order in even rounds and the reverse in odd ones; the report
gives each program's median seconds over the rounds, and ULIBC's time over a
peer's as the median of the per-round ratios (below 1: ULIBC is faster).

usage: eigen_vs_peers.py [--build DIR] [--problems P,...] [--modes largest-magnitude,largest-real,target:T]
                         [--nev 5] [--tol 1e-8] [--jmin 10] [--jmax 20] [--correction-steps 10]
                         [--threads 1,2] [--rounds 3] [--timeout 120] [--no-ulibc] [--json FILE]
  DIR is the build directory (default: build/ beside peers/), with bin/ulibc and the
  drivers. By default the problems are convdiff2d:100 and every .mtx in
  ../shared/matrices beside the checkout, when there.
Example:
  /usr/bin/python3 peers/eigen_vs_peers.py --build build --threads 1,2 --rounds 3 --json eigen_peers.json
"""
import argparse
import glob
import json
import os
import shutil
import statistics
import subprocess
import sys

sys.dont_write_bytecode = True  # importing peers_common leaves no __pycache__ in the source tree
from peers_common import machine_lines, machine_record, print_commands, run_measured, save_record

HERE = os.path.dirname(os.path.abspath(__file__))
PROGRAMS = ["ulibc", "slepc", "arpack"]
NOT_CONVERGED = 3  # the drivers' (and the commands') status for fewer than K pairs


def parse_args():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--build", default=os.path.join(HERE, "..", "build"))
    ap.add_argument("--problems", default=None)
    ap.add_argument("--modes", default="largest-magnitude,largest-real,target:0")
    ap.add_argument("--nev", type=int, default=5)
    ap.add_argument("--tol", type=float, default=1e-8)
    ap.add_argument("--correction-steps", type=int, default=10)
    ap.add_argument("--jmin", type=int, default=10)
    ap.add_argument("--jmax", type=int, default=20)
    ap.add_argument("--threads", default="1,2")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--timeout", type=float, default=120)
    ap.add_argument("--no-ulibc", action="store_true", help="run the peers alone")
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    if min(args.nev, args.rounds, args.correction_steps, args.jmin) < 1 or args.jmax <= max(args.jmin, args.nev):
        ap.error("--nev, --rounds, --correction-steps and --jmin take a whole number from 1, --jmax one above "
                 "--jmin and --nev")
    args.threads = [int(t) for t in args.threads.split(",")]
    if any(t < 1 for t in args.threads):
        ap.error("--threads: whole numbers from 1")
    args.modes = args.modes.split(",")
    for m in args.modes:
        if m not in ("largest-magnitude", "largest-real") and not m.startswith("target:"):
            ap.error(f"--modes: {m!r} is not largest-magnitude, largest-real or target:T")
    args.problems = args.problems.split(",") if args.problems else default_problems()
    bin_dir = os.path.join(args.build, "bin")
    args.exe = {p: os.path.join(bin_dir, name) for p, name in
                (("ulibc", "ulibc"), ("slepc", "ulibc_peer_slepc_eigen"), ("arpack", "ulibc_peer_arpack_eigen"))}
    if args.no_ulibc or not has_eigen_command(args.exe["ulibc"]):
        if not args.no_ulibc:
            print(f"# {args.exe['ulibc']} has no `eigen` command: the peers run alone")
        del args.exe["ulibc"]
    for p in ("slepc", "arpack"):
        if not os.access(args.exe[p], os.X_OK):
            print(f"# {args.exe[p]} not built (see peers/CMakeLists.txt): left out")
            del args.exe[p]
    args.mpirun = shutil.which("mpirun")
    # Open MPI as root and with more ranks than cores, as in CI and containers.
    os.environ.update(OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                      OMPI_MCA_rmaps_base_oversubscribe="1")
    return args


def default_problems():
    shared = os.path.join(HERE, "..", "..", "shared", "matrices")
    return ["convdiff2d:100"] + sorted(glob.glob(os.path.join(shared, "*.mtx")))


def has_eigen_command(ulibc):
    try:
        return subprocess.run([ulibc, "eigen", "--help"], capture_output=True).returncode == 0
    except OSError:
        return False


def problem_args(problem):
    """The matrix options every program takes alike."""
    return ["--matrix", problem] if problem.endswith(".mtx") else ["--generate", problem]


def mode_args(mode):
    return ["--target", mode.split(":", 1)[1]] if mode.startswith("target:") else ["--which", mode]


def command(args, program, problem, mode, threads):
    """The command line of `program` on one problem, mode and thread count; None where it does not take part."""
    common = problem_args(problem) + mode_args(mode) + ["--nev", args.nev, "--tol", args.tol]
    jd = ["--jmin", args.jmin, "--jmax", args.jmax, "--correction-steps", args.correction_steps]
    if program == "ulibc":
        return [args.exe["ulibc"], "eigen"] + common + jd + ["--threads", threads, "--json", "-"]
    if program == "slepc":
        launch = [] if threads == 1 else [args.mpirun, "-n", threads] if args.mpirun else None
        return None if launch is None else launch + [args.exe["slepc"]] + common + jd
    if mode.startswith("target:") or threads != 1:
        return None  # ARPACK: extremal problems, one thread
    return [args.exe["arpack"]] + common


def run_one(args, cmd):
    """One run: its record (the JSON line, with "exit"), or a record of the failure."""
    status, out, err, rss, seconds = run_measured(cmd, args.timeout)
    if status is None:
        return {"exit": None, "failure": f"stopped after {args.timeout:g} s"}
    record = parse_record(out)
    if status not in (0, NOT_CONVERGED) or record is None:
        return {"exit": status, "failure": (err.strip().splitlines() or ["no record"])[-1][:200]}
    record.update(exit=status, rss_bytes=rss, wall_seconds=seconds)
    return record


def parse_record(out):
    """The program's JSON record: the whole of stdout (`ulibc eigen --json -`) or its last line (the drivers)."""
    for text in [out] + [l for l in reversed(out.splitlines()) if l.startswith("{")][:1]:
        try:
            return json.loads(text)
        except ValueError:
            pass
    return None


def values(record):
    return [(complex(e["re"], e["im"]), e.get("residual", 0.0)) for e in record.get("eigenvalues", [])]


def depth_key(mode):
    """How deep into the wanted part of the spectrum λ lies: larger is more wanted."""
    if mode == "largest-magnitude":
        return abs
    if mode == "largest-real":
        return lambda z: z.real
    target = parse_complex(mode.split(":", 1)[1])
    return lambda z: -abs(z - target)


def parse_complex(text):
    """a, bi, a+bi, a-bi (i or j), as `ulibc eigen` reads it; "i" alone and "a+i" too."""
    t = text.replace("i", "j")
    if t.endswith("j") and (len(t) == 1 or t[-2] in "+-"):
        t = t[:-1] + "1j"
    return complex(t)


def close(args, a, b):
    (x, rx), (y, ry) = a, b
    return abs(x - y) <= 100 * max(args.tol * max(1.0, abs(x)), rx, ry)


def distinct(args, pairs):
    out = []
    for p in pairs:
        if not any(close(args, p, q) for q in out):
            out.append(p)
    return out


def disagreement(args, mode, names, ra, rb):
    """None where the two records' eigenvalues agree as sets (the docstring's rule); else what differs."""
    a, b = distinct(args, values(ra)), distinct(args, values(rb))
    if not a or not b:
        return None
    key = depth_key(mode)
    cut = max(min(key(x) for x, _ in a), min(key(y) for y, _ in b))
    for mine, theirs, name in ((a, b, names[1]), (b, a, names[0])):
        for p in mine:
            margin = 100 * max(args.tol * max(1.0, abs(p[0])), p[1])
            if key(p[0]) > cut + margin and not any(close(args, p, q) for q in theirs):
                return f"{p[0]:.10g} not found by {name}"
    return None


def fmt(x, spec=".3g"):
    return "—" if x is None else format(x, spec)


def summary(records):
    ok = [r for r in records if "failure" not in r]
    med = lambda key: statistics.median(r[key] for r in ok) if ok else None
    return {"seconds": med("seconds"), "iterations": med("iterations"), "matvecs": med("matvecs"),
            "converged": min((r["converged"] for r in ok), default=None),
            "max_residual": max((e["residual"] for r in ok for e in r["eigenvalues"]), default=None),
            "failures": sorted({r["failure"] for r in records if "failure" in r})}


def ratio(ulibc_runs, peer_runs):
    pairs = [u["seconds"] / p["seconds"] for u, p in zip(ulibc_runs, peer_runs)
             if "failure" not in u and "failure" not in p and p["seconds"] > 0]
    return statistics.median(pairs) if pairs else None


def main():
    args = parse_args()
    programs = [p for p in PROGRAMS if p in args.exe]
    if not programs:
        sys.exit("nothing to run: neither `ulibc eigen` nor a driver was found")
    cases = [(p, m, t) for p in args.problems for m in args.modes for t in args.threads]
    runs = {c: {p: [] for p in programs} for c in cases}
    issues = []
    for rnd in range(args.rounds):
        order = programs if rnd % 2 == 0 else programs[::-1]
        for case in cases:
            line = []
            for prog in order:
                cmd = command(args, prog, *case)
                if cmd is None:
                    continue
                record = run_one(args, [str(c) for c in cmd])
                runs[case][prog].append(record)
                line.append(f"{prog} {record.get('failure') or fmt(record['seconds']) + ' s'}")
            took = {p: r[-1] for p, r in runs[case].items() if len(r) == rnd + 1 and "failure" not in r[-1]}
            names = list(took)
            for i, a in enumerate(names):
                for b in names[i + 1:]:
                    why = disagreement(args, case[1], (a, b), took[a], took[b])
                    if why:
                        issues.append(f"round {rnd + 1}, {case[0]}, {case[1]}, {case[2]} thread(s): "
                                      f"{a} and {b} disagree: {why}")
            print(f"# round {rnd + 1}, {os.path.basename(case[0])}, {case[1]}, {case[2]} thread(s): " + "; ".join(line))

    md = machine_lines(None, None)
    md += ["", f"### {args.nev} eigenpairs, tol {args.tol:g}, search space {args.jmin} to {args.jmax}, "
           f"{args.correction_steps} GMRES steps per correction equation "
           f"(medians of {args.rounds} round(s); SLEPc's threads are MPI ranks)", "",
           "| problem | mode | threads | program | converged | iterations | matvecs | max residual | seconds "
           "| ULIBC/this |", "|---|---|---|---|---|---|---|---|---|---|"]
    table = []
    for case in cases:
        for prog in programs:
            if not runs[case][prog]:
                continue
            s = summary(runs[case][prog])
            r = ratio(runs[case]["ulibc"], runs[case][prog]) if "ulibc" in programs and prog != "ulibc" else None
            table.append({"problem": case[0], "mode": case[1], "threads": case[2], "program": prog, **s,
                          "ulibc_over_this": r})
            note = "; ".join(s["failures"])
            md.append(f"| {os.path.basename(case[0])} | {case[1]} | {case[2]} | {prog} | {fmt(s['converged'], 'd')} "
                      f"| {fmt(s['iterations'], '.0f')} | {fmt(s['matvecs'], '.0f')} | {fmt(s['max_residual'], '.1e')} "
                      f"| {fmt(s['seconds'])}{' (' + note + ')' if note else ''} | {fmt(r, '.2f')} |")
    md += ["", "Disagreements: " + ("none" if not issues else "")] + [f"- {i}" for i in issues]
    print("\n".join(md))
    print_commands()
    if args.json:
        save_record(args.json, {"machine": machine_record(), "args": {k: v for k, v in vars(args).items()},
                                "results": table, "disagreements": issues,
                                "runs": [{"problem": c[0], "mode": c[1], "threads": c[2], "program": p, "records": r}
                                         for c in cases for p, r in runs[c].items()]})
    return 1 if issues else 0


if __name__ == "__main__":
    sys.exit(main())
