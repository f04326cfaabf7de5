#!/usr/bin/env python3
"""Checks that every system file a build used comes from a package that scripts/setup.sh installs.

usage: scripts/check_packages.py [--setup SCRIPT] [--profile test|demo] BUILD_DIR...

The files a build read are the headers in ninja's dependency log and the libraries on its link lines. Each is
traced to the Debian package that owns it, and that package must be one `setup.sh PROFILE --list` names, one they
depend on (Depends and Pre-Depends, as installed here), or one of the base system (Essential, with apt). A package
outside that set is on this machine only because it was installed by hand: a fresh machine lacks it, and the build
that passes here fails there. A system file no package owns (/usr/local, a hand-built library) fails the same way.

Exit status: 0 when every file is accounted for, 1 when one is not (each such package is named with a file of it
the build used), 2 for a usage error.
"""

import argparse
import glob
import os
import re
import subprocess
import sys

DPKG_DIR = "/var/lib/dpkg"
# Files under these roots belong to the system; others (the sources, the build tree) are the project's own.
SYSTEM_ROOTS = ("/usr/", "/lib", "/etc/", "/opt/")


def setup_packages(setup, profile):
    """The package names `setup.sh PROFILE --list` prints."""
    out = subprocess.run(["bash", setup, profile, "--list"], check=True, capture_output=True, text=True).stdout
    return {line.strip() for line in out.splitlines() if line.strip()}


def read_status(dpkg_dir):
    """Installed packages from dpkg's status file: name -> {field: value}."""
    packages = {}
    with open(os.path.join(dpkg_dir, "status"), encoding="utf-8", errors="replace") as f:
        for stanza in f.read().split("\n\n"):
            fields, last = {}, None
            for line in stanza.splitlines():
                if line[:1] in (" ", "\t") and last:
                    fields[last] += "\n" + line
                elif ":" in line:
                    last, _, value = line.partition(":")
                    fields[last] = value.strip()
            if "Package" in fields and fields.get("Status", "").endswith(" installed"):
                packages[fields["Package"]] = fields
    return packages


def read_owners(dpkg_dir):
    """Which installed packages own each path, from dpkg's file lists (info/PACKAGE[:ARCH].list)."""
    owners = {}
    for listing in glob.glob(os.path.join(dpkg_dir, "info", "*.list")):
        package = os.path.basename(listing)[: -len(".list")].split(":")[0]
        with open(listing, encoding="utf-8", errors="replace") as f:
            for path in f.read().splitlines():
                owners.setdefault(path, set()).add(package)
    return owners


def relation_names(field):
    """The alternatives of each relation in a Depends-style field, names only: [["a", "b"], ["c"]]."""
    relations = []
    for relation in field.split(","):
        names = [re.sub(r"[:(\[].*", "", alt).strip() for alt in relation.split("|")]
        names = [n for n in names if n]
        if names:
            relations.append(names)
    return relations


def providers(status):
    """Virtual package name -> the installed packages that provide it."""
    provided = {}
    for name, fields in status.items():
        for relation in relation_names(fields.get("Provides", "")):
            provided.setdefault(relation[0], set()).add(name)
    return provided


def closure(roots, status):
    """The packages apt installs for `roots` (as installed here): each relation's first installed alternative,
    or, for a virtual name, its installed providers; then theirs, and so on."""
    provided = providers(status)
    seen, todo = set(), [r for r in roots if r in status or r in provided]
    while todo:
        name = todo.pop()
        for real in [name] if name in status else sorted(provided.get(name, ())):
            if real in seen:
                continue
            seen.add(real)
            fields = status[real]
            for relation in relation_names(fields.get("Pre-Depends", "")) + relation_names(fields.get("Depends", "")):
                chosen = next((alt for alt in relation if alt in status or alt in provided), None)
                if chosen:
                    todo.append(chosen)
    return seen


def base_system(status):
    """What every fresh Debian has: the Essential packages and apt (debootstrap's minbase)."""
    return [name for name, fields in status.items() if fields.get("Essential") == "yes"] + ["apt"]


def linker_dirs():
    """Where the compiler driver's linker looks for -lNAME."""
    out = subprocess.run(["gcc", "-print-search-dirs"], capture_output=True, text=True).stdout
    for line in out.splitlines():
        if line.startswith("libraries: ="):
            return [os.path.normpath(d) for d in line[len("libraries: =") :].split(":") if d]
    return ["/usr/lib/x86_64-linux-gnu", "/usr/lib", "/lib"]


def link_inputs(build_ninja, search_dirs):
    """Libraries on the link lines of a build.ninja: absolute paths, and -lNAME found as the linker would."""
    with open(build_ninja, encoding="utf-8", errors="replace") as f:
        text = f.read()
    files = set(re.findall(r"(?<![\w.-])(/[^\s;:$\"']+\.(?:so|a)(?:\.[0-9]+)*)(?=[\s;\"]|$)", text, re.M))
    extra = [os.path.normpath(d) for d in re.findall(r"(?<![\w-])-L(/[^\s]+)", text)]
    for name in sorted(set(re.findall(r"(?<![\w-])-l([A-Za-z0-9_+.-]+)", text))):
        for d in extra + search_dirs:
            found = next((f"{d}/lib{name}{ext}" for ext in (".so", ".a") if os.path.exists(f"{d}/lib{name}{ext}")), None)
            if found:
                files.add(found)
                break
    return files


def header_inputs(build_dir):
    """Every file in ninja's dependency log (the compiler's own list of what each object included)."""
    out = subprocess.run(["ninja", "-C", build_dir, "-t", "deps"], check=True, capture_output=True, text=True).stdout
    return {line.strip() for line in out.splitlines() if line.startswith("    ")}


def system_files(paths, own_roots):
    """The paths that are the system's, not the project's."""
    own = tuple(os.path.realpath(r) + "/" for r in own_roots)
    return {os.path.normpath(p) for p in paths
            if p.startswith(SYSTEM_ROOTS) and not os.path.realpath(p).startswith(own)}


def spellings(path):
    """The names dpkg may list a file under: as used and with links resolved, each with and without the /usr of
    a merged /usr (dpkg lists /lib/x86_64-linux-gnu/libm.so.6 that the compiler reads as /usr/lib/...)."""
    names = []
    for p in (path, os.path.realpath(path)):
        names += [p, p[len("/usr") :] if p.startswith("/usr/") else "/usr" + p]
    return names


def owner_of(path, owners):
    """Every package that owns the file under one of its spellings."""
    return set().union(*(owners.get(name, set()) for name in spellings(path)))


def unaccounted(files, owners, allowed):
    """{package or None: an example file} for files whose owners are all outside `allowed` (None: no owner)."""
    missing = {}
    for path in sorted(files):
        owned_by = owner_of(path, owners)
        if not owned_by:
            missing.setdefault(None, path)
        elif not owned_by & allowed:
            for package in sorted(owned_by):
                missing.setdefault(package, path)
    return missing


def report(build_dir, files, missing, setup, profile):
    if not missing:
        print(f"check_packages: {build_dir}: the {len(files)} system files the build used all come from packages "
              f"that `{setup} {profile}` installs")
        return True
    print(f"check_packages: {build_dir} used files that `{setup} {profile}` does not install; a fresh machine "
          "lacks them:", file=sys.stderr)
    for package, path in sorted(missing.items(), key=lambda item: item[0] or ""):
        what = package if package else "(no Debian package)"
        print(f"  {what:32} e.g. {path}", file=sys.stderr)
    print("Add the package to scripts/setup.sh, or make the build not use it.", file=sys.stderr)
    return False


def main(argv):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--setup", default=os.path.relpath(os.path.join(os.path.dirname(__file__), "setup.sh")))
    parser.add_argument("--profile", default="test", choices=("test", "demo"))
    parser.add_argument("build_dirs", nargs="+", metavar="BUILD_DIR")
    args = parser.parse_args(argv)
    for d in args.build_dirs:
        if not os.path.isfile(os.path.join(d, "build.ninja")):
            parser.error(f"{d}: no build.ninja (a Ninja build directory is needed)")
    status = read_status(DPKG_DIR)
    owners = read_owners(DPKG_DIR)
    allowed = closure(sorted(setup_packages(args.setup, args.profile)) + base_system(status), status)
    source_root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    search_dirs = linker_dirs()
    ok = True
    for d in args.build_dirs:
        used = header_inputs(d) | link_inputs(os.path.join(d, "build.ninja"), search_dirs)
        files = system_files(used, [source_root, d])
        ok &= report(d, files, unaccounted(files, owners, allowed), args.setup, args.profile)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
