#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Inside a guest (init.sh runs it chrooted into the host's root under
an overlay): run each suite as tests/run-tests.sh runs it for `make
check` -- a Check program directly, its "RESULT N passed, N failed"
line counted; a CLI test with sh, its exit status one pass or one
failure -- from the top of the work tree, with B exported as make
exports it.  One suite at a time, so the matrix gets a cell per suite.

What it prints on the serial console, for boot.py and matrix.py:
    @@start SUITE
    @@na SUITE FEATURE        a line "n/a: FEATURE" the suite printed
    @@result SUITE PASSED FAILED SECONDS [why]
    @@end
Each suite's output goes to the console as it comes, between
"@@output SUITE" and "@@endoutput", so the log shows why a suite failed
and where one hung; Check programs run verbose (CK_VERBOSITY, one line
a test) for that reason.

audit_corpus.sh runs its quick set (TAME_CORPUS_QUICK=1, unless set):
the whole corpus takes 137 s on the host and would take hours here.

Check's timeouts are multiplied (CK_TIMEOUT_MULTIPLIER, 10 unless set):
TCG runs code 10 to 30 times slower than the host, and a test that
passes on the host must not fail on a timeout meant for it.  Each suite
also has a wall-clock limit of its own (--timeout), after which it is
killed, whole process group, and counted as one failure that says so."""

import argparse
import os
import re
import signal
import subprocess
import sys
import threading
import time

NA = re.compile(r"\bn/a: (.+?)\s*$")
RESULT = re.compile(r"^RESULT (\d+) passed, (\d+) failed$", re.M)


def say(line):
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def run(suite, timeout, path):
    """Run one suite (the program at path), its output echoed to the
    console as it comes (a suite that hangs shows where)."""
    cmd = ["sh", path] if path.endswith(".sh") else [path]
    start = time.monotonic()
    # Its own process group, so that a timeout kills it whole, but not
    # its own session: a session leader without a terminal takes the
    # first one it opens as its own, and port-stty.sh's pseudo-terminal,
    # closed at its end, then hung it up (status 129); make check never
    # runs a suite as a session leader.
    p = subprocess.Popen(cmd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
                         process_group=0)
    killed = []

    def bound():
        try:
            p.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            killed.append(1)
            os.killpg(p.pid, signal.SIGKILL)
    threading.Thread(target=bound, daemon=True).start()
    say("@@output " + suite)
    lines = []
    for raw in p.stdout:
        line = raw.decode(errors="replace")
        lines.append(line)
        sys.stdout.write(line if line.endswith("\n") else line + "\n")
        sys.stdout.flush()
    p.wait()
    say("@@endoutput")
    why = "killed after %d s" % timeout if killed else ""
    seconds = time.monotonic() - start
    out = "".join(lines)
    if why:
        passed, failed = 0, 1
    elif suite.endswith(".sh"):
        passed, failed = (1, 0) if p.returncode == 0 else (0, 1)
    else:
        m = RESULT.findall(out)
        if m:
            passed, failed = int(m[-1][0]), int(m[-1][1])
        else:
            passed, failed = 0, 1
            why = "ended without a result (status %d)" % p.returncode
    return passed, failed, seconds, why, out


def own_build(suite, named_in, b):
    if named_in and named_in != b and suite.startswith(named_in + "/"):
        return b + suite[len(named_in):]
    return suite


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--timeout", type=int, default=1200)
    # The suites are named as make names them on the host (build/tests/
    # t_api); a guest of another architecture runs its own build of
    # each ($B/tests/t_api, make cross-ARCH) under the same name, so
    # that the matrix has one row per suite.
    ap.add_argument("--named-in", default=None,
                    help="the host's build directory in the suites' names")
    ap.add_argument("suites", nargs="+")
    args = ap.parse_args()
    os.environ.setdefault("CK_TIMEOUT_MULTIPLIER", "10")
    os.environ.setdefault("B", "build")
    os.environ.setdefault("CK_VERBOSITY", "verbose")
    # the audit corpus's commands marked quick, not its hours under TCG
    os.environ.setdefault("TAME_CORPUS_QUICK", "1")
    for suite in args.suites:
        say("@@start " + suite)
        passed, failed, seconds, why, out = run(
            suite, args.timeout,
            own_build(suite, args.named_in, os.environ["B"]))
        for feature in sorted({m.group(1) for m in
                               map(NA.search, out.splitlines()) if m}):
            say("@@na %s %s" % (suite, feature))
        say("@@result %s %d %d %.0f %s" % (suite, passed, failed, seconds,
                                           why))
    say("@@end")


if __name__ == "__main__":
    main()
