# SPDX-License-Identifier: ISC
"""Run one program and leave nothing of it behind (run by runner.py).

    python3 -I -S reap.py RESULT CWD STDOUT STDERR TIMEOUT UID GID ENV
        -- PROGRAM [ARG...]

The program gets standard input from /dev/null, STDOUT and STDERR as
files (not pipes: a child that outlives it would hold a pipe open), the
working directory CWD, exactly the environment ENV (JSON), a session of
its own (so no controlling terminal: /dev/tty gives ENXIO), and TIMEOUT
seconds; as UID:GID unless they are "-".

This process is a child subreaper (PR_SET_CHILD_SUBREAPER): whatever
the program starts and orphans, even in a session or group of its own,
is reparented here and not to init.  When the program has exited (or
timed out), every process below this one is killed, so each run's
leftovers are its own to count, whatever else runs beside it.  Killed
itself (SIGTERM, or its parent's death), it does the same first.

RESULT gets one JSON object: status, signal, timed_out, error, seconds,
leftovers (processes killed after the program ended).
"""
import ctypes
import json
import os
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1
PR_SET_CHILD_SUBREAPER = 36


def prctl(option, value):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.prctl(option, value, 0, 0, 0) != 0:
        raise OSError(ctypes.get_errno(), f"prctl({option})")


def descendants(me):
    """Every process below this one, by walking parent links in /proc."""
    parent = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                raw = f.read()
        except OSError:
            continue	# gone meanwhile
        # the name may hold spaces and parentheses: fields follow the last ')'
        parent[int(entry)] = int(raw[raw.rindex(b")") + 2:].split()[1])
    below = set()
    for pid in parent:
        chain, p = [], pid
        while p in parent and p not in below and p != me and p > 1:
            chain.append(p)
            p = parent[p]
        if p == me or p in below:
            below.update(chain)
    return below


def kill_below(me):
    """SIGKILL everything below us until nothing is left; the pids killed."""
    killed = set()
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        below = descendants(me)
        for pid in below:
            try:
                os.kill(pid, signal.SIGKILL)
                killed.add(pid)
            except ProcessLookupError:
                pass
        while True:	# reap what was reparented to us
            try:
                pid, _ = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
        if not below:
            break
        time.sleep(0.005)
    return killed


class Stop(Exception):
    pass


def stop(_signal, _frame):
    raise Stop


def main(argv):
    result_path, cwd, stdout, stderr, timeout, uid, gid, env = argv[:8]
    if argv[8] != "--":
        sys.exit("reap.py: usage: see its docstring")
    program = argv[9:]
    me = os.getpid()
    prctl(PR_SET_CHILD_SUBREAPER, 1)
    prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
    for s in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(s, stop)
    result = {"status": None, "signal": None, "timed_out": False,
              "error": None, "seconds": 0.0, "leftovers": 0}
    extra = {}
    if uid != "-":
        extra = dict(user=int(uid), group=int(gid), extra_groups=[])
    start = time.monotonic()
    proc = None
    try:
        with open(os.devnull, "rb") as null, open(stdout, "wb") as out, \
                open(stderr, "wb") as err:
            proc = subprocess.Popen(
                program, stdin=null, stdout=out, stderr=err, cwd=cwd,
                env=json.loads(env), start_new_session=True, close_fds=True,
                **extra)
        proc.wait(timeout=float(timeout))
    except subprocess.TimeoutExpired:
        result["timed_out"] = True
    except OSError as e:
        result["error"] = e.strerror or str(e)
    except Stop:
        result["error"] = "interrupted"
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        left = set()
        if proc is not None:
            # what is still there once the program is done, itself aside
            left = descendants(me)
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
        result["seconds"] = round(time.monotonic() - start, 3)
        left |= kill_below(me)
    if proc is not None:
        result["leftovers"] = len(left - {proc.pid})
        if not result["timed_out"] and result["error"] is None:
            if proc.returncode < 0:
                result["signal"] = -proc.returncode
            else:
                result["status"] = proc.returncode
    with open(result_path, "w", encoding="utf-8") as f:
        json.dump(result, f)


if __name__ == "__main__":
    main(sys.argv[1:])
