# SPDX-License-Identifier: ISC
"""One census item: a program with one argument, run bare twice, audited,
then run tamed under the audit's suggestion, and the outcome of it all.

Outcomes:
  reproduced      the tamed run gave the bare run's exit status and output
  killed          the tamed run died of a signal (SIGSYS: a violation)
  differs         the tamed run exited otherwise or wrote other output
  not tameable    tame-audit said the run cannot be tamed (its blockers);
                  where only a run can decide (a soft denial, a module
                  that did not load), tame-audit --verify is asked too,
                  and its suggestion run tamed against the reference
  audit error     tame-audit failed (or gave no usable report)
  skipped         the bare runs cannot be a reference: a timeout, a
                  signal, or two runs that disagree (time, pids, ...)
"""
import hashlib
import json
import os
import shutil
import time

from runner import signal_name

OUTCOMES = ["reproduced", "killed", "differs", "not tameable",
            "audit error", "skipped"]


class Config:
    """What every item shares: tools, environment, limits, the user."""

    def __init__(self, tame_audit, tame_exec, timeout, audit_timeout,
                 runner, uid=None, gid=None):
        self.tame_audit, self.tame_exec = tame_audit, tame_exec
        self.timeout, self.audit_timeout = timeout, audit_timeout
        self.runner, self.uid, self.gid = runner, uid, gid

    def environment(self, home):
        # the same for every run: nothing of the census's own environment
        return {
            "PATH": "/usr/local/bin:/usr/bin:/bin:/usr/local/sbin:"
                    "/usr/sbin:/sbin",
            "HOME": home,
            "LANG": "C.UTF-8",
            "TERM": "dumb",
        }


def _lines(data):
    return data.decode("utf-8", "replace").splitlines()


def _last_line(data):
    lines = [l for l in _lines(data) if l.strip()]
    return lines[-1][:300] if lines else ""


def first_difference(a, b):
    """(line number, line of a, line of b) where two outputs part."""
    la, lb = _lines(a), _lines(b)
    for i in range(max(len(la), len(lb))):
        x = la[i] if i < len(la) else "(end of output)"
        y = lb[i] if i < len(lb) else "(end of output)"
        if x != y:
            return {"line": i + 1, "bare": x[:200], "tamed": y[:200]}
    # same lines, other bytes (a final newline, \r)
    return {"line": len(la), "bare": "(bytes differ)", "tamed": ""}


def _summary(result, out, err):
    return {
        "status": result.status,
        "signal": signal_name(result.signal) if result.signal else None,
        "timed_out": result.timed_out,
        "error": result.error,
        "seconds": round(result.seconds, 3),
        "leftovers": result.leftovers,
        "stdout_bytes": len(out),
        "stdout_sha256": hashlib.sha256(out).hexdigest(),
        "stderr_last": _last_line(err),
    }


def _audit_error_line(err):
    """tame-audit's own complaint, not the command's stderr before it."""
    lines = [l for l in _lines(err) if l.strip()]
    own = [l for l in lines if l.startswith("tame-audit:")]
    return (own or lines or ["(no message)"])[0][:300]


def _remove(path):
    def writable(func, p, _exc):
        os.chmod(os.path.dirname(p), 0o700)
        if os.path.isdir(p) and not os.path.islink(p):
            os.chmod(p, 0o700)
        func(p)
    if os.path.lexists(path):
        shutil.rmtree(path, onerror=writable)


class Item:
    def __init__(self, program, arg, config, work, keep):
        self.program, self.arg, self.c = program, arg, config
        # where a defect's strace log and outputs are kept (a prefix)
        self.keep = keep
        # root-owned: the outputs, out of the program's reach
        self.work = work
        # the program's: its working directory (a fresh one each run,
        # always at the same path, which a --help may print) and the
        # audit's report and log
        self.own = os.path.join(work, "own")
        self.cwd = os.path.join(self.own, "cwd")
        self.files = os.path.join(work, "audit")

    def _fresh_dir(self, path, mode=0o755):
        _remove(path)
        os.makedirs(path, mode)
        os.chmod(path, mode)
        if self.c.uid is not None:
            os.chown(path, self.c.uid, self.c.gid)

    def _run(self, tag, argv, timeout):
        _remove(self.cwd)
        self._fresh_dir(self.cwd)
        out = os.path.join(self.work, tag + ".out")
        err = os.path.join(self.work, tag + ".err")
        result = self.c.runner.run(argv, self.cwd, self.c.environment(
            self.cwd), out, err, timeout)
        with open(out, "rb") as f:
            stdout = f.read()
        with open(err, "rb") as f:
            stderr = f.read()
        return result, stdout, stderr

    def run(self):
        start = time.monotonic()
        _remove(self.work)
        os.makedirs(self.work)
        self._fresh_dir(self.own)
        record = {"program": self.program.name, "path": self.program.path,
                  "arg": self.arg}
        try:
            self._stages(record)
        finally:
            record["seconds"] = round(time.monotonic() - start, 3)
            if record.get("outcome") in ("killed", "differs",
                                         "audit error") or \
                    record.get("verify", {}).get("outcome") in (
                        "killed", "differs"):
                self._keep_evidence()
            _remove(self.work)
        return record

    def _stages(self, r):
        argv = [self.program.path, self.arg]
        # a. the reference: two bare runs that agree
        bare = []
        for n in (1, 2):
            res, out, err = self._run(f"bare{n}", argv, self.c.timeout)
            bare.append((res, out, err))
            r.setdefault("bare", []).append(_summary(res, out, err))
            if res.error or res.timed_out or res.signal:
                return self._end(r, "skipped",
                                 f"bare run {n}: {res.describe()}")
        (b1, out1, err1), (b2, out2, _) = bare
        if b1.status != b2.status:
            return self._end(r, "skipped", "nondeterministic: the bare runs "
                             f"exit {b1.status} and {b2.status}")
        if out1 != out2:
            d = first_difference(out1, out2)
            return self._end(r, "skipped", "nondeterministic: the bare runs'"
                             f" output differs at line {d['line']}")

        # b. the audit
        flags, audit = self._audit(argv, "audit")
        r["audit"] = audit
        if flags is None:
            return self._end(r, "audit error", audit["error"])
        if not audit["tameable"]:
            kinds = sorted({b.get("kind", "?") for b in audit["blockers"]})
            # a second opinion where a run can decide (a module that did
            # not load, a soft denial): tame-audit --verify, then the
            # tamed run against the reference as for any suggestion
            if kinds and set(kinds) <= {"soft", "code"}:
                self._second_opinion(r, argv, b1, out1, err1)
            return self._end(r, "not tameable", ", ".join(kinds))

        # c. the tamed run against the reference
        outcome, why, r["tamed"] = self._tamed(argv, flags, b1, out1, err1,
                                               audit["load"])
        return self._end(r, outcome, why, flags)

    def _audit(self, argv, tag, verify=False):
        """tame-audit --json on argv: (flags, record), flags None on an
        error of the audit itself."""
        self._fresh_dir(self.files)
        report = os.path.join(self.files, "report.json")
        log = os.path.join(self.files, "strace.log")
        res, out, err = self._run(tag, [self.c.tame_audit, "--json"] + (
            ["--verify"] if verify else []) + [
            "-o", report, "--keep-log", log,
            "--timeout", str(self.c.audit_timeout), "--"] + argv,
            2 * self.c.audit_timeout + 30)
        audit = {"status": res.status, "seconds": round(res.seconds, 3),
                 "leftovers": res.leftovers}
        try:
            if res.status not in (0, 5):
                raise ValueError(res.describe())
            with open(report, encoding="utf-8") as f:
                j = json.load(f)
            # a run --timeout cut short decides nothing: an audit error
            if any(b.get("kind") == "timeout" for b in j["blockers"]):
                raise ValueError(f"did not finish within "
                                 f"{self.c.audit_timeout} s")
            # null when the run cannot be tamed (no suggestion)
            audit["flags"] = j["flags"] if j["flags"] is not None else []
            # modules loaded before tame() (tame-exec -l), with the flags
            audit["load"] = j.get("load") or []
            audit["tameable"] = j["tameable"] and res.status == 0
        except (OSError, ValueError, KeyError, TypeError) as e:
            audit["stderr_first"] = _audit_error_line(err)
            audit["error"] = f"{e}: {audit['stderr_first']}"
            return None, audit
        audit["blockers"] = j["blockers"]
        audit["unexpressible"] = [
            {"needs": u.get("needs"), "reason": u.get("reason"),
             "count": u.get("count"),
             "call": (u.get("first") or {}).get("call")}
            for u in j.get("unexpressible", [])]
        audit["warnings"] = j.get("warnings", [])
        # the kinds a run decided (tame-audit(1), HERMETIC RUNS)
        audit["decided"] = j.get("decided", [])
        audit["hermetic"] = j.get("hermetic")
        # the user's run against the audited one (HERMETIC RUNS)
        audit["reproduced"] = j.get("reproduced")
        return audit["flags"], audit

    def _second_opinion(self, r, argv, b1, out1, err1):
        flags, v = self._audit(argv, "verify", verify=True)
        r["verify"] = v
        if flags is None or not v["tameable"]:
            v["outcome"] = "audit error" if flags is None else "not tameable"
            return
        v["outcome"], v["reason"], v["tamed"] = self._tamed(
            argv, flags, b1, out1, err1, v["load"])

    def _tamed(self, argv, flags, b1, out1, err1, load=()):
        """Run argv under tame-exec -f flags -l each module of load:
        (outcome, why, record)."""
        res, out, err = self._run("tamed", [
            self.c.tame_exec, "-f", ",".join(flags)] +
            [a for m in load for a in ("-l", m)] + ["--"] + argv,
            self.c.timeout)
        t = _summary(res, out, err)
        if err != err1:
            t["stderr_difference"] = first_difference(err1, err)
        if res.error or res.timed_out:
            return "differs", "tamed run: " + res.describe(), t
        if res.signal:
            return "killed", f"{t['signal']}: {t['stderr_last']}", t
        if res.status != b1.status or out != out1:
            d = first_difference(out1, out) if out != out1 else None
            t["difference"] = d
            why = f"exit {b1.status} -> {res.status}"
            if d:
                why += f"; output line {d['line']}: {d['bare']!r} -> " \
                       f"{d['tamed']!r}"
            return "differs", why, t
        return "reproduced", "", t

    def _keep_evidence(self):
        for name in ("audit/strace.log", "audit/report.json", "bare1.out",
                     "bare1.err", "tamed.out", "tamed.err", "audit.err"):
            src = os.path.join(self.work, name)
            if os.path.isfile(src):
                shutil.copyfile(src, self.keep + "." + os.path.basename(name))

    def _end(self, r, outcome, reason, flags=None):
        r["outcome"], r["reason"] = outcome, reason
        if flags is not None:
            r["flags"] = flags
        return r
