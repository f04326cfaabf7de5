#!/usr/bin/python3
"""Boots one machine of the virtual NUMA lab under QEMU and runs the guest tests in it.

The machine description (machines/*.json) is the one source of both sides: this
runner turns it into QEMU's command line and into the in-guest actions, and the
guest program reads the same file to know what it should find. The initramfs
is built at every run, in a temporary directory, from a static busybox, the
static guest program, the description and guest_init.sh (for a machine whose
description sets guest.mpi, also the --mpi-program programs with Open MPI, all
dynamically linked, at the paths they were built for); QEMU boots it under
software emulation with a hard timeout, and the guest's serial console comes
back on stdout, printed as it arrives.

Exit status: 0 the guest tests passed; 1 they failed, the guest never reported
(timeout, crash, no end marker) or the description is wrong; 77 (ctest's skip)
when QEMU, a kernel or a static busybox is missing, saying which.
"""
import argparse
import glob
import json
import lzma
import os
import re
import secrets
import shutil
import struct
import subprocess
import sys
import tempfile
import threading
import time

SKIP = 77
HERE = os.path.dirname(os.path.abspath(__file__))
SETUP_HINT = "scripts/setup.sh installs it"
# mitigations=off: the guest runs nothing but the lab's own program, and the kernel's defences against speculative
# execution (page-table isolation on the Intel models, retpolines) only slow its page faults and system calls under
# emulation: four_packages ran in 37-41 s with them, 33-37 s without.
KERNEL_ARGS = "console=ttyS0 quiet panic=-1 mitigations=off"


class Skip(Exception):
    pass


class Fail(Exception):
    pass


# --- the machine description -------------------------------------------------------------------------------------

def parse_cpulist(text, what):
    """'0-3,8' → [0, 1, 2, 3, 8]; '' → []. The kernel's cpulist syntax, as the guest parses it."""
    ids = []
    for part in filter(None, (p.strip() for p in text.split(","))):
        m = re.fullmatch(r"(\d+)(?:-(\d+))?", part)
        if not m or (m.group(2) and int(m.group(2)) < int(m.group(1))):
            raise Fail(f"{what}: '{text}' is not a cpulist")
        ids.extend(range(int(m.group(1)), int(m.group(2) or m.group(1)) + 1))
    return ids


def load_machine(path):
    """Reads and checks a description, so that a mistake in it reads as one, not as a guest failure."""
    try:
        with open(path) as f:
            m = json.load(f)
    except (OSError, ValueError) as e:
        raise Fail(f"{path}: {e}")
    name = m.get("name") or os.path.splitext(os.path.basename(path))[0]
    where = f"machine {name} ({path})"
    try:
        procs = processors(m)
        nodes = m["nodes"]
        if [n["id"] for n in nodes] != list(range(len(nodes))):
            raise Fail(f"{where}: node ids must be 0, 1, ... in order (QEMU numbers nodes densely)")
        owner = {}
        for n in nodes:
            for cpu in parse_cpulist(n["cpus"], f"{where}: node {n['id']} cpus"):
                if cpu >= procs or cpu in owner:
                    raise Fail(f"{where}: processor {cpu} is outside 0..{procs - 1} or in two nodes")
                owner[cpu] = n["id"]
            if n["memory_mib"] < 0:
                raise Fail(f"{where}: node {n['id']} has negative memory")
        if len(owner) != procs:
            raise Fail(f"{where}: processors {sorted(set(range(procs)) - set(owner))} belong to no node")
        if not any(n["memory_mib"] > 0 for n in nodes):
            raise Fail(f"{where}: no node has memory")
        dist = m["distances"]
        if len(dist) != len(nodes) or any(len(row) != len(nodes) for row in dist):
            raise Fail(f"{where}: distances must be a {len(nodes)}x{len(nodes)} matrix")
        if any(dist[i][i] != 10 for i in range(len(nodes))):
            raise Fail(f"{where}: a node's distance to itself is 10 (ACPI SLIT)")
        guest = m.get("guest", {})
        offline = parse_cpulist(guest.get("offline", ""), f"{where}: guest.offline")
        taskset = parse_cpulist(guest.get("taskset", ""), f"{where}: guest.taskset")
        if any(cpu >= procs for cpu in offline + taskset):
            raise Fail(f"{where}: guest.offline / guest.taskset name a processor beyond {procs - 1}")
        if 0 in offline:
            raise Fail(f"{where}: x86 cannot take processor 0 offline")
        if taskset and not set(taskset) - set(offline):
            raise Fail(f"{where}: guest.taskset leaves no online processor")
    except (KeyError, TypeError) as e:
        raise Fail(f"{where}: malformed description ({e!r})")
    m["name"] = name
    m["_owner"] = owner
    m["_offline"] = offline
    m["_taskset"] = guest.get("taskset", "").strip()
    m["_filter"] = guest.get("filter", "")
    m["_mpi"] = bool(guest.get("mpi", False))
    return m


def processors(m):
    """How many processors the machine has."""
    q = m["qemu"]
    return q["sockets"] * q["cores"] * q["threads"]


def default_accel(m):
    """One host thread per emulated processor only where each can have a processor of its own.

    With fewer host processors than emulated ones, multi-threaded TCG's threads take turns: a guest thread spinning
    at a barrier holds a host processor while the thread it waits for is descheduled. On a 2-processor host the four
    machines took 97 s (185 s of processor time) that way, and 42 s (74 s) with every processor emulated in turn on
    one thread. The checks are about placement, which both modes emulate alike; memory ordering is ThreadSanitizer's.
    """
    return "tcg,thread=multi" if len(os.sched_getaffinity(0)) >= processors(m) else "tcg,thread=single"


def qemu_shape(m):
    """The QEMU options that give the guest this machine's processors, nodes, memory and distances."""
    q = m["qemu"]
    procs = processors(m)
    total = sum(n["memory_mib"] for n in m["nodes"])
    args = ["-cpu", q["cpu"], "-m", f"{total}M",
            "-smp", f"{procs},sockets={q['sockets']},cores={q['cores']},threads={q['threads']}"]
    for n in m["nodes"]:
        if n["memory_mib"] > 0:
            args += ["-object", f"memory-backend-ram,id=m{n['id']},size={n['memory_mib']}M"]
            args += ["-numa", f"node,nodeid={n['id']},memdev=m{n['id']}"]
        else:
            args += ["-numa", f"node,nodeid={n['id']}"]  # processors without memory
    # QEMU's linear processor index is socket, then core, then thread; Linux numbers
    # the processors in the same (ACPI table) order, which the guest relies on.
    per_socket = q["cores"] * q["threads"]
    for cpu in range(procs):
        socket, core, thread = cpu // per_socket, cpu % per_socket // q["threads"], cpu % q["threads"]
        args += ["-numa", f"cpu,node-id={m['_owner'][cpu]},socket-id={socket},core-id={core},thread-id={thread}"]
    for i, row in enumerate(m["distances"]):
        for j, d in enumerate(row):
            if i != j:
                args += ["-numa", f"dist,src={i},dst={j},val={d}"]
    return args


# --- the tools -----------------------------------------------------------------------------------------------------

def is_static_elf(path):
    """True for an ELF file without a program interpreter (PT_INTERP): it runs in a bare initramfs."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF" or head[4] != 2:
            return False
        phoff, = struct.unpack_from("<Q", head, 32)
        phentsize, phnum = struct.unpack_from("<HH", head, 54)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    return all(struct.unpack_from("<I", table, i * phentsize)[0] != 3 for i in range(phnum))


def version_key(path):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", path)]


def find_tools(args):
    qemu = args.qemu or os.environ.get("ULIBC_LAB_QEMU") or shutil.which("qemu-system-x86_64")
    if not qemu or not os.access(qemu, os.X_OK):
        raise Skip(f"qemu-system-x86_64 not found ({SETUP_HINT}: package qemu-system-x86; or set ULIBC_LAB_QEMU)")
    kernel = args.kernel or os.environ.get("ULIBC_LAB_KERNEL")
    if not kernel:
        found = sorted(glob.glob("/boot/vmlinuz-*"), key=version_key)
        if not found:
            raise Skip(f"no kernel /boot/vmlinuz-* ({SETUP_HINT}: package linux-image-amd64; or set ULIBC_LAB_KERNEL)")
        kernel = found[-1]
    if not os.access(kernel, os.R_OK):
        raise Skip(f"kernel {kernel} is missing or unreadable (set ULIBC_LAB_KERNEL to a readable bzImage)")
    busybox = args.busybox or os.environ.get("ULIBC_LAB_BUSYBOX") or shutil.which("busybox") or "/bin/busybox"
    if not os.access(busybox, os.R_OK):
        raise Skip(f"busybox not found ({SETUP_HINT}: package busybox-static; or set ULIBC_LAB_BUSYBOX)")
    if not is_static_elf(busybox):
        raise Skip(f"{busybox} is not a static binary ({SETUP_HINT}: package busybox-static; or set ULIBC_LAB_BUSYBOX)")
    return qemu, kernel, busybox


# --- the kernel ----------------------------------------------------------------------------------------------------

def has_pvh_entry(elf):
    """True for an ELF kernel with the PVH entry note (name "Xen", type 18): QEMU boots it without its decompressor."""
    if elf[:4] != b"\x7fELF" or elf[4] != 2:
        return False
    phoff, = struct.unpack_from("<Q", elf, 32)
    phentsize, phnum = struct.unpack_from("<HH", elf, 54)
    for i in range(phnum):
        p_type, _, offset, _, _, size = struct.unpack_from("<IIQQQQ", elf, phoff + i * phentsize)
        pos, end = offset, offset + size
        while p_type == 4 and pos + 12 <= end:  # PT_NOTE: (name size, descriptor size, type, name, descriptor)...
            namesz, descsz, kind = struct.unpack_from("<III", elf, pos)
            if elf[pos + 12:pos + 12 + namesz].rstrip(b"\0") == b"Xen" and kind == 18:
                return True
            pos += 12 + (namesz + 3) // 4 * 4 + (descsz + 3) // 4 * 4
    return False


def bootable_kernel(kernel, cache):
    """The kernel QEMU should boot: an xz-compressed bzImage's vmlinux where it has a PVH entry, else the kernel.

    The bzImage's decompressor runs under emulation before the kernel starts (3-4 s of every boot, one emulated
    processor); QEMU enters an uncompressed vmlinux directly. It is decompressed once into cache, named after the
    kernel's size and time, and written under a temporary name first, so that machines booting side by side never
    read half a file.
    """
    st = os.stat(kernel)
    unpacked = os.path.join(cache, f"{os.path.basename(kernel)}-{st.st_size}-{st.st_mtime_ns}.vmlinux")
    if os.path.exists(unpacked):
        return unpacked
    image = read(kernel)
    start = image.find(b"\xfd7zXZ\x00")  # the xz stream's magic
    if has_pvh_entry(image) or start < 0:
        return kernel
    try:
        elf = lzma.LZMADecompressor(format=lzma.FORMAT_XZ).decompress(image[start:])
    except lzma.LZMAError:
        return kernel
    if not has_pvh_entry(elf):
        return kernel
    try:
        with tempfile.NamedTemporaryFile(dir=cache, prefix=".vmlinux-", delete=False) as out:
            out.write(elf)
        os.replace(out.name, unpacked)
    except OSError as e:  # a cache it cannot write to: boot as before, and say why
        print(f"numa_lab: cannot keep the decompressed kernel in {cache} ({e}); booting {kernel} as it is", flush=True)
        return kernel
    return unpacked


# --- the initramfs -------------------------------------------------------------------------------------------------

class Cpio:
    """Writes the kernel's initramfs format (cpio 'newc'): a header of hex fields, the name, the data."""

    def __init__(self, out):
        self.out = out
        self.ino = 1

    def _entry(self, name, mode, data=b"", rdev=(0, 0)):
        name_bytes = name.encode() + b"\0"
        fields = [self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1], len(name_bytes), 0]
        self.ino += 1
        self.out.write(b"070701" + b"".join(b"%08X" % v for v in fields) + name_bytes)
        self.out.write(b"\0" * (-(110 + len(name_bytes)) % 4) + data + b"\0" * (-len(data) % 4))

    def directory(self, name):
        self._entry(name, 0o040755)

    def file(self, name, data, mode=0o644):
        self._entry(name, 0o100000 | mode, data)

    def char_device(self, name, major, minor):
        self._entry(name, 0o020600, rdev=(major, minor))

    def close(self):
        self._entry("TRAILER!!!", 0)


def read(path):
    with open(path, "rb") as f:
        return f.read()


# --- Open MPI in the guest -----------------------------------------------------------------------------------------

def shared_libraries(elf):
    """The shared objects the dynamic loader would map for `elf`, as ldd names them (paths; the loader included)."""
    out = subprocess.run(["ldd", elf], capture_output=True, text=True).stdout
    return {m.group(1) for m in re.finditer(r"(/\S+) \(0x", out)}


def tree_files(top):
    """Every regular file below `top` (symbolic links followed)."""
    found = []
    for where, _, names in os.walk(top, followlinks=True):
        found.extend(os.path.join(where, n) for n in names if os.path.isfile(os.path.join(where, n)))
    return found


def open_mpi_files(programs):
    """Guest path → host file for an Open MPI job of `programs` in the guest: Open MPI as installed here.

    Open MPI is linked dynamically (Debian ships no static libmpi) and finds its launcher's daemon, its plugins, help
    texts and settings at the paths it was built with, so they keep their host paths in the guest: the launcher
    (mpirun is orterun), its daemon orted, the library directory with the plugins, PMIx's plugins and help texts,
    then every shared library any of these loads, at the path ldd names. The programs go to /lab/bin/, and the
    launcher once more as /lab/bin/mpirun.
    """
    try:
        info = subprocess.run(["ompi_info", "--path", "all", "--parsable"], capture_output=True, text=True).stdout
    except OSError:
        info = ""
    path = dict(re.findall(r"^path:(\w+):(.*)$", info, re.M))
    if not all(k in path for k in ("bindir", "libdir", "pkgdatadir", "sysconfdir")):
        # The machine's other checks still run; the two-rank one skips, saying why.
        print(f"numa_lab: no Open MPI here (ompi_info gave no paths; {SETUP_HINT}: package openmpi-bin): "
              "the guest's two-rank check will skip", flush=True)
        return {}
    files = {f"/lab/bin/{os.path.basename(p)}": p for p in programs}
    for name in ("orterun", "orted"):
        files[os.path.join(path["bindir"], name)] = os.path.join(path["bindir"], name)
    files["/lab/bin/mpirun"] = os.path.join(path["bindir"], "orterun")
    for top in (path["libdir"], path["pkgdatadir"], path["sysconfdir"]):
        files.update({f: f for f in tree_files(top) if not f.endswith((".a", ".la"))})
    libs = set()
    for host in list(files.values()):
        if host.endswith(".so") or ".so." in host or os.access(host, os.X_OK):
            libs |= shared_libraries(host)
    pmix = [lib for lib in libs if os.path.basename(lib).startswith("libpmix.so")]
    for lib in pmix:  # PMIx's own tree, beside its library: lib/pmix (plugins), share/pmix (help texts)
        top = os.path.dirname(os.path.dirname(os.path.realpath(lib)))
        for f in tree_files(os.path.join(top, "lib", "pmix")) + tree_files(os.path.join(top, "share", "pmix")):
            files[f] = f
            libs |= shared_libraries(f) if f.endswith(".so") else set()
    files.update({lib: lib for lib in libs})
    return files


def build_initramfs(path, m, machine_path, guest, busybox, nonce, guest_args, shell, extra_files):
    with open(path, "wb") as out:
        c = Cpio(out)
        for d in ("bin", "dev", "proc", "sys", "tmp", "lab"):
            c.directory(d)
        c.char_device("dev/console", 5, 1)  # init's stdin/stdout before devtmpfs is mounted
        c.file("init", read(os.path.join(HERE, "guest_init.sh")), 0o755)
        c.file("bin/busybox", read(busybox), 0o755)
        c.file("lab/guest", read(guest), 0o755)
        c.file("lab/machine.json", read(machine_path))
        c.file("lab/offline", " ".join(map(str, m["_offline"])).encode())
        c.file("lab/taskset", m["_taskset"].encode())
        c.file("lab/args", " ".join(guest_args).encode())
        c.file("lab/nonce", nonce.encode())
        if shell:
            c.file("lab/shell", b"")
        made = {"bin", "dev", "proc", "sys", "tmp", "lab"}
        for guest_path, host in sorted(extra_files.items()):
            name = guest_path.lstrip("/")
            parts = name.split("/")
            for i in range(1, len(parts)):
                parent = "/".join(parts[:i])
                if parent not in made:
                    c.directory(parent)
                    made.add(parent)
            c.file(name, read(host), 0o755 if os.access(host, os.X_OK) else 0o644)
        c.close()


# --- booting -------------------------------------------------------------------------------------------------------

def boot(cmd, timeout, end_re, interactive):
    """Runs QEMU, echoing the console; returns (console lines, stderr lines, guest status or None, timed out)."""
    if interactive:
        subprocess.run(cmd)
        return [], [], None, False
    proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    lines, errors, status = [], [], []
    ended = threading.Event()

    def console():
        for raw in proc.stdout:
            line = raw.decode(errors="replace").rstrip("\r\n").replace("\r", "")
            lines.append(line)
            print(line, flush=True)
            hit = end_re.fullmatch(line.strip())
            if hit:
                status.append(int(hit.group(1)))
                ended.set()

    def stderr():
        errors.extend(raw.decode(errors="replace").rstrip() for raw in proc.stderr)

    readers = [threading.Thread(target=console, daemon=True), threading.Thread(target=stderr, daemon=True)]
    for r in readers:
        r.start()
    deadline = time.monotonic() + timeout
    timed_out = False
    while proc.poll() is None:
        if ended.is_set():
            # The guest has reported; give poweroff a moment, then stop waiting for it.
            try:
                proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                proc.kill()
            break
        if time.monotonic() > deadline:
            timed_out = True
            proc.kill()
            break
        time.sleep(0.2)
    proc.wait()
    for r in readers:
        r.join(timeout=5)
    return lines, errors, (status[0] if status else None), timed_out


def running_test(lines):
    """The guest test that started and never finished, from gtest's '[ RUN      ]' lines; None if none."""
    running = None
    for line in lines:
        if line.startswith("[ RUN      ]"):
            running = line.split("]", 1)[1].strip()
        elif line.startswith(("[       OK ]", "[  FAILED  ]", "[  SKIPPED ]")):
            running = None
    return running


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--machine", required=True, help="machine description (tests/numa_lab/machines/*.json)")
    ap.add_argument("--guest", help="the static guest test program (ulibc_lab_guest)")
    ap.add_argument("--skip", metavar="REASON", help="report a skip for REASON (the build could not make the guest)")
    ap.add_argument("--mpi-program", action="append", default=[], metavar="PROGRAM",
                    help="a dynamically linked program for the guest's Open MPI job (repeatable): packed into /lab/bin "
                         "with Open MPI, for machines whose description sets guest.mpi")
    ap.add_argument("--filter", default="",
                    help="gtest filter for the guest, e.g. 'Memory.*' (default: the description's guest.filter)")
    ap.add_argument("--timeout", type=float, default=float(os.environ.get("ULIBC_LAB_TIMEOUT", 300)),
                    help="seconds before QEMU is killed (ULIBC_LAB_TIMEOUT, default 300)")
    ap.add_argument("--qemu", help="QEMU binary (ULIBC_LAB_QEMU; default qemu-system-x86_64 on PATH)")
    ap.add_argument("--kernel", help="kernel image (ULIBC_LAB_KERNEL; default the newest /boot/vmlinuz-*)")
    ap.add_argument("--busybox", help="static busybox (ULIBC_LAB_BUSYBOX; default busybox on PATH)")
    ap.add_argument("--cache", help="directory that keeps the kernel decompressed between runs (default: none)")
    ap.add_argument("--accel", default=os.environ.get("ULIBC_LAB_ACCEL"),
                    help="QEMU -accel value (ULIBC_LAB_ACCEL; default tcg,thread=multi where this process may use "
                         "as many processors as the machine has, else tcg,thread=single)")
    ap.add_argument("--append", default="", help="more kernel parameters, e.g. transparent_hugepage=never")
    ap.add_argument("--print-command", action="store_true", help="print the QEMU command line before booting")
    ap.add_argument("--keep", metavar="DIR", help="write the initramfs to DIR and keep it")
    ap.add_argument("--shell", action="store_true",
                    help="after the tests, a shell on this terminal (by hand only; no timeout)")
    args = ap.parse_args()
    label = f"numa_lab[{os.path.splitext(os.path.basename(args.machine))[0]}]"
    try:
        m = load_machine(args.machine)
        label = f"numa_lab[{m['name']}]"
        if args.skip:
            raise Skip(args.skip)
        qemu, kernel, busybox = find_tools(args)
        if not args.guest or not os.access(args.guest, os.R_OK) or not is_static_elf(args.guest):
            raise Fail(f"guest program {args.guest} is missing or not static (build the ulibc_lab_guest target)")
        nonce = secrets.token_hex(8)
        checks = args.filter or m["_filter"]
        guest_args = ["--gtest_color=no"] + ([f"--gtest_filter={checks}"] if checks else [])
        with tempfile.TemporaryDirectory(prefix="ulibc-lab-") as tmp:
            initrd = os.path.join(args.keep or tmp, f"{m['name']}.cpio")
            if args.keep:
                os.makedirs(args.keep, exist_ok=True)
            extra = open_mpi_files(args.mpi_program) if m["_mpi"] and args.mpi_program else {}
            build_initramfs(initrd, m, args.machine, args.guest, busybox, nonce, guest_args, args.shell, extra)
            boot_kernel = bootable_kernel(kernel, args.cache or tmp)
            accel = args.accel or default_accel(m)
            cmd = [qemu, "-accel", accel] + qemu_shape(m) + [
                "-kernel", boot_kernel, "-initrd", initrd,
                "-append", " ".join([KERNEL_ARGS, args.append]).strip(),
                "-nodefaults", "-display", "none", "-no-reboot",
                "-serial", "mon:stdio" if args.shell else "stdio"]
            if args.print_command or args.keep:
                print(f"{label}: " + " ".join(cmd), flush=True)
            how = " (decompressed, through its PVH entry)" if boot_kernel != kernel else ""
            print(f"{label}: {m.get('about', '')}; booting {os.path.basename(kernel)}{how} under {accel}",
                  flush=True)
            start = time.monotonic()
            end_re = re.compile(r"ULIBC_LAB_END " + nonce + r" status=(\d+)")
            lines, errors, status, timed_out = boot(cmd, args.timeout, end_re, args.shell)
            elapsed = time.monotonic() - start
        if args.shell:
            return 0
        noise = re.compile(r"TCG doesn't support requested feature")
        for e in errors:
            if not noise.search(e):
                print(f"{label}: qemu: {e}", file=sys.stderr)
        if timed_out:
            running = running_test(lines)
            raise Fail(f"no end marker within {args.timeout:.0f} s: QEMU killed (ULIBC_LAB_TIMEOUT raises the limit)"
                       + (f"; the guest was in {running}" if running else ""))
        if status is None:
            why = "the kernel panicked" if any("Kernel panic" in x for x in lines) else "QEMU exited"
            running = running_test(lines)
            raise Fail(f"{why} before the guest printed its end marker ({elapsed:.1f} s)"
                       + (f"; the guest was in {running}" if running else ""))
        if status == 90:
            raise Fail("an in-guest action failed (the 'lab:' lines above say which)")
        if status > 128:
            raise Fail(f"the guest program was killed by signal {status - 128}"
                       + (f" in {running_test(lines)}" if running_test(lines) else ""))
        if status != 0:
            failed = [x.split("]", 1)[1].split()[0] for x in lines
                      if x.startswith("[  FAILED  ]") and not re.search(r"\d+ tests?, listed below", x)]
            failed = list(dict.fromkeys(failed))  # gtest lists each failure twice
            raise Fail(f"guest tests exited with status {status} after {elapsed:.1f} s"
                       + (f"; failed: {', '.join(failed)}" if failed else ""))
        print(f"{label}: PASS in {elapsed:.1f} s", flush=True)
        return 0
    except Skip as e:
        print(f"{label}: SKIP: {e}", flush=True)
        return SKIP
    except Fail as e:
        print(f"{label}: FAIL: {e}", flush=True)
        return 1


if __name__ == "__main__":
    sys.exit(main())
