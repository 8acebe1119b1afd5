#!/usr/bin/env python3
"""Checks that the library's layers include only what lies below them (docs/architecture.md).

    check_layers.py [--root DIR]    exit 1 and list every include that points up or sideways
    check_layers.py --self-test     check that such includes are caught

Every quoted #include of a file of the library (core/, atomics/, collectives/, api/) is resolved
the way the compiler does: the including file's directory, then core/, then the top of the
source tree (CMake gives the layers no other directories for quoted includes). The file it finds
belongs to the layer with the longest matching directory; an include is allowed within a layer
and into the layers that LAYERS says it uses, and nowhere else. An include that resolves to no
file is reported too: the check would otherwise miss whatever it names. Angle-bracket includes
(the public headers, the system and third-party ones) are not the layers' business.
"""
import argparse
import os
import re
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Layer: (directories it is made of, layers below it that it may include), lowest first.
# atomics and collectives are side by side: both use core, neither uses the other.
LAYERS = {
    "core": (["core"], []),
    "atomics": (["atomics"], ["core"]),
    "collectives": (["collectives"], ["core"]),
    "api": (["api"], ["atomics", "collectives", "core"]),
    "fortran": (["api/fortran"], ["api", "atomics", "collectives", "core"]),
}
# Where quoted includes are looked for after the including file's directory.
SEARCH = ["core", "."]
SOURCE_SUFFIXES = (".cpp", ".hpp", ".h", ".def", ".inc")
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]*"([^"]+)"', re.M)


def layer_of(relpath):
    """The layer a file (path relative to the root, '/' separated) belongs to, or None."""
    best, best_len = None, -1
    for name, (dirs, _) in LAYERS.items():
        for d in dirs:
            if (relpath == d or relpath.startswith(d + "/")) and len(d) > best_len:
                best, best_len = name, len(d)
    return best


def resolve(root, includer, name):
    """The file (relative to root) that `#include "name"` in `includer` finds, or None."""
    for base in [os.path.dirname(includer)] + SEARCH:
        candidate = os.path.normpath(os.path.join(base, name))
        if os.path.isfile(os.path.join(root, candidate)):
            return candidate.replace(os.sep, "/")
    return None


def sources(root):
    """Every source file of the layers, relative to root, sorted."""
    found = set()
    for dirs, _ in LAYERS.values():
        for d in dirs:
            for parent, _, files in os.walk(os.path.join(root, d)):
                for f in files:
                    if f.endswith(SOURCE_SUFFIXES):
                        path = os.path.relpath(os.path.join(parent, f), root)
                        found.add(path.replace(os.sep, "/"))
    return sorted(found)


def violations(root):
    """Every include that breaks the layering, one sentence each."""
    problems = []
    for path in sources(root):
        mine = layer_of(path)
        allowed = {mine} | set(LAYERS[mine][1])
        with open(os.path.join(root, path), encoding="utf-8") as f:
            text = f.read()
        for match in INCLUDE.finditer(text):
            name = match.group(1)
            line = text.count("\n", 0, match.start()) + 1
            target = resolve(root, path, name)
            if target is None:
                problems.append(f'{path}:{line}: #include "{name}" names no file of the source '
                                f"tree (looked in the file's directory, {', '.join(SEARCH)})")
                continue
            theirs = layer_of(target)
            if theirs is None or theirs not in allowed:
                below = ", ".join(LAYERS[mine][1]) or "nothing"
                problems.append(f'{path}:{line}: #include "{name}" ({target}) reaches layer '
                                f"{theirs or 'outside the layers'} from layer {mine}, which may "
                                f"use only itself and {below}")
    return problems


def self_test():
    """A small tree with one include of each kind: only the wrong ones must be reported."""
    files = {
        "core/runtime.hpp": "",
        "core/team/team.hpp": '#include "runtime.hpp"\n',
        "core/team/teams.cpp": '#include "team/team.hpp"\n#include "collectives/slot.hpp"\n',
        "core/ctx/contexts.cpp": '#include "api/export.hpp"\n',
        "atomics/amo.hpp": '#include "runtime.hpp"\n',
        "atomics/amo.cpp": '#include "amo.hpp"\n#include "collectives/slot.hpp"\n',
        "collectives/slot.hpp": '#include "team/team.hpp"\n',
        "collectives/barrier/tree.cpp": '#include "collectives/slot.hpp"\n'
                                        '#include "atomics/amo.hpp"\n',
        "api/export.hpp": "#include <shmem.h>\n",
        "api/rma.cpp": '#include "api/export.hpp"\n#include "atomics/amo.hpp"\n'
                       '#include "collectives/slot.hpp"\n#include "runtime.hpp"\n',
        "api/fortran/rma.cpp": '#include "api/export.hpp"\n#include "missing.hpp"\n',
    }
    expected = [
        ("atomics/amo.cpp:2", "layer collectives from layer atomics"),
        ("collectives/barrier/tree.cpp:2", "layer atomics from layer collectives"),
        ("core/ctx/contexts.cpp:1", "layer api from layer core"),
        ("core/team/teams.cpp:2", "layer collectives from layer core"),
        ("api/fortran/rma.cpp:2", "names no file"),
    ]
    with tempfile.TemporaryDirectory() as root:
        for path, text in files.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w", encoding="utf-8") as f:
                f.write(text)
        found = violations(root)
    failures = []
    for where, what in expected:
        if not any(p.startswith(where + ":") and what in p for p in found):
            failures.append(f"not caught: {where} ({what})")
    for p in found:
        if not any(p.startswith(where + ":") for where, _ in expected):
            failures.append(f"reported wrongly: {p}")
    for failure in failures:
        print(f"self-test: {failure}", file=sys.stderr)
    if not failures:
        print(f"self-test: all {len(expected)} wrong includes caught, none of the right ones reported")
    return 1 if failures else 0


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", default=ROOT, help="top of the source tree")
    parser.add_argument("--self-test", action="store_true", help="check the checker")
    args = parser.parse_args()
    if args.self_test:
        return self_test()
    problems = violations(args.root)
    for p in problems:
        print(p, file=sys.stderr)
    if problems:
        print(f"{len(problems)} include(s) against the layering (scripts/check_layers.py, "
              "docs/architecture.md)", file=sys.stderr)
        return 1
    print(f"{len(sources(args.root))} files of {len(LAYERS)} layers include only what lies below them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
