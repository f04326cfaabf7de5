"""What the side-by-side comparisons with peer programs share (peers/bfs_vs_peers.py,
peers/sssp_vs_peers.py, peers/gmres_vs_petsc.py, peers/sdp_vs_peers.py): running a command with its peak RSS
or with a time limit, building a driver
against GAP's sources, starting GAP's OpenMP threads with ULIBC's placement,
describing the machine, listing the commands run.

Standard library only, for Debian's /usr/bin/python3. The scripts import it
from their own directory (Python puts a script's directory first on sys.path).
"""
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import tempfile
import threading
import time

COMMANDS = []  # every command run, for the report

TIME = "/usr/bin/time"  # GNU time (Debian package time): the peak RSS of the program alone

# GAP's drivers are compiled with GAP's Makefile flags into the work directory
# (never into this repository).
GAP_CXX = "g++"
GAP_FLAGS = ["-std=c++11", "-O3", "-Wall", "-fopenmp"]

# C++ for GAP's drivers, pasted after their #includes: the program's peak RSS,
# and a line naming the processor each OpenMP thread runs on (OMP_PLACES and
# OMP_PROC_BIND set by the launcher, gap_launch below). Needs <sched.h>,
# <omp.h>, <cstdio>, <cstdlib>, <fstream>, <string> and <vector>.
GAP_DRIVER_HELPERS = r'''static long long vm_hwm_bytes() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.compare(0, 6, "VmHWM:") == 0) return std::atoll(line.c_str() + 6) * 1024;
  return -1;
}

// "Threads: 2  CPUs: 0 1  proc_bind: 3"
static void print_thread_cpus() {
  std::vector<int> cpus(omp_get_max_threads(), -1);
  #pragma omp parallel
  cpus[omp_get_thread_num()] = sched_getcpu();
  std::printf("Threads: %zu  CPUs:", cpus.size());
  for (int c : cpus) std::printf(" %d", c);
  std::printf("  proc_bind: %d\n", static_cast<int>(omp_get_proc_bind()));
}
'''


def _spawn(cmd, timeout=None):
    """Run cmd; return (exit status, or None when stopped at `timeout` seconds, stdout, stderr, peak RSS, seconds).

    The peak RSS comes from GNU time's %M where /usr/bin/time exists: the
    program's own high-water mark, after a fork from the small `time`
    process. Without it, from wait4's ru_maxrss, which Linux lets include the
    RSS this Python process had when it forked the program (some 10-20 MB).
    With a time limit the program gets a process group of its own, stopped
    as a whole: SIGTERM first, which mpirun passes on to its ranks, then
    SIGKILL for whatever is left after 5 seconds.
    """
    cmd = [str(c) for c in cmd]
    COMMANDS.append(" ".join(shlex.quote(c) for c in cmd))
    with tempfile.NamedTemporaryFile("r", suffix=".rss") as rss_file:
        timed = os.access(TIME, os.X_OK)
        full = [TIME, "-f", "%M", "-o", rss_file.name] + cmd if timed else cmd
        t0 = time.monotonic()
        proc = subprocess.Popen(full, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                start_new_session=timeout is not None)
        stopped = []

        def stop(sig):
            stopped.append(sig)
            try:
                os.killpg(proc.pid, sig)
            except ProcessLookupError:
                pass

        timers = [] if timeout is None else [threading.Timer(timeout, stop, (signal.SIGTERM,)),
                                             threading.Timer(timeout + 5, stop, (signal.SIGKILL,))]
        for t in timers:
            t.start()
        # The pipes are read on threads: communicate() would reap the child before wait4 gets its rusage.
        out, err = [], []
        readers = [threading.Thread(target=lambda f, sink: sink.append(f.read()), args=(pipe, sink))
                   for pipe, sink in ((proc.stdout, out), (proc.stderr, err))]
        for t in readers:
            t.start()
        _, status, usage = os.wait4(proc.pid, 0)
        for t in timers:
            t.cancel()
        for t in readers:
            t.join()
        proc.returncode = os.waitstatus_to_exitcode(status)
        seconds = time.monotonic() - t0
        rss = usage.ru_maxrss * 1024
        if timed:
            lines = rss_file.read().split()
            rss = int(lines[-1]) * 1024 if lines and lines[-1].isdigit() else rss
    return (None if stopped else proc.returncode), "".join(out), "".join(err), rss, seconds


def run(cmd):
    """Run cmd; return (stdout, its peak RSS in bytes, seconds); exit on failure."""
    status, out, err, rss, seconds = _spawn(cmd)
    if status != 0:
        sys.exit(f"failed ({status}): {COMMANDS[-1]}\n{err[-3000:]}")
    return out, rss, seconds


def run_measured(cmd, timeout=None):
    """Run cmd, whatever its exit; return (exit status, or None when stopped at `timeout` seconds,
    stdout, stderr, peak RSS in bytes, seconds). For peers whose failure is a result to record."""
    return _spawn(cmd, timeout)


def run_limited(cmd, timeout, accept=(0,)):
    """Run cmd for at most `timeout` seconds; return (stdout, or None when it was stopped then, seconds).

    An exit status outside `accept` (a solver's "not converged" may be one to accept) ends the script.
    """
    status, out, err, _, seconds = _spawn(cmd, timeout)
    if status is not None and status not in accept:
        sys.exit(f"failed ({status}): {COMMANDS[-1]}\n{err[-3000:]}")
    return (None if status is None else out), seconds


def gap_launch(ulibc, threads):
    """The prefix that starts GAP's OpenMP program on `threads` threads placed as ULIBC places its own.

    `ulibc run` sets OMP_PLACES (one processor per thread, compact order),
    OMP_PROC_BIND=close and OMP_NUM_THREADS, then execs the program.
    """
    return [ulibc, "run", "--policy", "compact", "-n", threads, "--"]


def build_gap_driver(gap_dir, workdir, name, source):
    """Compile `source` (C++ including GAP's src/ files) as workdir/name with GAP's flags; return its path."""
    src = os.path.join(workdir, name + ".cc")
    exe = os.path.join(workdir, name)
    with open(src, "w") as f:
        f.write(source)
    run([GAP_CXX] + GAP_FLAGS + ["-I", os.path.join(gap_dir, "src"), src, "-o", exe])
    return exe


def lscpu():
    """lscpu's fields, as a dictionary (empty where lscpu is missing)."""
    try:
        text = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
    except OSError:
        return {}
    return {m.group(1): m.group(2).strip() for m in re.finditer(r"^([^:\n]+):[ \t]*(.*)$", text, re.M)}


def gap_commit(gap_dir):
    """GAP's checkout, "<commit> <date>", or None where gap_dir is not a git checkout."""
    if not gap_dir or not os.path.isdir(os.path.join(gap_dir, ".git")):
        return None
    return subprocess.run(["git", "-C", gap_dir, "log", "-1", "--format=%H %cs"], capture_output=True,
                          text=True).stdout.strip()


def compiler_version():
    try:
        lines = subprocess.run([GAP_CXX, "--version"], capture_output=True, text=True).stdout.splitlines()
    except OSError:
        lines = []
    return lines[0] if lines else "?"


def machine_lines(gap_dir, gap_build):
    """The report's header lines: the machine, the compiler and GAP's checkout; gap_build says how GAP was built."""
    fields = lscpu()
    get = lambda key: fields.get(key, "?")
    memory = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES") / 2**30
    lines = [f"machine: {get('Model name')}, {get('Socket(s)')} socket(s), {get('Core(s) per socket')} "
             f"core(s) per socket, {get('Thread(s) per core')} thread(s) per core, "
             f"{get('NUMA node(s)')} NUMA node(s), {memory:.0f} GiB"]
    lines.append(f"compiler: {compiler_version()}")
    commit = gap_commit(gap_dir)
    if commit is not None:
        lines.append(f"GAP: {gap_dir} at {commit}, {gap_build} ({GAP_CXX} {' '.join(GAP_FLAGS)})")
    return lines


def machine_record(gap_dir=None):
    """The machine for a JSON record: uname, lscpu's model and layout, nproc, memory, compiler, GAP's commit."""
    fields = lscpu()
    record = {
        "uname": " ".join(os.uname()),
        "cpu_model": fields.get("Model name"),
        "sockets": fields.get("Socket(s)"),
        "cores_per_socket": fields.get("Core(s) per socket"),
        "threads_per_core": fields.get("Thread(s) per core"),
        "numa_nodes": fields.get("NUMA node(s)"),
        "nproc": len(os.sched_getaffinity(0)),
        "memory_bytes": os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES"),
        "compiler": compiler_version(),
    }
    commit = gap_commit(gap_dir)
    if commit is not None:
        record["gap_commit"] = commit
    return record


def unique_commands():
    """The commands run, each once, in the order first run."""
    return list(dict.fromkeys(COMMANDS))


def save_record(path, record):
    """The run's JSON record to `path`, and a line saying where."""
    with open(path, "w") as f:
        json.dump(record, f, indent=1)
        f.write("\n")
    print(f"# record: {path}")


def print_commands():
    print("# commands:")
    for c in unique_commands():
        print(f"#   {c}")
