#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Programs that pledge themselves: each ports/pledged/NAME/ holds a
recipe (NAME/recipe) and, where the program's build cannot turn its
sandbox on by itself, a small patch (NAME/NAME.patch, tmux's one line).
For each program this fetches the pinned Debian source package through
a private apt configuration (as ports/upstream does), and builds it
twice into $B/pledged/NAME/:

	untamed/	the source as Debian builds it: its sandbox off
	pledged/	its own sandbox turned on by its own mechanism,
			against libtame installed from this tree into
			$B/pledged/prefix (pkg-config libtame-pledge)

	pledged.py build NAME...	fetch and build
	pledged.py check NAME...	build, then the tests; ends with the
					line "N passed, N failed"
	pledged.py bench [NAME...]	print each program's bench row: NAME,
					its untamed and pledged commands,
					tab-separated
	pledged.py audit NAME...	tame-audit on the untamed build's
					suite: the flags and promises the
					program needed there, beside the
					author's, into NAME/audit.txt

The tests of one program: its own suite passes on both builds; the
pledged build's typical run under tame-audit --check shows its pledge()
calls and no violation; and the proof that the sandbox is live: with
hook.c preloaded, a call the program's last pledge() forbids, made in
its process right after that pledge(), kills it with the line naming
the promise."""

import configparser
import hashlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "ports", "upstream"))
import upstream as U  # noqa: E402  run, tail, Tally, Failed, fetch, deps
import workload as W  # noqa: E402

B = U.B
ROOT = os.path.join(B, "pledged")
PREFIX = os.path.join(ROOT, "prefix")	# make check-pledged installs it
HOOK = os.path.join(ROOT, "hook.so")	# and builds hook.c there
JOBS = U.JOBS
BUILDS = ("untamed", "pledged")


def names():
    return sorted(d for d in os.listdir(HERE)
                  if os.path.isfile(os.path.join(HERE, d, "recipe")))


class Recipe:
    """NAME/recipe: one [pledged] section (see README.md here).  It
    answers what workload.py asks of an upstream recipe."""

    def __init__(self, name):
        path = os.path.join(HERE, name, "recipe")
        cp = configparser.ConfigParser(interpolation=None)
        if not cp.read(path) or not cp.has_section("pledged"):
            raise U.Failed("%s: no [pledged] section" % path)
        self.name = name
        self.dir = os.path.join(HERE, name)
        self.sec = cp["pledged"]
        for key in ("source", "version", "program", "build", "test",
                    "workload", "promises", "hook"):
            if key not in self.sec:
                raise U.Failed("%s: no '%s ='" % (path, key))
        self.patch = os.path.join(self.dir, name + ".patch")
        self.work = os.path.join(ROOT, name)

    def get(self, key, default=""):
        return self.sec.get(key, default).strip()

    def tree(self, which):
        return os.path.join(self.work, which)

    def binary(self, which):
        return os.path.join(self.tree(which), self.get("program"))

    def key(self, which):
        keys = ["source", "version", "suite", "program",
                "build" if which == "pledged" else "untamed_build",
                "configure" if which == "pledged" else "untamed_configure"]
        text = "".join("%s=%s\n" % (k, self.get(k)) for k in keys)
        if which == "pledged" and os.path.exists(self.patch):
            text += open(self.patch).read()
        if which == "pledged":	# what pkg-config gives (the .pc changed)
            env = build_env(which)
            text += "".join("%s=%s\n" % (k, env[k]) for k in (
                "PLEDGE_CFLAGS", "PLEDGE_LIBS", "PLEDGE_LDFLAGS"))
        return hashlib.sha256(text.encode()).hexdigest()


# --- building ---------------------------------------------------------

def pkg_config(*args):
    env = dict(os.environ, PKG_CONFIG_PATH=os.path.join(PREFIX, "lib",
                                                        "pkgconfig"))
    r = subprocess.run(["pkg-config"] + list(args), env=env,
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       text=True)
    if r.returncode != 0:
        raise U.Failed("pkg-config %s: %s (is libtame installed in %s?)"
                       % (" ".join(args), r.stderr.strip(), PREFIX))
    return r.stdout.strip()


def build_env(which):
    """What a recipe's commands see: $JOBS; for the pledged build,
    libtame-pledge's flags from pkg-config ($PLEDGE_CFLAGS: -include of
    <tame/pledge.h> and -DHAVE_PLEDGE=1; $PLEDGE_LIBS: -ltame), and
    $PLEDGE_LDFLAGS, which find libtame.so where it was installed."""
    env = dict(os.environ, JOBS=JOBS)
    env["PKG_CONFIG_PATH"] = os.path.join(PREFIX, "lib", "pkgconfig")
    if which == "pledged":
        env["PLEDGE_CFLAGS"] = pkg_config("--cflags", "libtame-pledge")
        env["PLEDGE_LIBS"] = pkg_config("--libs", "libtame-pledge")
        env["PLEDGE_LDFLAGS"] = "-Wl,-rpath," + os.path.join(PREFIX, "lib")
    return env


def per_build(rc, key, which):
    """A command of the recipe for one build: untamed_KEY for the
    untamed one where given (signify's PLEDGE=noop), else KEY."""
    if which == "untamed" and rc.get("untamed_" + key):
        return rc.get("untamed_" + key)
    return rc.get(key)


def sandbox_linked(path):
    """Is the program's pledge() libtame's (pledge@LIBTAME_0.3)?"""
    r = subprocess.run(["objdump", "-T", path], stdout=subprocess.PIPE,
                       stderr=subprocess.DEVNULL, text=True)
    return re.search(r"LIBTAME_0\.3\)?\s+pledge\b", r.stdout) is not None


def build_one(rc, which):
    tree = rc.tree(which)
    stamp = os.path.join(rc.work, which + ".stamp")
    lib = os.path.join(PREFIX, "lib", "libtame.so")
    want = rc.key(which)
    have = open(stamp).read() if os.path.exists(stamp) else ""
    if have == want and os.path.exists(rc.binary(which)):
        return			# libtame.so is loaded at run time
    log = os.path.join(rc.work, which + ".log")
    open(log, "w").close()
    env = build_env(which)
    shutil.rmtree(tree, ignore_errors=True)
    if subprocess.run(["cp", "-a", "--reflink=auto", rc.tree("pristine"),
                       tree]).returncode != 0:
        raise U.Failed("%s %s: cannot copy the source" % (rc.name, which))
    if which == "pledged" and os.path.exists(rc.patch):
        if not U.run("patch -p1 --batch --forward < '%s'" % rc.patch, tree,
                     log):
            raise U.Failed("%s: the patch does not apply (%s)"
                           % (rc.name, log))
    configure = rc.get("configure" if which == "pledged"
                       else "untamed_configure")
    for step, cmd in (("configure", configure), ("build", per_build(
            rc, "build", which))):
        if cmd and not U.run(cmd, tree, log, env):
            raise U.Failed("%s %s: %s failed (%s)\n%s"
                           % (rc.name, which, step, log, U.tail(log)))
    if not os.path.exists(rc.binary(which)):
        raise U.Failed("%s %s: the build made no %s"
                       % (rc.name, which, rc.get("program")))
    linked = sandbox_linked(rc.binary(which))
    if which == "pledged" and not linked:
        raise U.Failed("%s: the pledged build's %s does not call libtame's "
                       "pledge() (objdump -T: no pledge@LIBTAME_0.3): its "
                       "build did not turn the sandbox on"
                       % (rc.name, rc.get("program")))
    if which == "untamed" and linked:
        raise U.Failed("%s: the untamed build links libtame" % rc.name)
    if not os.path.exists(lib):
        raise U.Failed("no %s: make check-pledged installs it" % lib)
    with open(stamp, "w") as f:
        f.write(want)


def build(rc):
    U.fetch(rc, ROOT)
    for which in BUILDS:
        build_one(rc, which)


# --- the tests --------------------------------------------------------

def suite_counts(rc, log):
    """The suite's own tally, by the recipe's count = REGEX (its first
    group), or ""."""
    pat = rc.get("count")
    if not pat:
        return ""
    found = re.findall(pat, open(log, errors="replace").read(), re.M)
    last = found[-1] if found else "?"
    if isinstance(last, tuple):
        last = " ".join(last)
    return " ".join(last.split())


def suite_output(rc, which, log):
    """A suite's output, as judge = output compares it: its temporary
    names, diff's times and the tree's own path left out."""
    text = open(log, errors="replace").read()
    text = text.replace(rc.tree(which), "TREE")
    text = re.sub(r"/tmp/tmp\.\w+", "TMP", text)
    return re.sub(r"^(---|\+\+\+) (\S+).*$", r"\1 \2", text, flags=re.M)


def test_suite(rc, tally):
    """Its own suite on the untamed build, then on the pledged one:
    every test the untamed build passes passes sandboxed.  Most suites
    fail on any failed test (their status is the judge); one that only
    prints its differences (judge = output: lowdown's) passes sandboxed
    when it prints what it printed untamed, and count_lines = REGEX
    counts its failures."""
    results = {}
    for which in BUILDS:
        log = os.path.join(rc.work, "suite-%s.log" % which)
        open(log, "w").close()
        ok = U.run(per_build(rc, "test", which), rc.tree(which), log,
                   build_env(which),
                   timeout=int(rc.get("test_timeout") or "1200"))
        count = suite_counts(rc, log)
        if rc.get("count_lines"):
            n = len(re.findall(rc.get("count_lines"),
                               open(log, errors="replace").read(), re.M))
            count = "%d %s" % (n, rc.get("count_what") or "failed")
        results[which] = (ok, count, log)
    ok_u, count_u, log_u = results["untamed"]
    ok_p, count_p, log_p = results["pledged"]
    if rc.get("judge") == "output":
        ok_u = True
        ok_p = suite_output(rc, "pledged", log_p) == \
            suite_output(rc, "untamed", log_u)
    tally.result("%s: its own suite, sandboxed (%s) as untamed (%s)" % (
        rc.name, count_p or ("passed" if ok_p else "failed"),
        count_u or ("passed" if ok_u else "failed")), ok_u and ok_p,
        "    untamed (%s)\n%s\n    pledged (%s)\n%s"
        % (log_u, U.tail(log_u), log_p, U.tail(log_p)))


class Run(W.Workload):
    """A typical run, whose arguments may name the build's own tree
    ({tree}: mandoc's manuals), after the recipe's setup = (a shell
    command in the run's directory, $UNTAMED the untamed program:
    signify's keys and signature)."""

    def fill(self, text):
        return super().fill(text).replace("{tree}",
                                          self.rc.tree(self.which))

    def __enter__(self):
        super().__enter__()
        setup = self.rc.get("setup")
        if setup and not U.run(setup, self.dir, os.path.join(
                self.dir, "setup.log"), dict(os.environ, UNTAMED=(
                    self.rc.binary("untamed")))):
            raise U.Failed("%s: setup failed (%s)" % (
                self.rc.name, os.path.join(self.dir, "setup.log")))
        return self


def test_check(rc, tally):
    """tame-audit --check on the pledged build's typical run: its
    pledge() calls are seen, and nothing after them is refused.  A
    promise the run did not need (status 4) is the author's choice,
    listed in the result, not a failure."""
    report = os.path.join(rc.work, "check.txt")
    if os.path.exists(report):
        os.unlink(report)
    with Run(rc, "pledged") as wl:
        r = wl.run([os.path.join(B, "tame-audit"), "--check", "-o", report,
                    "--"])
    text = open(report, errors="replace").read() if os.path.exists(
        report) else ""
    seen = re.findall(r'^    pledge\("([^"]*)"\) by pid', text, re.M)
    calls = re.search(r"(\d+) calls after pledge\(\)", text)
    unneeded = re.findall(r"^    (\S[^,]*), declared by pid", text, re.M)
    violations = re.search(r"^(\d+) violations?,", text, re.M)
    ok = r.returncode in (0, 4) and bool(seen) and violations is not None \
        and violations.group(1) == "0"
    detail = "%s; %s calls after; 0 violations%s" % (
        " / ".join('"%s"' % s for s in dict.fromkeys(seen)) or
        "no pledge() seen", calls.group(1) if calls else "?",
        "; not needed on this run: " + ", ".join(dict.fromkeys(unneeded))
        if unneeded else "")
    tally.result("%s: tame-audit --check on %s: %s" % (
        rc.name, wl.describe(), detail), ok,
        "    status %d\n%s\n%s" % (r.returncode, W.indent(text, 30),
                                  W.indent(r.stderr)))


def test_hook(rc, tally):
    """The sandbox is live: hook.c makes the call the recipe's word
    (hook =) allows right after the first pledge() without it; the
    program's own filter kills it with the line naming the promise."""
    word = rc.get("hook")
    key = "hook_workload" if rc.get("hook_workload") else "workload"
    with Run(rc, "pledged", dirname="run-hook", key=key) as wl:
        r = wl.run([], env={"LD_PRELOAD": HOOK, "PLEDGED_HOOK": word,
                            "PLEDGED_HOOK_AT": rc.get("hook_at")})
    want = "needs promise %s" % word
    ok = r.returncode == -signal.SIGSYS and want in r.stderr and \
        ": pledge: " in r.stderr
    line = [l for l in r.stderr.splitlines() if want in l]
    tally.result("%s: a call after its pledge() without %s dies: %s" % (
        rc.name, word, line[0].split(": ", 1)[-1] if line else
        "no line"), ok, "    status %d\n%s" % (r.returncode,
                                               W.indent(r.stderr)))


def test_extra(rc, tally):
    """A program's own further check (extra =, a shell command run in a
    fresh directory with $PLEDGED and $UNTAMED the two programs and
    $RECIPE its folder; extra_what = what it shows): tmux's pane."""
    d = os.path.join(rc.work, "run-extra")
    shutil.rmtree(d, ignore_errors=True)
    os.makedirs(d)
    log = os.path.join(rc.work, "extra.log")
    open(log, "w").close()
    env = dict(os.environ, PLEDGED=rc.binary("pledged"),
               UNTAMED=rc.binary("untamed"), RECIPE=rc.dir)
    ok = U.run(rc.get("extra"), d, log, env, timeout=300)
    tally.result("%s: %s" % (rc.name, rc.get("extra_what")), ok,
                 "    (%s)\n%s" % (log, U.tail(log)))


def bench_row(rc):
    """NAME<TAB>untamed<TAB>pledged commands on the recipe's real work
    (bench =, on bench_size = bytes of generated input, 100 MB by
    default; bench_shell = 1: a shell command, run through sh -c on
    both sides, {prog} the program where it is not first), or None
    where a build is missing."""
    if not all(os.path.exists(rc.binary(w)) for w in BUILDS):
        return None
    data = W.data_file(rc, int(rc.get("bench_size") or W.BENCH_SIZE))
    cmds = []
    for which in BUILDS:
        args = rc.get("bench").replace("{data}", shlex.quote(data)) \
            .replace("{tree}", shlex.quote(rc.tree(which)))
        if "{prog}" in args:	# a whole command, the program in it
            cmd = args.replace("{prog}", shlex.quote(rc.binary(which)))
        else:
            cmd = "%s %s" % (shlex.quote(rc.binary(which)), args)
        if rc.get("bench_shell") == "1":
            cmd = "sh -c %s" % shlex.quote(cmd)
        cmds.append(cmd)
    return "\t".join([rc.name] + cmds)


def audit(rc):
    """The author against the auditor: the untamed build's whole suite
    under tame-audit --profile; the program's own entry (its flags and
    promises over every run of it in the suite) beside the promises its
    author wrote, into NAME/audit.txt."""
    import json
    log = os.path.join(rc.work, "audit.log")
    report = os.path.join(rc.work, "suite-audit.json")
    prof = os.path.join(rc.work, "suite.profile")
    open(log, "w").close()
    for old in (report, prof):
        if os.path.exists(old):
            os.unlink(old)
    test = rc.get("test")
    if not U.run("%s --profile %s --json -o %s -- sh -ec %s" % (
            os.path.join(B, "tame-audit"), prof, report, shlex.quote(test)),
            rc.tree("untamed"), log, build_env("untamed"),
            timeout=int(rc.get("test_timeout") or "1200") * 3) or \
            not os.path.exists(report):
        raise U.Failed("%s: tame-audit on its suite failed (%s)\n%s"
                       % (rc.name, log, U.tail(log)))
    progs = json.load(open(report)).get("programs", [])
    own = os.path.realpath(rc.binary("untamed"))
    base = os.path.basename(own)
    mine = [p for p in progs if p["exe"] == own or (
        p["exe"].startswith(rc.tree("untamed") + "/") and
        os.path.basename(p["exe"]) in (base, "lt-" + base))]
    out = os.path.join(rc.dir, "audit.txt")
    with open(out, "w") as f:
        f.write("# Generated by pledged.py audit: do not edit.\n"
                "# tame-audit --profile over the untamed build's suite "
                "(%s) of %s %s\n" % (test, rc.get("source"),
                                     rc.get("version")))
        f.write("author:   %s\n" % rc.get("promises"))
        if not mine:
            f.write("auditor:  %s not run by its suite\n" % base)
        for p in mine:
            f.write("auditor:  %s, %d processes: %s; %s\n" % (
                os.path.basename(p["exe"]), p["processes"],
                "pledge(\"%s\")" % p["pledge"] if p.get("pledge") else
                "no pledge() either",
                "flags " + ",".join(p["flags"]) if p["tameable"] else
                "tame() cannot: " + "; ".join(
                    "%s %s" % (b["kind"], b["call"] or "")
                    for b in p["blockers"])))
    return out


def check(selected):
    tally = U.Tally("pledged")
    for name in selected:
        try:
            rc = Recipe(name)
            build(rc)
        except U.Failed as e:
            tally.result("%s: %s" % (name, e), False)
            continue
        try:
            test_suite(rc, tally)
            test_check(rc, tally)
            test_hook(rc, tally)
            if rc.get("extra"):
                test_extra(rc, tally)
        except U.Failed as e:
            tally.result("%s: %s" % (name, e), False)
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 0 if tally.failed == 0 else 1


def deps(selected):
    want = set()
    for name in selected:
        want.update(Recipe(name).get("packages").split())
    return U.install_packages(sorted(want), "pledged")


def main(argv):
    verbs = ("build", "check", "bench", "deps", "audit")
    if len(argv) < 2 or argv[1] not in verbs:
        print("usage: pledged.py %s [NAME ...]" % "|".join(verbs),
              file=sys.stderr)
        return 2
    selected = argv[2:] or names()
    for n in selected:
        if n not in names():
            print("pledged: no program %s (ports/pledged/%s/recipe)"
                  % (n, n), file=sys.stderr)
            return 2
    if argv[1] == "deps":
        return deps(selected)
    for need in (os.path.join(PREFIX, "lib", "libtame.so"), HOOK,
                 os.path.join(B, "tame-audit")):
        if argv[1] != "bench" and not os.path.exists(need):
            print("pledged: no %s: make check-pledged makes it" % need,
                  file=sys.stderr)
            return 1
    if argv[1] == "check":
        return check(selected)
    if argv[1] == "audit":
        status = 0
        for name in selected:
            try:
                rc = Recipe(name)
                build(rc)
                print("pledged: %s" % os.path.relpath(audit(rc), TOP))
            except U.Failed as e:
                print("pledged: %s" % e)
                status = 1
        return status
    if argv[1] == "bench":
        for name in selected:
            row = bench_row(Recipe(name))
            if row:
                print(row)
            else:
                print("bench: pledged %s not built (make check-pledged), "
                      "left out" % name, file=sys.stderr)
        return 0
    status = 0
    for name in selected:
        try:
            build(Recipe(name))
            print("pledged: %s built" % name)
        except U.Failed as e:
            print("pledged: %s" % e)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
