# SPDX-License-Identifier: ISC
"""Running one program the census way: each run goes through reap.py,
a small process of its own that starts the program in a new session
with a fixed environment, /dev/null for input and a timeout, and, being
a child subreaper, kills everything the program left behind, even what
left its session.  The census itself is a subreaper too, the last net:
whatever a killed reap.py could not end comes to it and is killed at
the end (end_everything)."""
import json
import os
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass

import reap

HERE = os.path.dirname(os.path.abspath(__file__))


def become_subreaper():
    reap.prctl(reap.PR_SET_CHILD_SUBREAPER, 1)


def signal_name(number):
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


@dataclass
class Result:
    status: int = None		# exit status, if it exited
    signal: int = None		# the signal that killed it, if one did
    timed_out: bool = False
    error: str = None		# it could not be started, or was interrupted
    seconds: float = 0.0
    leftovers: int = 0		# processes killed after it ended

    def describe(self):
        if self.error:
            return f"could not start: {self.error}"
        if self.timed_out:
            return "timed out"
        if self.signal is not None:
            return f"killed by {signal_name(self.signal)}"
        return f"exit {self.status}"


class Runner:
    def __init__(self, user=None, group=None):
        self.user, self.group = user, group
        self.lock = threading.Lock()
        self.reapers = set()	# reap.py processes under way

    def run(self, argv, cwd, env, stdout, stderr, timeout):
        """Run argv to its end or its timeout; stdout and stderr are file
        names, written as the program's user cannot touch them."""
        result_file = stdout + ".result"
        ids = ("-", "-") if self.user is None else (str(self.user),
                                                    str(self.group))
        cmd = [sys.executable, "-I", "-S", os.path.join(HERE, "reap.py"),
               result_file, cwd, stdout, stderr, str(timeout), *ids,
               json.dumps(env), "--"] + argv
        with self.lock:
            proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL)
            self.reapers.add(proc)
        try:
            # reap.py keeps the time; this only guards against reap.py
            proc.wait(timeout=timeout + 60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        finally:
            with self.lock:
                self.reapers.discard(proc)
        try:
            with open(result_file, encoding="utf-8") as f:
                return Result(**json.load(f))
        except (OSError, ValueError):
            return Result(error=f"reap.py ended with status {proc.returncode}")

    def end_everything(self):
        """On interruption: each reap.py ends its program; then whatever
        is left below the census is killed."""
        with self.lock:
            running = list(self.reapers)
        for proc in running:
            proc.terminate()
        deadline = time.monotonic() + 15
        for proc in running:
            try:
                proc.wait(timeout=max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
        self.sweep()

    def sweep(self):
        """Kill every process still below the census, once no run is
        under way (each reap.py has ended its own by then)."""
        me = os.getpid()
        for _ in range(100):
            left = reap.descendants(me)
            if not left:
                return
            for pid in left:
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
            for pid in left:	# orphans reparented to us
                try:
                    os.waitpid(pid, os.WNOHANG)
                except ChildProcessError:
                    pass
            time.sleep(0.01)
