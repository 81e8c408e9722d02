#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""make census: audit, then run tamed, every program of a directory
(/usr/bin by default) with --version and with --help, and check that
tame-audit never gives a confident wrong answer: wherever it suggests
flags, tame-exec -f with them reproduces the bare run.

    census.py [-j N] [-d DIR] [-o OUTDIR] [-w WORKDIR] [--fresh]
              [--only NAME ...] [--timeout S] [--audit-timeout S]

Each (program, argument) is one JSON file in WORKDIR/results/, so an
interrupted census resumes where it stopped (--fresh starts over); a
result is reused only while the program's path and the tools are the
same.  The report is OUTDIR/census.md, census.svg and census.json.
As root, every program (bare, audited and tamed) runs as nobody:nogroup.
"""
import argparse
import concurrent.futures
import grp
import hashlib
import json
import os
import platform
import pwd
import resource
import shutil
import signal
import subprocess
import sys
import time

# the census writes nothing beside its sources (no __pycache__)
sys.dont_write_bytecode = True
import programs  # noqa: E402
import report  # noqa: E402
from item import Config, Item  # noqa: E402
from runner import Runner, become_subreaper  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
ARGS = ("--version", "--help")


def die(message, status=1):
    print(f"census: {message}", file=sys.stderr)
    sys.exit(status)


def parse_options(argv):
    build = os.path.join(ROOT, os.environ.get("B") or "build")
    p = argparse.ArgumentParser(
        prog="census", description="Audit and run tamed every program of "
        "a directory with --version and --help; report where tame-audit's "
        "suggestion does not reproduce the bare run.")
    p.add_argument("-j", "--jobs", type=int, default=os.cpu_count() or 1,
                   help="items run at once (default: the number of CPUs)")
    p.add_argument("-d", "--dir", default=os.environ.get("CENSUS_DIR")
                   or "/usr/bin", help="the programs (default: $CENSUS_DIR "
                   "or /usr/bin)")
    p.add_argument("-o", "--output", default=os.path.join(ROOT, "reports"),
                   help="where census.md, .svg and .json go (default: "
                   "reports/)")
    p.add_argument("-w", "--work", default=os.path.join(build, "census"),
                   help="results and scratch directories, for resuming "
                   "(default: build/census/)")
    p.add_argument("--tools", default=build,
                   help="where tame-audit and tame-exec are (default: build/)")
    p.add_argument("--skip-list", default=os.path.join(HERE, "skip.txt"),
                   help="programs never run (default: census/skip.txt)")
    p.add_argument("--fresh", action="store_true",
                   help="forget earlier results and start over")
    p.add_argument("--only", nargs="+", metavar="NAME",
                   help="run only these programs of the directory")
    p.add_argument("--timeout", type=float, default=10, metavar="S",
                   help="seconds for a bare or tamed run (default 10)")
    p.add_argument("--audit-timeout", type=int, default=30, metavar="S",
                   help="seconds for tame-audit's run (default 30)")
    p.add_argument("--user", default="nobody",
                   help="as root, run the programs as this user (default "
                   "nobody, group nogroup)")
    o = p.parse_args(argv)
    # the programs run elsewhere: every path they are given is absolute
    o.dir, o.output, o.work = (os.path.abspath(x) for x in
                               (o.dir, o.output, o.work))
    if o.jobs < 1:
        p.error("-j: at least 1")
    if o.timeout <= 0 or o.audit_timeout <= 0:
        p.error("timeouts must be positive")
    return o


def run_as(o):
    """(uid, gid) to run programs as, or (None, None) to run as ourselves."""
    if os.geteuid() != 0:
        return None, None
    try:
        user = pwd.getpwnam(o.user)
    except KeyError:
        die(f"{o.user}: no such user")
    try:
        gid = grp.getgrnam("nogroup").gr_gid if o.user == "nobody" \
            else user.pw_gid
    except KeyError:
        gid = user.pw_gid
    return user.pw_uid, gid


def check_reachable(path, uid, gid):
    """The unprivileged user must reach the scratch directories."""
    if uid is None:
        return
    p = os.path.abspath(path)
    while True:
        st = os.stat(p)
        if not (st.st_mode & 0o001 or (st.st_uid == uid and st.st_mode
                                       & 0o100) or (st.st_gid == gid and
                                                    st.st_mode & 0o010)):
            die(f"{p}: not searchable by uid {uid}, which runs the "
                "programs: choose another -w")
        if p == "/":
            return
        p = os.path.dirname(p)


def tools_key(paths):
    """Results are reused only with the same tools, byte for byte."""
    h = hashlib.sha256()
    for path in paths:
        with open(path, "rb") as f:
            h.update(hashlib.sha256(f.read()).digest())
    return h.hexdigest()[:16]


def result_name(program, arg):
    return f"{program.name}.{arg.lstrip('-')}"


def progress(n, total, r):
    flags = f" ({','.join(r['flags'])})" if r.get("flags") else ""
    why = f": {r['reason']}" if r["reason"] and r["outcome"] != \
        "reproduced" else ""
    print(f"[{n}/{total}] {r['program']} {r['arg']}: {r['outcome']}"
          f"{flags}{why}", file=sys.stderr, flush=True)


def interrupted(_signal, _frame):
    raise KeyboardInterrupt


def tmp_entries():
    try:
        return set(os.listdir("/tmp"))
    except OSError:
        return set()


def left_in_tmp(before, uid, remove):
    """What appeared in /tmp during the census, owned by the user the
    programs ran as (the census itself writes nothing there; Java makes
    /tmp/hsperfdata_USER whatever TMPDIR says).  Removed when the
    programs ran as the unprivileged user (nobody): new entries of that
    user are taken to be theirs."""
    new = []
    for name in sorted(tmp_entries() - before):
        path = os.path.join("/tmp", name)
        try:
            if os.lstat(path).st_uid != uid:
                continue
        except OSError:
            continue
        new.append(name)
        if remove:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                os.unlink(path)
    return new


def main(argv):
    o = parse_options(argv)
    directory = o.dir
    if not os.path.exists(directory):
        die(f"{directory}: No such file or directory")
    if not os.path.isdir(directory):
        die(f"{directory}: Not a directory")
    tame_audit = os.path.join(os.path.abspath(o.tools), "tame-audit")
    tame_exec = os.path.join(os.path.abspath(o.tools), "tame-exec")
    preload = os.path.join(os.path.abspath(o.tools), "libtame-preload.so")
    for tool in (tame_audit, tame_exec, preload):
        if not os.path.isfile(tool):
            die(f"{tool}: No such file or directory (make first)")
    try:
        skip = programs.read_skip_list(o.skip_list)
    except (OSError, ValueError) as e:
        die(str(e))
    if o.only:
        missing = [n for n in o.only if not os.path.lexists(
            os.path.join(directory, n))]
        if missing:
            die(f"{missing[0]}: not in {directory}")

    uid, gid = run_as(o)
    results = os.path.join(o.work, "results")
    scratch = os.path.join(o.work, "scratch")
    if o.fresh:
        shutil.rmtree(results, ignore_errors=True)
    shutil.rmtree(scratch, ignore_errors=True)
    os.makedirs(results, exist_ok=True)
    os.makedirs(scratch, exist_ok=True)
    check_reachable(scratch, uid, gid)
    os.makedirs(o.output, exist_ok=True)

    # No core files anywhere (SIGSYS dumps core where the limit allows),
    # and no program fills the disk; the children inherit both limits.
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    fsize = 256 << 20
    resource.setrlimit(resource.RLIMIT_FSIZE, (fsize, fsize))
    become_subreaper()
    runner = Runner(uid, gid)
    config = Config(tame_audit, tame_exec, o.timeout, o.audit_timeout,
                    runner, uid, gid)
    key = tools_key([tame_audit, tame_exec, preload])

    progs, ineligible, skipped, aliases = programs.survey(
        directory, skip, set(o.only) if o.only else None)
    items = [(p, a) for p in progs for a in ARGS]
    done, todo = {}, []
    for p, a in items:
        path = os.path.join(results, result_name(p, a) + ".json")
        try:
            with open(path, encoding="utf-8") as f:
                r = json.load(f)
            if r.get("path") == p.path and r.get("tools") == key:
                done[(p.name, a)] = r
                continue
        except (OSError, ValueError):
            pass
        todo.append((p, a))
    if done:
        print(f"census: {len(done)} of {len(items)} items done earlier "
              f"({results}); running {len(todo)}", file=sys.stderr)

    # SIGTERM ends the census as ^C does: nothing it started survives
    signal.signal(signal.SIGTERM, interrupted)
    tmp_before = tmp_entries()
    start = time.monotonic()
    n = len(done)

    stopping = []	# set once interrupted: half-run items are not kept

    def one(p, a):
        name = result_name(p, a)
        r = Item(p, a, config, os.path.join(scratch, name),
                 os.path.join(results, name)).run()
        r["tools"] = key
        if stopping:
            return r
        with open(os.path.join(results, name + ".json.new"), "w",
                  encoding="utf-8") as f:
            json.dump(r, f, indent=1)
        os.replace(os.path.join(results, name + ".json.new"),
                   os.path.join(results, name + ".json"))
        return r

    pool = concurrent.futures.ThreadPoolExecutor(o.jobs)
    try:
        futures = [pool.submit(one, p, a) for p, a in todo]
        for future in concurrent.futures.as_completed(futures):
            r = future.result()
            done[(r["program"], r["arg"])] = r
            n += 1
            progress(n, len(items), r)
    except BaseException as e:
        # ^C, SIGTERM or a bug: end every run before going
        stopping.append(True)
        pool.shutdown(wait=False, cancel_futures=True)
        runner.end_everything()
        pool.shutdown(wait=True)
        runner.end_everything()
        shutil.rmtree(scratch, ignore_errors=True)
        if not isinstance(e, KeyboardInterrupt):
            raise
        die(f"interrupted; {n} of {len(items)} items done, kept in "
            f"{results}", 130)
    pool.shutdown()
    runner.sweep()
    shutil.rmtree(scratch, ignore_errors=True)
    wall = time.monotonic() - start

    # the wall time of every invocation that made these results
    history_file = os.path.join(o.work, "history.json")
    try:
        with open(history_file, encoding="utf-8") as f:
            history = [] if o.fresh else json.load(f)
    except (OSError, ValueError):
        history = []
    history.append({"date": time.strftime("%Y-%m-%d %H:%M:%S"),
                    "seconds": round(wall, 1), "items": len(todo),
                    "jobs": o.jobs})
    with open(history_file, "w", encoding="utf-8") as f:
        json.dump(history, f, indent=1)

    audit_version = subprocess.run(
        [tame_audit, "-V"], capture_output=True, text=True).stdout.strip()
    census = {
        "date": time.strftime("%Y-%m-%d %H:%M:%S %Z"),
        "kernel": platform.release(),
        "machine": platform.machine(),
        "tame_audit": audit_version,
        "tools": key,
        "directory": os.path.abspath(directory),
        "only": o.only,
        "run_as": None if uid is None else f"{o.user} (uid {uid}, gid {gid})",
        "jobs": o.jobs,
        "timeout": o.timeout,
        "audit_timeout": o.audit_timeout,
        "wall_seconds": round(wall, 1),
        "items_run_now": len(todo),
        "history": history,
        "item_seconds": round(sum(r.get("seconds", 0)
                                  for r in done.values()), 1),
        "skip_list": {"file": os.path.relpath(o.skip_list, ROOT),
                      "entries": len(skip)},
        "programs": [p.name for p in progs],
        "aliases": aliases,
        "ineligible": [{"name": n_, "reason": why} for n_, why in ineligible],
        "skipped_by_list": [{"name": n_, "reason": why}
                            for n_, why in skipped],
        "left_in_tmp": left_in_tmp(tmp_before, os.geteuid() if uid is None
                                   else uid, remove=uid is not None),
        "tmp_removed": uid is not None,
        "results": [done[(p.name, a)] for p, a in items],
    }
    report.write(census, o.output, HERE, o.work)
    print(f"census: {len(items)} items of {len(progs)} programs in "
          f"{wall:.0f} s; report in {os.path.join(o.output, 'census.md')}",
          file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
