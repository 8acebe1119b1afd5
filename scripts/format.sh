#!/usr/bin/env bash
# Formats the tree's C and C++ sources with .clang-format (clang-format 14, Debian's
# clang-format package), or checks that they follow it.
#
#   scripts/format.sh           rewrite every tracked source that does not follow it
#   scripts/format.sh --check   list the sources that do not follow it; exit 1 if any
#
# The generated API headers (include/, scripts/gen_api.py) are left as generated.
set -euo pipefail
cd "$(dirname "$0")/.."
mode=fix
case "${1:-}" in
  --check) mode=check ;;
  "") ;;
  -h|--help) sed -n '2,8s/^# \{0,1\}//p' "$0"; exit 0 ;;
  *) echo "scripts/format.sh: unknown argument '$1' (try --help)" >&2; exit 2 ;;
esac
command -v clang-format >/dev/null || { echo "clang-format is not installed (apt-get install clang-format)" >&2; exit 2; }
mapfile -t files < <(git ls-files '*.c' '*.h' '*.cpp' '*.hpp' ':!:include/')
if [ "$mode" = fix ]; then
  clang-format -i "${files[@]}"
  exit 0
fi
# One clang-format process for the whole tree (one per file took most of the test's time);
# it names each file that differs in lines "FILE:LINE:COL: error: code should be
# clang-formatted".
status=0
report=$(clang-format --dry-run -Werror "${files[@]}" 2>&1) || status=$?
mapfile -t bad < <(sed -nE 's/^(.+):[0-9]+:[0-9]+: error: code should be clang-formatted.*/\1/p' \
                     <<<"$report" | sort -u)
if [ "$status" -ne 0 ] && [ ${#bad[@]} -eq 0 ]; then
  head -n 20 <<<"$report" >&2
  echo "clang-format failed (exit status $status) without naming a badly formatted file" >&2
  exit 1
fi
if [ ${#bad[@]} -ne 0 ]; then
  printf '%s does not follow .clang-format\n' "${bad[@]}"
  echo "(scripts/format.sh rewrites them; clang-format --dry-run FILE shows where)"
  exit 1
fi
echo "all ${#files[@]} C and C++ sources follow .clang-format"
