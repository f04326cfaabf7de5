#!/usr/bin/env python3
"""Names every function longer than the house limit (80 lines, signature to closing brace) in the given C and C++
files, or in the project's own code (src/, include/, layers/, kernels/, tools/, peers/) without arguments.

It reads the layout clang-format gives (scripts/check_style.sh runs first): a body opens with "{" ending a line
whose declaration holds a "(" (lambdas, control statements and initialiser lists are not functions) and closes
with the first "}" that is not indented deeper than the declaration's first line.

usage: check_functions.py [FILE ...]        exit 0, or 1 naming each long function as FILE:LINE: N lines: SIGNATURE"""

import re
import subprocess
import sys

LIMIT = 80
NOT_A_FUNCTION = re.compile(
    r"^\s*(if|for|while|switch|else|do|try|catch|namespace|class|struct|enum|union|extern|case|default)\b"
    r"|\]\s*(\([^)]*\))?\s*(mutable\s*)?(noexcept\s*)?(->\s*[\w:<>*& ]+\s*)?\{$"  # a lambda
    r"|=\s*\{$|\breturn\b|^\s*[{(]")
ENDS_A_DECLARATION = (";", "{", "}", "public:", "private:", "protected:")


def indent(line):
    return len(line) - len(line.lstrip())


def declaration_start(lines, i):
    """The first line of the declaration whose body opens on line i."""
    s = i
    while s > 0:
        before = lines[s - 1]
        if not before.strip() or before.rstrip().endswith(ENDS_A_DECLARATION) or before.lstrip().startswith(("//", "#")):
            break
        s -= 1
    return s


def long_functions(path):
    lines = open(path, encoding="utf-8", errors="replace").read().split("\n")
    found, i = [], 0
    while i < len(lines):
        line = lines[i]
        opens = line.rstrip().endswith("{") and not line.lstrip().startswith(("//", "#"))
        start = declaration_start(lines, i) if opens else i
        if opens and "(" in " ".join(lines[start:i + 1]) and not NOT_A_FUNCTION.search(line) \
                and not NOT_A_FUNCTION.search(lines[start]):
            close = next((j for j in range(i + 1, len(lines))
                          if lines[j].strip().startswith("}") and indent(lines[j]) <= indent(lines[start])),
                         len(lines) - 1)
            length = close - start + 1
            if length > LIMIT:
                found.append((start + 1, length, lines[start].strip()))
            i = close + 1 if length > LIMIT else i + 1
            continue
        i += 1
    return found


def main(argv):
    files = argv[1:] or [f for f in subprocess.run(
        ["git", "ls-files", "src", "include", "layers", "kernels", "tools", "peers"],
        capture_output=True, text=True, check=True).stdout.split() if f.endswith((".c", ".h", ".cpp", ".hpp"))]
    failed = False
    for path in files:
        for line, length, signature in long_functions(path):
            print(f"{path}:{line}: {length} lines (at most {LIMIT}): {signature[:100]}")
            failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
