#!/usr/bin/env python3
"""Names the functions and source lines of the sanitizer reports in a log.

    scripts/sanitizers/symbolize.py [--reports] [LOG...]   (standard input without LOG)

The asan test preset runs with symbolize=0 (asan.options; README.md says why), so a report's
frames name only a module and an offset:

    #1 0x5616e45c4b92  (/path/build-asan/tests/sanitizers/sanitizer_canary+0x1b92)

This prints the log with each such frame followed by what addr2line makes of it (function,
file:line, inlined callers first), for the binaries of the build that wrote the log. Other
lines pass unchanged; with --reports, only the reports (from a sanitizer's ERROR line to its
SUMMARY line) are printed. scripts/test.sh runs it with --reports over the asan tests' log when
one of them failed.
"""
import collections
import re
import subprocess
import sys

REPORT_START = re.compile(r"==\d+==ERROR: \w+Sanitizer|: runtime error: ")
REPORT_END = re.compile(r"^SUMMARY: \w+Sanitizer")
FRAME = re.compile(r"^(\s*#\d+ 0x[0-9a-f]+)\s+\((/[^()+]+)\+(0x[0-9a-f]+)\)\s*$")


def resolve(module, offsets):
    """{offset: [(function, place), ...]} from one addr2line run over a module."""
    try:
        out = subprocess.run(["addr2line", "-f", "-i", "-C", "-a", "-e", module, *offsets],
                             capture_output=True, text=True, timeout=120).stdout
    except (OSError, subprocess.TimeoutExpired):
        return {}
    result, current = {}, None
    lines = out.splitlines()
    i = 0
    while i < len(lines):
        if lines[i].startswith("0x"):
            current = int(lines[i], 16)
            result[current] = []
            i += 1
        elif current is not None and i + 1 < len(lines):
            result[current].append((lines[i], lines[i + 1]))
            i += 2
        else:
            i += 1
    return result


def reports_only(lines):
    """The lines of the sanitizer reports among `lines`."""
    kept, inside = [], False
    for line in lines:
        if REPORT_START.search(line):
            inside = True
            kept.append("")
        if inside:
            kept.append(line)
            if REPORT_END.match(line):
                inside = False
    return kept


def main():
    args = sys.argv[1:]
    only_reports = "--reports" in args
    paths = [a for a in args if a != "--reports"]
    text = "".join(open(p, errors="replace").read() for p in paths) if paths \
        else sys.stdin.read()
    lines = text.splitlines()
    if only_reports:
        lines = reports_only(lines)
    wanted = collections.defaultdict(set)
    for line in lines:
        m = FRAME.match(line)
        if m:
            wanted[m.group(2)].add(m.group(3))
    names = {module: resolve(module, sorted(offsets)) for module, offsets in wanted.items()}
    for line in lines:
        print(line)
        m = FRAME.match(line)
        if not m:
            continue
        for function, place in names.get(m.group(2), {}).get(int(m.group(3), 16), []):
            if function != "??" or not place.startswith("??"):
                print(f"{' ' * 8}in {function} {place}")


if __name__ == "__main__":
    main()
