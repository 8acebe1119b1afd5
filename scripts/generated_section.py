"""The part of a doc between two markers that a script generates from a .def table: reading it,
rewriting it, and reporting how it differs (check_env_doc.py, gen_coll_doc.py)."""
import difflib


def read(text, path, begin, end):
    """The generated lines between the markers (blank lines dropped)."""
    if begin not in text or end not in text:
        raise SystemExit(f"{path}: the markers are missing ({begin} ... {end})")
    body = text.split(begin, 1)[1].split(end, 1)[0]
    return [line for line in body.strip().splitlines() if line.strip()]


def write(path, text, begin, end, lines):
    """Rewrites the doc at path with `lines` between the markers."""
    head, rest = text.split(begin, 1)
    tail = rest.split(end, 1)[1]
    with open(path, "w", encoding="utf-8") as f:
        f.write(head + begin + "\n" + "\n".join(lines) + "\n" + end + tail)


def report(doc_path, def_path, problems, doc_lines, expected, script):
    """Prints the problems and the difference; returns the exit status."""
    print(f"{doc_path} and {def_path} disagree:")
    for p in problems:
        print("  - " + p)
    print("\n".join(difflib.unified_diff(doc_lines, expected, "doc", "expected", lineterm="")))
    print(f"({script} --write regenerates it)")
    return 1
