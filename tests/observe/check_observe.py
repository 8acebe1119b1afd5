#!/usr/bin/env python3
"""Runs the observation tests' programs through the launcher and checks what they report.

    check_observe.py profile LAUNCHER NP PROGRAM   profile_counts under SMA_PROFILE=json:PATH:
                                                   every count and byte total exact; then under
                                                   SMA_PROFILE=1 with SMA_HANG_TIMEOUT=2 (a job
                                                   that does not hang is left alone): the table
    check_observe.py hang LAUNCHER NP PROGRAM      hang under SMA_HANG_TIMEOUT=2: the job ends
                                                   with status 124 within 2 + 5 seconds of PE
                                                   0's wait, with one line per PE saying where
                                                   it is
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import threading
import time
import types

# What tests/observe/profile_counts.c does on every PE: family -> (calls, bytes).
EXPECTED = {
    "put": (8, 172),
    "get": (6, 80),
    "nbi": (4, 38),
    "amo": (9, 64),
    "signal": (2, 48),
    "wait": (1, 0),
    "quiet": (2, 0),
    "barrier": (4, 0),
    "broadcast": (2, 128),
    "reduce": (1, 64),
    "collect": (1, 16),
}
# Runs of algorithms per PE, summed over the labels of a family (which algorithm runs depends
# on the rules in force; how many ran does not).
EXPECTED_RUNS = {"barrier": 4, "broadcast": 2, "reduce": 1}
HANG_TIMEOUT = 2

failures = []


def check(cond, what):
    if not cond:
        failures.append(what)


def run(launcher, np, program, env_extra, limit):
    """Runs the job; returns its status and output (returncode, stdout, stderr), its time in
    seconds, and the time since the start at which each line of stderr arrived."""
    env = dict(os.environ)
    env.update(env_extra)
    start = time.monotonic()
    p = subprocess.Popen([launcher, "-np", str(np), program], env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, text=True)
    out, err_lines = [], []

    def read_stdout():
        out.append(p.stdout.read())

    def read_stderr():
        for line in p.stderr:
            err_lines.append((time.monotonic() - start, line))

    # Daemon threads: after a kill, PEs that outlive the launcher may hold the pipes open, and
    # the verdict must not wait for them.
    readers = [threading.Thread(target=f, daemon=True) for f in (read_stdout, read_stderr)]
    for r in readers:
        r.start()
    try:
        p.wait(timeout=limit)
    except subprocess.TimeoutExpired:
        p.kill()
        p.wait()
    elapsed = time.monotonic() - start
    for r in readers:
        r.join(timeout=10)
    p = types.SimpleNamespace(returncode=p.returncode, stdout="".join(out),
                              stderr="".join(line for _, line in list(err_lines)))
    if elapsed >= limit:
        print(p.stdout + p.stderr)
        sys.exit(f"FAIL: the job did not end within {limit} s")
    if p.returncode == 77 and "SKIPPED" in p.stdout:  # a launcher that cannot run here
        print(p.stdout, end="")
        sys.exit(77)
    print(f"--- {' '.join(f'{k}={v}' for k, v in env_extra.items())} {program} on {np} PEs: "
          f"status {p.returncode} after {elapsed:.1f} s")
    print(p.stdout, end="")
    print(p.stderr, end="")
    return p, elapsed, err_lines


def check_profile(launcher, np, program):
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "profile.json")
        p, _, _ = run(launcher, np, program, {"SMA_PROFILE": "json:" + path}, 60)
        check(p.returncode == 0, f"profile run ended with status {p.returncode}")
        check("shoal profile over" not in p.stderr, "json:PATH printed the table too")
        if not os.path.exists(path):
            failures.append(f"no JSON profile at {path}")
            return
        with open(path) as f:
            profile = json.load(f)
    print(json.dumps(profile))
    check(profile.get("pes") == np, f"pes is {profile.get('pes')}, not {np}")
    families = profile.get("families", {})
    check(set(families) == set(EXPECTED),
          f"families {sorted(families)} differ from {sorted(EXPECTED)}")
    for name, (calls, nbytes) in EXPECTED.items():
        fam = families.get(name)
        if fam is None:
            continue
        check(fam["calls"]["per_pe"] == [calls] * np,
              f"{name}: calls per PE {fam['calls']['per_pe']}, expected {calls} on each")
        check(fam["bytes"]["per_pe"] == [nbytes] * np,
              f"{name}: bytes per PE {fam['bytes']['per_pe']}, expected {nbytes} on each")
        for key in ("calls", "bytes", "ns"):
            s = fam[key]
            v = sorted(s["per_pe"])
            check(len(v) == np and s["min"] == v[0] and s["max"] == v[-1] and
                  s["median"] == v[(np - 1) // 2], f"{name}.{key}: min/median/max wrong: {s}")
        check(fam["ns"]["min"] > 0, f"{name}: no time inside the library on some PE")
    algorithms = profile.get("algorithms", {})
    for name, runs in EXPECTED_RUNS.items():
        labels = algorithms.get(name, {})
        total = [sum(labels[l]["per_pe"][pe] for l in labels) for pe in range(np)]
        check(total == [runs] * np, f"{name}: algorithm runs per PE {total}, expected {runs}")
        check(all(":" not in l for l in labels), f"{name}: unexpected labels {sorted(labels)}")
    collect = algorithms.get("collect", {})
    own = [l for l in collect if ":" not in l]
    counts = [l for l in collect if l.startswith("fcollect:")]
    check(len(own) == 1 and collect[own[0]]["per_pe"] == [1] * np,
          f"collect: its own algorithm should run once per PE: {collect}")
    check(len(counts) == 1 and collect[counts[0]]["per_pe"] == [1] * np,
          f"collect: the exchange of counts (an fcollect) should run once per PE: {collect}")
    check(set(algorithms) == {"barrier", "broadcast", "reduce", "collect"},
          f"algorithms of unexpected families: {sorted(algorithms)}")

    # The table, with the hang watchdog on too: a job that does not hang must pass untouched.
    p, _, _ = run(launcher, np, program,
               {"SMA_PROFILE": "1", "SMA_HANG_TIMEOUT": str(HANG_TIMEOUT)}, 60)
    check(p.returncode == 0, f"table run ended with status {p.returncode}")
    check("shoal: hang" not in p.stderr, "a hang was reported in a job that does not hang")
    check(f"shoal profile over {np} PEs" in p.stderr, "no profile table on stderr")
    for name, (calls, nbytes) in EXPECTED.items():
        row = re.compile(rf"^{name} +{calls} / {calls} / {calls} +{nbytes} / {nbytes} / {nbytes} ",
                         re.M)
        check(row.search(p.stderr), f"no table row for {name} with {calls} calls, {nbytes} bytes")
    check(p.stderr.count("shoal profile over") == 1, "the table was printed more than once")


def check_hang(launcher, np, program):
    limit = HANG_TIMEOUT + 5
    p, elapsed, err_lines = run(launcher, np, program, {"SMA_HANG_TIMEOUT": str(HANG_TIMEOUT)},
                                60)
    check(p.returncode == 124, f"the hung job ended with status {p.returncode}, not 124")
    # Timed from PE 0's entry into its wait (hang.c), so that the launch does not count.
    waiting = [t for t, line in err_lines if line.startswith("PE 0: waiting for a flag")]
    check(len(waiting) == 1, "PE 0 did not say once that it waits")
    if waiting:
        print(f"--- PE 0 began to wait {waiting[0]:.1f} s after the launch; the job ended "
              f"{elapsed - waiting[0]:.1f} s later")
        check(elapsed - waiting[0] <= limit,
              f"the hung job ended {elapsed - waiting[0]:.1f} s after PE 0 began to wait, "
              f"more than {limit}")
    err = p.stderr
    check("the hang was not reported" not in err, "a PE went past its hang")
    check(len(re.findall(r"has waited [0-9.]+ s inside", err)) == 1,
          "not exactly one hang report")
    lines = re.findall(r"^shoal: hang: (PE \d+: .*)$", err, re.M)
    check(len(lines) == np, f"{len(lines)} PE lines in the report, expected {np}")
    expect = {
        # The value it holds shows where the reporter maps PE 0's globals (one node, shared).
        0: r"PE 0: in shmem_long_wait_until for [0-9.]+ s, waiting for 0x[0-9a-f]+ == 1"
           r"(, which holds 0)?$",
        1: r"PE 1: computing, outside the library$",
    }
    for pe in range(2, np):
        expect[pe] = (rf"PE {pe}: in shmem_barrier_all for [0-9.]+ s, barrier on team world, "
                      r"collective call 1 on that team$")
    for pe, pattern in expect.items():
        check(any(re.match(pattern, l) for l in lines), f"no line matching {pattern!r}")
    check("ending the job with status 124" in err, "the report does not say how the job ends")


def main():
    if len(sys.argv) != 5 or sys.argv[1] not in ("profile", "hang"):
        sys.exit(__doc__)
    mode, launcher, np, program = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
    (check_profile if mode == "profile" else check_hang)(launcher, np, program)
    if failures:
        print("FAIL:\n  " + "\n  ".join(failures))
        sys.exit(1)
    print("PASS")


if __name__ == "__main__":
    main()
