#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Real upstream programs, tamed: each ports/upstream/NAME/ holds a recipe
(NAME/recipe), our patch (NAME/NAME.patch) and the auditor's report that
placed it (NAME/audit.txt).  For each program this fetches the pinned
Debian source package with `apt-get source` through a private apt
configuration in $B/upstream/apt/ (a deb-src entry for the machine's own
archive and release suite, derived from /etc/apt, which is never
touched), unpacks it with Debian's own patches, and builds it four ways
into $B/upstream/NAME/:

	untamed/	the source as Debian ships it: the baseline
	tamed/		with our patch, linked with libtame.a from this tree
	hook/		tamed/ again with -DTAME_TEST_HOOK: one forbidden call
			after the last tame(), for the tests, never installed
	floor/		tamed/ with tame() a one-instruction allow filter
			(bench/floor.c), the benchmarks' floor

	upstream.py build NAME...	fetch and build
	upstream.py check NAME...	build, then the tests; ends with the
					line "N passed, N failed"
	upstream.py audit NAME...	regenerate NAME/audit.txt (tame-audit
					--where on the untamed build)
	upstream.py bench [NAME...]	print each built program's bench
					row: NAME, its untamed, tamed and
					floor commands, tab-separated
	upstream.py serve PORTFILE	serve the bench's inputs over HTTP
					on loopback (wget's row), its port
					written to PORTFILE

A source package that cannot be had, or a build that fails, says so in
one line and fails that program's entries; the others go on."""

import configparser
import hashlib
import os
import shlex
import shutil
import signal
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(TOP, "tests", "kernels"))
import fetch as apt_private  # noqa: E402  the kernels' private apt setup

import workload as W  # noqa: E402

# UPSTREAM_RECIPES=DIR: recipes from elsewhere (the driver's own tests)
RECIPES = os.path.abspath(os.environ.get("UPSTREAM_RECIPES", HERE))
B = os.environ.get("B", "build")
B = B if os.path.isabs(B) else os.path.join(TOP, B)
ROOT = os.path.join(B, "upstream")
JOBS = os.environ.get("UPSTREAM_JOBS", "2")
BUILDS = ("untamed", "tamed", "hook", "floor")
# UPSTREAM_PROFILES='a b': judge a profile by its own suite for these
# programs only (CI: the quick ones; a suite under strace is slow)
PROFILES = os.environ.get("UPSTREAM_PROFILES")
PROFILES = PROFILES.split() if PROFILES is not None else None


class Failed(Exception):
    """One program's step failed: the message is its one line."""


def names():
    return sorted(d for d in os.listdir(RECIPES)
                  if os.path.isfile(os.path.join(RECIPES, d, "recipe")))


class Recipe:
    """NAME/recipe: one [upstream] section (see README.md there)."""

    def __init__(self, name):
        path = os.path.join(RECIPES, name, "recipe")
        cp = configparser.ConfigParser(interpolation=None)
        if not cp.read(path) or not cp.has_section("upstream"):
            raise Failed("%s: no [upstream] section" % path)
        self.name = name
        self.dir = os.path.join(RECIPES, name)
        self.sec = cp["upstream"]
        for key in ("source", "version", "build", "program", "test",
                    "workload", "hook"):
            if key not in self.sec:
                raise Failed("%s: no '%s ='" % (path, key))
        self.patch = os.path.join(self.dir, name + ".patch")
        if not os.path.exists(self.patch):
            raise Failed("%s: no patch" % self.patch)
        self.work = os.path.join(ROOT, name)

    def get(self, key, default=""):
        return self.sec.get(key, default).strip()

    def key(self, which):
        """What a build of this kind depends on: the recipe's keys that
        make it, and for the patched ones the patch too (libtame is
        linked again apart; the test and workload keys play no part)."""
        h = hashlib.sha256()
        for k in ("source", "version", "configure", "build", "program"):
            h.update(("%s=%s\n" % (k, self.get(k))).encode())
        if which != "untamed":
            h.update(open(self.patch, "rb").read())
        return h.hexdigest()

    def tree(self, which):
        return os.path.join(self.work, which)

    def binary(self, which):
        return os.path.join(self.tree(which), self.get("program"))


def run(cmd, cwd, log, env=None, timeout=None):
    """Run a shell command into LOG; True if it succeeded."""
    with open(log, "a") as f:
        f.write("$ %s\n" % cmd)
        f.flush()
        try:
            r = subprocess.run(["sh", "-ec", cmd], cwd=cwd, stdout=f,
                               stderr=subprocess.STDOUT, env=env,
                               stdin=subprocess.DEVNULL, timeout=timeout)
        except subprocess.TimeoutExpired:
            f.write("timed out after %s s\n" % timeout)
            return False
    return r.returncode == 0


def tail(log, n=15):
    try:
        lines = open(log, errors="replace").read().splitlines()
    except OSError:
        return ""
    return "\n".join("    " + l for l in lines[-n:])


# --- fetching ---------------------------------------------------------

def private_apt(top=ROOT, suite=""):
    """The private apt of TOP/apt, its deb-src lists updated once (a
    second run asks nothing): the machine's archive and release suite,
    or SUITE of it in TOP/apt-SUITE (ports/pledged's lowdown)."""
    root = os.path.join(top, "apt-" + suite if suite else "apt")
    apt = apt_private.PrivateApt(root, [W.machine_arch()])
    stamp = os.path.join(root, "updated")
    if os.path.exists(stamp):
        return apt
    uri, signed_by, machine = apt_private.machine_entry()
    suite = suite or machine
    apt.write_sources(uri, signed_by, [suite], kind="deb-src")
    r = apt.run("update")
    if r.returncode != 0:
        raise Failed("apt-get update of deb-src %s failed: %s"
                     % (suite, apt_private.last_error(r.stdout)))
    open(stamp, "w").close()
    return apt


def fetch(rc, top=ROOT):
    """Unpack the pinned source (Debian's patches applied) into
    pristine/; download it first, into TOP/src, unless already there
    (the recipe's suite =, if any, names the Debian suite)."""
    pristine = rc.tree("pristine")
    if os.path.exists(os.path.join(pristine, ".unpacked")):
        return
    src = os.path.join(top, "src")
    os.makedirs(src, exist_ok=True)
    spec = "%s=%s" % (rc.get("source"), rc.get("version"))
    dsc = os.path.join(src, "%s_%s.dsc" % (
        rc.get("source"), rc.get("version").split(":")[-1]))
    if not os.path.exists(dsc):
        apt = private_apt(top, rc.get("suite"))
        r = apt.run("source", "--download-only", spec, cwd=src)
        if r.returncode != 0 or not os.path.exists(dsc):
            raise Failed("source package %s not available: %s"
                         % (spec, apt_private.last_error(r.stdout)))
    shutil.rmtree(pristine, ignore_errors=True)
    os.makedirs(rc.work, exist_ok=True)
    log = os.path.join(rc.work, "fetch.log")
    if not run("dpkg-source --no-check -x '%s' '%s'" % (dsc, pristine),
               rc.work, log):
        raise Failed("dpkg-source -x %s failed (%s)" % (dsc, log))
    open(os.path.join(pristine, ".unpacked"), "w").close()


# --- building ---------------------------------------------------------

def build_env(which):
    env = dict(os.environ)
    env["JOBS"] = JOBS
    cppflags, archive = "", ""
    if which != "untamed":
        cppflags = "-I" + os.path.join(TOP, "lib")
        archive = os.path.join(B, "libtame.a")
    if which == "hook":
        cppflags += " -DTAME_TEST_HOOK"
    if which == "floor":
        archive = os.path.join(ROOT, "libfloor.a")
    env["TAME_CPPFLAGS"] = cppflags
    # whole archive: the recipes put LDFLAGS before the objects
    env["TAME_LDFLAGS"] = ("-Wl,--whole-archive %s -Wl,--no-whole-archive"
                           % archive) if archive else ""
    return env


def linked_with(which):
    if which == "untamed":
        return ""
    lib = os.path.join(B, "libtame.a" if which != "floor"
                       else "upstream/libfloor.a")
    st = os.stat(lib)
    return "%d.%d" % (st.st_mtime_ns, st.st_size)


def build_one(rc, which):
    """Build one tree; a stamp holds what it was built from.  Only the
    library changed: the program is linked again, nothing else."""
    tree = rc.tree(which)
    stamp = os.path.join(rc.work, which + ".stamp")
    want = "%s %s" % (rc.key(which), linked_with(which))
    have = open(stamp).read() if os.path.exists(stamp) else ""
    if have == want and os.path.exists(rc.binary(which)):
        return
    log = os.path.join(rc.work, which + ".log")
    open(log, "w").close()
    env = build_env(which)
    if have.split(" ")[0] == want.split(" ")[0] and os.path.isdir(tree):
        if os.path.exists(rc.binary(which)):	# link it again
            os.unlink(rc.binary(which))
    else:
        shutil.rmtree(tree, ignore_errors=True)
        # hook and floor: the tamed tree again, its patched files
        # touched (hook) or only its program linked again (floor)
        base = "tamed" if which in ("hook", "floor") else "pristine"
        if subprocess.run(["cp", "-a", "--reflink=auto", rc.tree(base),
                           tree]).returncode != 0:
            raise Failed("%s %s: cannot copy %s" % (rc.name, which, base))
        if which == "tamed":
            if not run("patch -p1 --batch --forward < '%s'" % rc.patch,
                       tree, log):
                raise Failed("%s: the patch does not apply (%s)"
                             % (rc.name, log))
        if which in ("untamed", "tamed") and rc.get("configure"):
            if not run(rc.get("configure"), tree, log, env):
                raise Failed("%s %s: configure failed (%s)\n%s"
                             % (rc.name, which, log, tail(log)))
        if which == "hook":
            for f in patched_files(rc):
                os.utime(os.path.join(tree, f))
        if os.path.exists(rc.binary(which)):
            os.unlink(rc.binary(which))
    if not run(rc.get("build"), tree, log, env):
        raise Failed("%s %s: build failed (%s)\n%s"
                     % (rc.name, which, log, tail(log)))
    if not os.path.exists(rc.binary(which)):
        raise Failed("%s %s: the build made no %s"
                     % (rc.name, which, rc.get("program")))
    with open(stamp, "w") as f:
        f.write(want)


def patched_files(rc):
    files = []
    for line in open(rc.patch):
        if line.startswith("+++ "):
            path = line[4:].split("\t")[0].strip()
            files.append(path.split("/", 1)[1])
    return files


def build(rc):
    fetch(rc)
    for which in BUILDS:
        build_one(rc, which)


# --- the tests --------------------------------------------------------

class Tally:
    def __init__(self, kind="upstream"):
        self.kind = kind
        self.passed = self.failed = 0

    def result(self, name, ok, detail=""):
        print("%s: %s %s" % ("PASS" if ok else "FAIL", self.kind, name))
        if detail and not ok:
            print(detail)
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        sys.stdout.flush()


def test_suite(rc, tally):
    """The program's own test suite, in the tamed tree, where the
    program it tests is the tamed one."""
    log = os.path.join(rc.work, "suite.log")
    open(log, "w").close()
    env = build_env("tamed")
    env["XFAIL"] = rc.get("xfail")	# named in the recipe, with why
    ok = run(rc.get("test"), rc.tree("tamed"), log, env,
             timeout=int(rc.get("test_timeout") or "1200"))
    known = len(rc.get("xfail").split())
    tally.result("%s: its own test suite, tamed%s" % (
        rc.name, " (%d expected to fail: see its recipe)" % known
        if known else ""), ok, "    (%s)\n%s" % (log, tail(log)))


def test_check(rc, tally):
    """tame-audit --check on the typical workload: no violation, no
    flag nothing needed."""
    with W.Workload(rc, "tamed") as wl:
        r = wl.run([os.path.join(B, "tame-audit"), "--check", "--"])
    ok = r.returncode == 0 and wl.same_as_untamed(rc)
    tally.result("%s: tame-audit --check on %s" % (rc.name, wl.describe()),
                 ok, "    status %d\n%s" % (r.returncode,
                                            W.indent(r.stderr)))


def test_hook(rc, tally):
    """The hook build makes one forbidden call after the last tame():
    it must die of SIGSYS, with the line naming the flag."""
    expect = rc.get("hook")
    with W.Workload(rc, "hook") as wl:
        r = wl.run([], env={"TAME_TEST_HOOK": "1"})
    ok = r.returncode == -signal.SIGSYS and expect in r.stderr
    tally.result("%s: hook dies with '%s'" % (rc.name, expect), ok,
                 "    status %d\n%s" % (r.returncode, W.indent(r.stderr)))


def test_profile(rc, tally):
    """The program's own test suite as the judge of a profile: its whole
    suite, on the build Debian ships (no patch of ours), audited with
    tame-audit --profile, then run again under tame-exec --profile of
    that profile.  The suite must pass, with the program listed as
    tameable; every other program the suite ran is tamed by the same
    profile, and must keep working."""
    import json
    log = os.path.join(rc.work, "profile.log")
    prof = os.path.join(rc.work, "suite.profile")
    report = os.path.join(rc.work, "suite-audit.json")
    open(log, "w").close()
    for old in (prof, report):
        if os.path.exists(old):
            os.unlink(old)
    shutil.rmtree(prof + ".runs", ignore_errors=True)
    env = build_env("untamed")
    # the recipe's xfail are the tamed build's (code loaded after
    # tame()): untamed they pass, and a profile loads their modules
    # (load=) before it tames, so none is expected to fail here
    env["XFAIL"] = ""
    # tame-audit runs the suite again under a candidate profile and
    # keeps a load= line only if the output is the same: make -j's
    # interleaving differs from run to run (wget's PASS lines), so the
    # suite runs one job at a time here
    env["JOBS"] = "1"
    test = rc.get("test")
    timeout = int(rc.get("test_timeout") or "1200") * 3
    # A suite's first run leaves files its later runs find (lz4's
    # `ln -sf` then looks at the link it made, which needs rpath): the
    # suite runs once untraced first, so that the audited run and the
    # tamed one start from the same state.
    audited = run(test, rc.tree("untamed"), log, env, timeout=timeout) and \
        run("%s --profile %s --json -o %s -- sh -ec %s" % (
            os.path.join(B, "tame-audit"), prof, report, shlex.quote(test)),
            rc.tree("untamed"), log, env, timeout=timeout)
    listed, stats = {}, ""
    if audited and os.path.exists(prof):
        for line in open(prof):
            line = line.split("#", 1)[0].split()
            if len(line) >= 2:	# PATH FLAGS [load=MODULE,...]
                listed[line[0]] = line[1]
        progs = json.load(open(report)).get("programs", [])
        stats = ("%d processes, %d programs, %d tamed" % (
            sum(p["processes"] for p in progs), len(progs), len(listed)))
    own = os.path.realpath(rc.binary("untamed"))
    base = os.path.basename(own)
    mine = [p for p in listed if p == own or (p.startswith(
        rc.tree("untamed") + "/") and os.path.basename(p) in (
            base, "lt-" + base))]
    ok = audited and bool(mine) and run(
        "%s --profile %s -- sh -ec %s" % (
            os.path.join(B, "tame-exec"), prof, shlex.quote(test)),
        rc.tree("untamed"), log, env, timeout=timeout)
    tally.result("%s: its own test suite under a profile from itself "
                 "(%s; %s: %s)" % (
                     rc.name, stats or "no profile",
                     base, listed[mine[0]] if mine else "not listed"),
                 ok, "    (%s)\n%s" % (log, tail(log)))


def check(selected):
    tally = Tally()
    for name in selected:
        try:
            rc = Recipe(name)
            build(rc)
        except Failed as e:
            tally.result("%s: %s" % (name, e), False)
            continue
        test_suite(rc, tally)
        test_check(rc, tally)
        test_hook(rc, tally)
        if rc.get("profile") != "no" and (PROFILES is None or
                                          name in PROFILES):
            test_profile(rc, tally)
    print("%d passed, %d failed" % (tally.passed, tally.failed))
    return 0 if tally.failed == 0 else 1


def audit(selected):
    status = 0
    for name in selected:
        try:
            rc = Recipe(name)
            fetch(rc)
            build_one(rc, "untamed")	# the patch plays no part
        except Failed as e:
            print("upstream: %s" % e)
            status = 1
            continue
        out = os.path.join(rc.dir, "audit.txt")
        with W.Workload(rc, "untamed") as wl:
            r = wl.run([os.path.join(B, "tame-audit"), "--where",
                        "-o", out + ".new", "--"])
        if not os.path.exists(out + ".new"):
            print("upstream: %s: tame-audit failed (status %d)\n%s"
                  % (name, r.returncode, W.indent(r.stderr)))
            status = 1
            continue
        with open(out, "w") as f:
            f.write("# Generated by make upstream-audit (upstream.py audit): "
                    "do not edit.\n"
                    "# tame-audit --where on the untamed build of %s %s:\n"
                    "#   %s\n" % (rc.get("source"), rc.get("version"),
                                 wl.describe()))
            f.write(W.relative(open(out + ".new").read(), rc))
        os.unlink(out + ".new")
        print("upstream: %s: %s" % (name, os.path.relpath(out, TOP)))
    return status


def deps(selected):
    """Install the packages the recipes name (packages =) that are
    missing, from the machine's own apt configuration."""
    want = set()
    for name in selected:
        want.update(Recipe(name).get("packages").split())
    return install_packages(sorted(want), "upstream")


def install_packages(want, who):
    """apt-get install what of WANT is missing (ports/pledged too)."""
    missing = [p for p in want if "ok installed" not in
               subprocess.run(["dpkg-query", "-W", "-f=${Status}", p],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                              text=True).stdout]
    if not missing:
        return 0
    sudo = [] if os.geteuid() == 0 else ["sudo"]
    print("%s: installing %s" % (who, " ".join(missing)))
    env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
    r = subprocess.run(sudo + ["apt-get", "install", "-y", "-qq",
                               "--no-install-recommends"] + missing, env=env)
    if r.returncode != 0:
        subprocess.run(sudo + ["apt-get", "update", "-qq"])
        r = subprocess.run(sudo + ["apt-get", "install", "-y", "-qq",
                                   "--no-install-recommends"] + missing,
                           env=env)
    if r.returncode != 0:
        print("%s: cannot install %s" % (who, " ".join(missing)))
    return r.returncode


def main(argv):
    verbs = ("build", "check", "audit", "bench", "deps", "serve")
    if len(argv) == 3 and argv[1] == "serve":
        os.makedirs(os.path.join(ROOT, "data"), exist_ok=True)
        W.serve(os.path.join(ROOT, "data"), argv[2])
        return 0
    if len(argv) < 2 or argv[1] not in verbs:
        print("usage: upstream.py %s [NAME ...]" % "|".join(verbs),
              file=sys.stderr)
        return 2
    selected = argv[2:] or names()
    for n in selected:
        if n not in names():
            print("upstream: no program %s (ports/upstream/%s/recipe)"
                  % (n, n), file=sys.stderr)
            return 2
    if argv[1] == "deps":
        return deps(selected)
    if argv[1] in ("build", "check", "audit"):
        for need in ("libtame.a", "upstream/libfloor.a", "tame-audit"):
            if not os.path.exists(os.path.join(B, need)):
                print("upstream: no %s: build it first (make "
                      "check-upstream does)" % os.path.join(B, need),
                      file=sys.stderr)
                return 1
    if argv[1] == "check":
        return check(selected)
    if argv[1] == "audit":
        return audit(selected)
    if argv[1] == "bench":
        for name in selected:
            row = W.bench(Recipe(name))
            if row:
                print(row)
            else:
                print("bench: upstream %s not built or needs a server, "
                      "left out" % name, file=sys.stderr)
        return 0
    status = 0
    for name in selected:
        try:
            build(Recipe(name))
            print("upstream: %s built" % name)
        except Failed as e:
            print("upstream: %s" % e)
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv))
