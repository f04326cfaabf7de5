#!/usr/bin/env bash
# Checks the house style (CONTRIBUTING.md): every C and C++ file formatted by
# .clang-format, and every one opening with its one-line header comment
# ("// path — what it is for."). With --fix, formats the files in place.
set -euo pipefail
cd "$(dirname "$0")/.."

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
exit "$failed"
