#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The tree corpus: tame-audit --profile and tame-exec --profile on
command lines that are process trees (pipelines, xargs, find -exec, make,
env/nice/timeout, #! scripts, a shim script that execs the real program,
nested shells, a program that forks workers of its own image).

For each command line, every run starting from a fresh copy of the same
files (outside /tmp, or every file made would look like tmppath's):

  1. bare: its output, exit status and the files it leaves;
  2. tame-audit --profile P -- sh -c LINE writes P;
  3. tame-exec --profile P -- sh -c LINE must reproduce the bare run;
  4. for each program P lists with flags beyond stdio, that program's
     line without one of them (each in turn) must break the run: a
     violation, or another output, status or set of files.

Prints one line per command line and per dropped flag, then the closing
line "N passed, N failed"; exit status 0 when none failed."""

import hashlib
import os
import shutil
import subprocess
import sys
import tempfile

TOP = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))
B = os.environ.get("B", "build")
B = B if os.path.isabs(B) else os.path.join(TOP, B)
AUDIT = os.path.join(B, "tame-audit")
TEXEC = os.path.join(B, "tame-exec")
WORKERS = os.path.join(B, "tests", "tools", "workers")
# Debian's programs, not a user's shims
ENV = {"PATH": "/usr/bin:/bin", "LC_ALL": "C", "HOME": "/nonexistent",
       "TZ": "UTC"}
STDIO = {"malloc", "rw", "stdio"}

# (name, command line): run by sh -c in the work directory.
CORPUS = [
    ("pipeline", "sort in.txt | uniq -c"),
    ("pipeline3", "cat in.txt | tr a-z A-Z | sort -r"),
    ("pipe-head-tail", "head -n 4 in.txt | tail -n 2"),
    ("pipe-cut", "cut -d, -f2 data.csv | sort -n | uniq"),
    ("pipe-base64", "base64 in.txt | base64 -d"),
    ("pipe-gzip", "gzip -c in.txt | gzip -dc | wc -l"),
    ("pipe-tee", "tee copy.txt < in.txt | wc -c"),
    ("printf-sort", "printf 'b\\na\\nc\\n' | sort"),
    ("redirect", "sed 's/one/ONE/' in.txt > out.txt; cat out.txt"),
    ("xargs", "xargs -n 1 echo < list.txt"),
    ("xargs-wc", "xargs wc -l < list.txt"),
    ("xargs-cp", "xargs -I{} cp {} {}.bak < list.txt; ls"),
    ("find-exec", "find . -name '*.txt' -exec wc -c {} + | sort"),
    ("find-xargs", "find . -name 'a*.txt' -print0 | sort -z | "
     "xargs -0 sha256sum"),
    ("make", "make -s -f build.mk"),
    ("env", "env LC_ALL=C sort other.txt"),
    ("env-cleared", "env -i /usr/bin/sort other.txt"),
    ("nice", "nice -n 5 sort in.txt"),
    ("timeout", "timeout 60 sort -r in.txt"),
    ("script", "./script.sh"),
    ("shim", "./shim-sort other.txt"),
    ("nested", "sh -c 'sh -c \"sort in.txt\" | head -n 1'"),
    ("for-loop", "for f in a.txt b.txt; do wc -l $f; done"),
    ("subshell", "(cat a.txt; cat b.txt) | sort | uniq -d"),
    ("workers", WORKERS + " 3 in.txt"),
    ("cp-cat", "cp a.txt c.txt && cat c.txt"),
    ("mkdir-touch", "mkdir d && touch d/x && ls d"),
    ("rm", "rm b.txt; ls"),
    ("mv", "mv a.txt moved.txt && cat moved.txt"),
    ("comm", "comm -12 a.txt b.txt"),
    ("join", "join a.txt b.txt"),
    ("paste", "paste -d: a.txt b.txt"),
    ("od", "od -c a.txt | head -n 2"),
    ("awk", "awk '{print $1}' in.txt | sort"),
    ("date", "date -u -d @0 +%Y"),
    ("sha", "sha256sum a.txt b.txt | cut -c1-16"),
    ("wc-stdin", "wc -l < in.txt"),
    ("grep", "grep -c o in.txt | xargs echo count"),
]


def fixture(d):
    files = {
        "in.txt": "one\ntwo\nthree\nfour\nfive\nthree\n",
        "other.txt": "pear\napple\nfig\n",
        "a.txt": "apple 1\nfig 2\nkiwi 3\n",
        "b.txt": "fig 9\nkiwi 8\nplum 7\n",
        "data.csv": "x,3\ny,1\nz,3\nw,2\n",
        "list.txt": "a.txt\nb.txt\n",
        "build.mk": "all: out.txt\n\tcat out.txt\nout.txt: in.txt\n"
                    "\tsort in.txt > out.txt\n",
        "script.sh": "#!/bin/sh\nsed -n 2p in.txt\nsort other.txt | "
                     "head -n 1\n",
        "shim-sort": "#!/bin/sh\nexec sort \"$@\"\n",
    }
    for name, text in files.items():
        with open(os.path.join(d, name), "w") as f:
            f.write(text)
    for name in ("script.sh", "shim-sort"):
        os.chmod(os.path.join(d, name), 0o755)


def snapshot(d):
    """The files a run left: names and contents."""
    out = {}
    for root, dirs, files in os.walk(d):
        for n in sorted(dirs + files):
            p = os.path.join(root, n)
            rel = os.path.relpath(p, d)
            if os.path.isdir(p) and not os.path.islink(p):
                out[rel] = "dir"
            else:
                with open(p, "rb") as f:
                    out[rel] = hashlib.sha256(f.read()).hexdigest()
    return out


class Work:
    """A fresh copy of the fixture for one run, under base."""

    def __init__(self, base, template):
        self.dir = tempfile.mkdtemp(dir=base)
        shutil.rmtree(self.dir)
        shutil.copytree(template, self.dir, symlinks=True)

    def run(self, argv, timeout=120):
        p = subprocess.run(argv, cwd=self.dir, env=ENV, timeout=timeout,
                           stdin=subprocess.DEVNULL, capture_output=True)
        return p.returncode, p.stdout, p.stderr.decode(errors="replace"), \
            snapshot(self.dir)

    def remove(self):
        shutil.rmtree(self.dir, ignore_errors=True)


def read_profile(path):
    """{program: [flags]} from a profile's lines (comments aside)."""
    entries = {}
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if len(line) == 2:
                entries[line[0]] = line[1].split(",")
    return entries


def write_profile(path, entries):
    with open(path, "w") as f:
        for prog, flags in entries.items():
            f.write("%s %s\n" % (prog, ",".join(flags)))


def same(a, b):
    return a[0] == b[0] and a[1] == b[1] and a[3] == b[3]


def differs(a, b):
    what = []
    if a[0] != b[0]:
        what.append("status %d, not %d" % (b[0], a[0]))
    if a[1] != b[1]:
        what.append("output %r, not %r" % (b[1][:60], a[1][:60]))
    if a[3] != b[3]:
        what.append("files differ")
    return "; ".join(what)


def main():
    quick = os.environ.get("TREES_QUICK") == "1"
    base = tempfile.mkdtemp(prefix="tame-trees.", dir="/var/tmp")
    template = os.path.join(base, "template")
    os.mkdir(template)
    fixture(template)
    passed = failed = 0
    summary = {"lines": 0, "programs": 0, "listed": 0, "drops": 0}
    try:
        for name, line in CORPUS[:8] if quick else CORPUS:
            sh = ["/bin/sh", "-c", line]
            w = Work(base, template)
            bare = w.run(sh)
            w.remove()
            prof = os.path.join(base, name + ".profile")
            w = Work(base, template)
            r = w.run([AUDIT, "--profile", prof, "-o",
                       os.path.join(base, name + ".report"), "--"] + sh)
            w.remove()
            if r[0] != 0 or not os.path.exists(prof):
                print("FAIL: %s: tame-audit --profile: status %d: %s"
                      % (name, r[0], r[2][-400:]))
                failed += 1
                continue
            entries = read_profile(prof)
            summary["lines"] += 1
            summary["listed"] += len(entries)
            w = Work(base, template)
            tamed = w.run([TEXEC, "--profile", prof, "--"] + sh)
            w.remove()
            if not same(bare, tamed):
                print("FAIL: %s: under its profile: %s\n%s"
                      % (name, differs(bare, tamed), tamed[2][-400:]))
                failed += 1
                continue
            print("ok: %s: %s (%s)" % (name, line, ", ".join(
                "%s %s" % (os.path.basename(p), ",".join(f))
                for p, f in sorted(entries.items())) or "nothing listed"))
            passed += 1
            for prog, flags in sorted(entries.items()):
                for drop in flags:
                    if drop in STDIO:
                        continue
                    less = dict(entries)
                    less[prog] = [f for f in flags if f != drop] or \
                        ["stdio"]
                    write_profile(prof + ".less", less)
                    w = Work(base, template)
                    r = w.run([TEXEC, "--profile", prof + ".less", "--"] +
                              sh)
                    w.remove()
                    summary["drops"] += 1
                    broke = ": tame: " in r[2] or not same(bare, r)
                    print("%s: %s: %s without %s %s" % (
                        "ok" if broke else "FAIL", name,
                        os.path.basename(prog), drop,
                        "breaks the run" if broke else
                        "still runs the same: the profile is not minimal"))
                    passed += broke
                    failed += not broke
    finally:
        shutil.rmtree(base, ignore_errors=True)
    print("trees: %d command lines, %d programs listed, %d flags dropped"
          % (summary["lines"], summary["listed"], summary["drops"]))
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
