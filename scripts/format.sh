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
bad=()
for f in "${files[@]}"; do
  clang-format --dry-run -Werror "$f" >/dev/null 2>&1 || bad+=("$f")
done
if [ ${#bad[@]} -ne 0 ]; then
  printf '%s does not follow .clang-format\n' "${bad[@]}"
  echo "(scripts/format.sh rewrites them; clang-format --dry-run FILE shows where)"
  exit 1
fi
echo "all ${#files[@]} C and C++ sources follow .clang-format"
