#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The kernel matrix: read the guests' logs (build/kernels/NAME.log) and
print one row per suite, one column per kernel, each cell

    passed                      every test of the suite passed
    passed; n/a: FEATURE        ... and the suite said the kernel lacks FEATURE
    failed F of N               F tests failed (a CLI test is one test)
    no result: WHY              the guest ended or was killed before it
    not available               the kernel could not be fetched (why below)
    excluded: REASON            exclude.txt leaves it out, saying why

then each failure with its kernel, suite and the lines that say why
(a Check suite's failed tests, else the tail of its output), and each
suite's seconds in each guest (for planning CI: TCG times).
Also written to build/kernels/matrix.md.  The last line is the
project's "N passed, N failed", over suites x kernels: a passed cell
(n/a included) counts passed; failed, no result and not available
count failed; excluded cells count in neither and are listed above it.

usage: matrix.py NAME... -- SUITE..."""

import os
import re
import sys

import kernels as K

TAIL = 25


def read_excluded(share=None):
    """{suite: {arch: reason}}; arch None where a line names none (every
    kernel), else the one of its "arch=NAME" field.  A line with
    "share=NAME" counts only when that share is run (KERNEL_SHARE=ci:
    make check-kernels-ci), and says so in its reason."""
    share = os.environ.get("KERNEL_SHARE", "") if share is None else share
    out = {}
    for line in open(os.path.join(K.HERE, "exclude.txt")):
        line = line.split("#", 1)[0].strip()
        if line:
            suite, reason = line.split(None, 1)
            arch = None
            if reason.startswith("arch="):
                arch, reason = reason.split(None, 1)
                arch = arch[len("arch="):]
            if reason.startswith("share="):
                only, reason = reason.split(None, 1)
                if only[len("share="):] != share:
                    continue
                reason = "in %s's share: %s" % (share, reason)
            out.setdefault(suite, {})[arch] = reason
    return out


def excluded_for(excluded, suite, arch):
    """Why suite is not run on a kernel of arch, or None: a line for the
    arch says it more exactly than one for every kernel."""
    why = excluded.get(suite, {})
    return why.get(arch) or why.get(None)


def parse_log(path):
    """{suite: (passed, failed, seconds, why)}, n/a features, failure
    outputs, what tame-exec --check said, and how the guest ended."""
    res, na, outs, check, guest = {}, {}, {}, [], None
    cur = None
    if not os.path.exists(path):
        return res, na, outs, check, guest
    for line in open(path, errors="replace"):
        line = line.rstrip("\r\n")
        if cur is not None and "@@guest " not in line:	# cut short
            if line == "@@endoutput":
                cur = None
            else:
                outs[cur].append(line)
            continue
        if line.startswith("@@result "):
            w = line.split(None, 5)
            res[w[1]] = (int(w[2]), int(w[3]), int(w[4]),
                         w[5] if len(w) > 5 else "")
        elif line.startswith("@@na "):
            _, suite, feature = line.split(None, 2)
            na.setdefault(suite, []).append(feature)
        elif line.startswith("@@output "):
            cur = line.split(None, 1)[1]
            outs[cur] = []
        elif line.startswith("@@check "):
            check.append(line[len("@@check "):])
        elif "@@guest " in line:	# after a line qemu's end cut short
            w = line[line.index("@@guest "):].split(None, 3)
            guest = (int(w[2]), w[3])
    return res, na, outs, check, guest


def landlock(check):
    for l in check:
        if l.startswith("Landlock:"):
            return l.split(":", 2)[1].strip() if l.count(":") > 1 \
                else l[len("Landlock:"):].strip()
    return "?"


def main():
    argv = sys.argv[1:]
    sep = argv.index("--")
    names, suites = argv[:sep], argv[sep + 1:]
    chosen = K.select(K.read_list(), " ".join(names))
    excluded = read_excluded()
    passed = failed = skipped = 0
    head = ["suite"]
    info = []
    cols = []
    failures = []
    checks = []
    silent = set()
    for k in chosen:
        un = K.unavailable_path(k)
        if os.path.exists(un):
            cols.append(("unavailable", open(un).read().strip()))
            head.append(k.name)
            info.append("%s: not available: %s" % (k.name, cols[-1][1]))
            continue
        res, na, outs, check, guest = parse_log(K.log_path(k))
        cols.append(("log", (res, na, outs, guest)))
        checks.append((k.name, check))
        head.append(k.name)
        info.append("%s: %s (%s%s), Landlock %s, guest %s" % (
            k.name, k.package, k.version,
            ", booted with " + k.options if k.options else "",
            landlock(check),
            "%.1f minutes, %s" % (guest[0] / 60, guest[1]) if guest
            else "did not run"))
    rows = []
    for s in suites:
        row = [s]
        for k, (kind, data) in zip(chosen, cols):
            why = excluded_for(excluded, s, k.arch)
            if why:
                row.append("excluded: " + why)
                skipped += 1
                continue
            if kind == "unavailable":
                row.append("not available")
                failed += 1
                continue
            res, na, outs, guest = data
            if s not in res:
                why = ("guest %s" % guest[1]) if guest else "guest did not run"
                row.append("no result: " + why)
                failed += 1
                if k.name not in silent:	# the log's tail once a kernel
                    silent.add(k.name)
                    failures.append((k.name, s + " and after",
                                     "no result: " + why, tail_of_log(k)))
                continue
            p, f, sec, why = res[s]
            if f:
                cell = "failed %d of %d" % (f, p + f)
                if why:
                    cell += " (%s)" % why
                failed += 1
                failures.append((k.name, s, cell, why_lines(s, outs.get(s, []))))
            else:
                cell = "passed"
                passed += 1
            if s in na:
                cell += "; n/a: " + ", ".join(na[s])
            row.append(cell)
        rows.append(row)
    times = [[s] + [("%d" % data[0][s][2]) if kind == "log" and
                     s in data[0] else "-" for kind, data in cols]
             for s in suites if s not in excluded]
    text = render(head, rows, info, failures, skipped, times, checks)
    os.makedirs(K.build_dir(), exist_ok=True)
    with open(os.path.join(K.build_dir(), "matrix.md"), "w") as f:
        f.write(text + "\n%d passed, %d failed\n" % (passed, failed))
    print(text)
    print("%d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


CHECK_FAILURE = re.compile(r":[FE]:[^:]*:[^:]*:\d+: ")


def why_lines(suite, out):
    """The lines that say why: a Check suite's failed tests
    (file:line:F:case:test:i: message), a CLI test's own complaints
    ("NAME.sh: what differed"); else the tail of the output."""
    name = os.path.basename(suite) + ":"
    failed = [l for l in out if CHECK_FAILURE.search(l) or
              l.startswith(name)]
    return failed[:TAIL] if failed else out[-TAIL:]


def tail_of_log(k):
    try:
        lines = open(K.log_path(k), errors="replace").read().splitlines()
    except OSError:
        return []
    return lines[-TAIL:]


def table(head, rows):
    widths = [max(len(r[i]) for r in rows + [head]) for i in range(len(head))]
    line = lambda r: "| " + " | ".join(c.ljust(w) for c, w in
                                      zip(r, widths)) + " |"
    return [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"] \
        + [line(r) for r in rows]


def render(head, rows, info, failures, skipped, times, checks):
    out = ["# Kernel matrix", ""]
    out += ["- " + i for i in info] + [""]
    out += table(head, rows)
    out.append("")
    if skipped:
        out.append("%d cells excluded (exclude.txt; the reason is in each "
                   "cell)" % skipped)
    for name, suite, cell, tail in failures:
        out += ["", "## %s, %s: %s" % (name, suite, cell),
                "(why, or the last lines; all of it is in %s)"
                % os.path.relpath(os.path.join(K.build_dir(), name + ".log"),
                                  K.TOP), "", "```"] + tail + ["```"]
    for name, check in checks:
        out += ["", "What %s gives (tame-exec --check in the guest):" % name,
                ""] + ["    " + l for l in check]
    out += ["", "Seconds each suite took in each guest (TCG):", ""]
    out += table(["suite"] + head[1:], times)
    return "\n".join(out)


if __name__ == "__main__":
    sys.exit(main())
