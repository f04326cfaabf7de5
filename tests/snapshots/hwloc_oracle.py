#!/usr/bin/python3
"""Runs hwloc's lstopo on a sysfs/procfs snapshot and prints what the snapshot
test compares, as JSON on stdout.

    hwloc_oracle.py LSTOPO FSROOT      run LSTOPO on the snapshot below FSROOT
    hwloc_oracle.py --xml FILE         convert an lstopo XML file instead

Output (sets are hex masks as the kernel writes them, "0000ffff,ffffffff"):
    {"online": mask, "allowed": mask, "warnings": text,
     "pus":   [{"id", "package" (-1 when hwloc has no os_index), "package_cpus",
               "core" (-1 likewise), "core_cpus", "nodes": [NUMA node ids]}],
     "nodes": [{"id", "cpus", "memory" (bytes), "subtype"}]}

Only the standard library: this runs with Debian's /usr/bin/python3.
"""
import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET


def run_lstopo(lstopo, fsroot):
    # A clean hwloc environment: no HWLOC_* setting of the caller leaks in.
    env = {k: v for k, v in os.environ.items() if not k.startswith("HWLOC_")}
    env["HWLOC_FSROOT"] = fsroot
    # Only the Linux sysfs backend: the x86 backend would otherwise add the
    # CPUID of the machine running the test to the snapshot's topology (and
    # on 8em64t-2s2ca2c it then reports "invalid information"). With a
    # non-/ root hwloc is not "this system", so it never reads our binding.
    env["HWLOC_COMPONENTS"] = "linux,stop"
    # --disallowed keeps processors outside the snapshot's cgroup, so that the
    # root cpuset is every online processor and allowed_cpuset the cgroup's.
    out = subprocess.run([lstopo, "--disallowed", "--no-io", "--of", "xml", "-"],
                         env=env, capture_output=True, text=True)
    if out.returncode != 0:
        sys.exit(f"{lstopo} failed ({out.returncode}): {out.stderr}")
    return out.stdout, out.stderr


def to_int(mask):
    """hwloc's "0x0000ffff,0xffffffff" as an int. hwloc shortens words ("0xf,0x0")
    and leaves zero words empty ("0x1,,,0x0"); "0xf...f" (infinite) never
    occurs in a cpuset of a real machine."""
    if not mask or "f...f" in mask:
        raise ValueError(f"unexpected hwloc bitmap {mask!r}")
    value = 0
    for word in mask.split(","):
        value = value << 32 | (int(word, 16) if word else 0)
    return value


def kernel_mask(value):
    """An int as the kernel's cpumap text: 32-bit hex words, most significant first."""
    words = []
    while True:
        words.append(f"{value & 0xffffffff:08x}")
        value >>= 32
        if not value:
            return ",".join(reversed(words))


def convert(xml_text, warnings):
    root = ET.fromstring(xml_text)
    machine = root.find("object")
    pus, nodes = [], []

    def walk(obj, package, core):
        kind = obj.get("type")
        if kind == "Package":
            package = obj
        elif kind == "Core":
            core = obj
        elif kind == "NUMANode":
            nodes.append(obj)
        elif kind == "PU":
            pus.append((obj, package, core))
        for child in obj.findall("object"):
            walk(child, package, core)

    walk(machine, None, None)

    def os_index(obj):
        return int(obj.get("os_index", -1)) if obj is not None else -1

    def cpus(obj):
        return kernel_mask(to_int(obj.get("cpuset"))) if obj is not None else ""

    return {
        "online": kernel_mask(to_int(machine.get("cpuset"))),
        "allowed": kernel_mask(to_int(machine.get("allowed_cpuset"))),
        "warnings": warnings,
        "pus": [{
            "id": os_index(pu),
            "package": os_index(package),
            "package_cpus": cpus(package),
            "core": os_index(core),
            "core_cpus": cpus(core),
            # In hwloc 2 a node is a memory child of the object whose cpuset
            # its processors form: it covers a PU when its cpuset contains it.
            "nodes": sorted(os_index(n) for n in nodes if to_int(n.get("cpuset")) >> os_index(pu) & 1),
        } for pu, package, core in pus],
        "nodes": [{
            "id": os_index(n),
            "cpus": cpus(n),
            "memory": int(n.get("local_memory", 0)),
            "subtype": n.get("subtype", ""),
        } for n in nodes],
    }


def main(argv):
    if len(argv) == 3 and argv[1] == "--xml":
        with open(argv[2]) as f:
            xml_text, warnings = f.read(), ""
    elif len(argv) == 3:
        xml_text, warnings = run_lstopo(argv[1], argv[2])
    else:
        sys.exit(__doc__)
    json.dump(convert(xml_text, warnings), sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main(sys.argv)
