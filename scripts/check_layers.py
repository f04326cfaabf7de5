#!/usr/bin/env python3
"""Checks that every #include of the project's own code points down or across its layers, never up.

The layers, lowest first: the library (include/, its public API; src/, its implementation), the shared layers the
kernels stand on (layers/), the kernels (kernels/), the command (tools/), the peers (peers/). A file may include a
header of its own level or of a lower one; the library's implementation (src/) is private to it, so only src/
includes src/ headers. A quoted include is looked for as the compiler does: beside the including file, then in each
level's folder; one found in none is a system or generated header and is not judged. A name found in two
folders is reported too: each header has one obvious place. Tests and examples may include anything.

usage: check_layers.py [ROOT]   (ROOT: the repository, default the one holding this script)
exit 0 when every include keeps the order, 1 listing each one that does not."""

import os
import re
import sys

# Folder → level; src/ shares the library's level but is private to it.
LEVELS = {"include": 0, "src": 0, "layers": 1, "kernels": 2, "tools": 3, "peers": 4}
SOURCES = (".hpp", ".cpp", ".h", ".c")
INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def top(root, path):
    return os.path.relpath(path, root).split(os.sep)[0]


def resolve(root, including, name):
    """The files `name` may be: the one beside `including`, else those under each level's folder."""
    beside = os.path.normpath(os.path.join(os.path.dirname(including), name))
    if os.path.isfile(beside):
        return [beside]
    return [path for path in (os.path.join(root, folder, name) for folder in LEVELS) if os.path.isfile(path)]


def problem(root, including, name, found):
    here = top(root, including)
    if len(found) > 1:
        return f"{name} exists in {' and '.join(os.path.relpath(f, root) for f in found)}"
    there = top(root, found[0])
    if there == "src" and here != "src":
        return f"{name} is the library's private src/{os.path.relpath(found[0], os.path.join(root, 'src'))}"
    if LEVELS[there] > LEVELS[here]:
        return f"{name} is in {there}/, a layer above {here}/"
    return None


def violations(root):
    for folder in LEVELS:
        for dirpath, _, files in os.walk(os.path.join(root, folder)):
            for file in sorted(files):
                if not file.endswith(SOURCES):
                    continue
                path = os.path.join(dirpath, file)
                with open(path, encoding="utf-8", errors="replace") as f:
                    names = INCLUDE.findall(f.read())
                for name in names:
                    found = resolve(root, path, name)
                    why = found and problem(root, path, name, found)
                    if why:
                        yield f"{os.path.relpath(path, root)}: #include \"{name}\": {why}"


def main(argv):
    root = os.path.abspath(argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), ".."))
    missing = [f for f in LEVELS if not os.path.isdir(os.path.join(root, f))]
    if missing:
        print(f"check_layers.py: {root} has no {', '.join(f + '/' for f in missing)}: not a ULIBC tree", file=sys.stderr)
        return 2
    found = list(violations(root))
    for line in found:
        print(line)
    if found:
        print(f"check_layers.py: {len(found)} include(s) against the layers' order "
              "(include/ src/ < layers/ < kernels/ < tools/ < peers/)", file=sys.stderr)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
