#!/usr/bin/env bash
# Checks the house style (CONTRIBUTING.md): every C and C++ file formatted by
# .clang-format, every one opening with its one-line header comment
# ("// path — what it is for."), no function over 80 lines
# (scripts/check_functions.py), and no Python that pyflakes faults (unused or
# undefined names: the peers' scripts, the plot, the tests). With --fix, formats
# the C and C++ files in place.
set -euo pipefail
cd "$(dirname "$0")/.."

# The files are the ones git tracks: without git the check would see none and pass.
command -v git >/dev/null || { echo "style: git not found (apt-get install git; scripts/setup.sh test installs it)" >&2; exit 1; }
fix=0
[ "${1:-}" = "--fix" ] && fix=1
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp')

failed=0
log=$(mktemp)
if [ "$fix" -eq 1 ]; then
  clang-format -i "${files[@]}"
elif ! clang-format --dry-run -Werror "${files[@]}" 2>"$log"; then
  grep -o '^[^:]*:[0-9]*' "$log" | sort -u -t: -k1,1 | sed 's/^/style: not formatted: /' >&2
  echo "style: run scripts/check_style.sh --fix" >&2
  failed=1
fi
rm -f "$log"

for f in "${files[@]}"; do
  if ! head -n 1 "$f" | grep -Eq '^(//|/\*) [^ ]+ — '; then
    echo "style: $f: the first line is not a header comment (\"// path — what it is for.\")" >&2
    failed=1
  fi
done
python3 scripts/check_functions.py >&2 || failed=1
command -v pyflakes3 >/dev/null || { echo "style: pyflakes3 not found (apt-get install pyflakes3)" >&2; exit 1; }
mapfile -t scripts < <(git ls-files '*.py')
pyflakes3 "${scripts[@]}" >&2 || failed=1
exit "$failed"
