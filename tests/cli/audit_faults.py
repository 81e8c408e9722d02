#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""tame-audit never harms the files it runs over (tame-audit(1), HERMETIC
RUNS): the user's tree changes only by one plain run of the command.

Each case makes two copies of one tree, runs the command plainly in one
and under tame-audit in the other, and compares them: names, kinds,
modes, owners, contents byte for byte, whether each file is still the
inode it was, link counts, extended attributes (user xattrs, POSIX ACLs,
file capabilities) and allocated blocks (a sparse file stays sparse).
The faults: a run that cleans its TMPDIR, SIGPIPE on the output, a
process appending beside the run, two audits at once, a lock held
outside, ENOSPC on a small file system, a read-only directory, a
directory renamed, a file bound alone, the kernel's overlay defaults,
another user's directory made during the audit, a root-owned 1777
directory, a file of a supplementary group, a small TMPDIR, SIGINT and
SIGTERM at several points, SIGKILL at random points; after each, nothing
of tame-audit's is left in TMPDIR or /tmp.  As root, and as uid 4242
where the case is not root's alone.

Usage: audit_faults.py [CASE...]; AUDIT=path picks the tame-audit to
test (an older build, to see which cases it fails), TAME_CORPUS_QUICK=1
the kernel guests' subset.  Prints one line a case, "n/a: ..." with the
reason where this machine cannot run it; exit status 0 when every case
that ran passed.
"""

import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
B = os.environ.get("B", "build")
AUDIT = os.environ.get("AUDIT", os.path.join(ROOT, B, "tame-audit"))
QUICK = bool(os.environ.get("TAME_CORPUS_QUICK"))
USER = 4242
OTHER = 4243
PATH = "/usr/bin:/bin:/usr/sbin:/sbin"

failures = []


def say(line):
    print("audit-faults: " + line, flush=True)


def na(case, why):
    print("n/a: %s: %s" % (case, why), flush=True)


class Fail(Exception):
    pass


# The tree each case starts from, and what a tree holds.

def acl_denying(uid):
    """A POSIX ACL (the xattr's binary form) that denies uid all access."""
    import struct
    undefined = 0xffffffff
    entries = [(0x01, 6, undefined), (0x02, 0, uid), (0x04, 4, undefined),
               (0x10, 4, undefined), (0x20, 4, undefined)]
    return struct.pack("<I", 2) + b"".join(
        struct.pack("<HHI", tag, perm, ident) for tag, perm, ident in entries)


def file_capability():
    """security.capability, v2, effective: cap_net_raw (13)."""
    import struct
    return struct.pack("<IIIII", 0x02000001, 1 << 13, 0, 0, 0)


def make_tree(top, uid, notes):
    os.makedirs(top)
    os.makedirs(os.path.join(top, "d"))
    os.makedirs(os.path.join(top, "proj", "sub"))
    os.makedirs(os.path.join(top, "tmp"))
    os.makedirs(os.path.join(top, "home"))
    files = {"a.txt": b"alpha\nbeta\n", "d/c.txt": b"charlie\n",
             "proj/p.txt": b"project\n", "proj/sub/s.txt": b"sub\n",
             "tmp/stale": b"old\n", "home/.rc": b"rc\n",
             "h1": b"linked\n", "xattr.file": b"tagged\n",
             "acl.file": b"guarded\n", "cap.file": b"raw\n",
             "big.dat": b"x" * (1 << 20)}
    for name, data in files.items():
        with open(os.path.join(top, name), "wb") as f:
            f.write(data)
    os.link(os.path.join(top, "h1"), os.path.join(top, "h2"))
    with open(os.path.join(top, "sparse"), "wb") as f:
        f.truncate(64 << 20)
    os.chmod(os.path.join(top, "cap.file"), 0o755)
    try:
        os.setxattr(os.path.join(top, "xattr.file"), "user.tag", b"1")
    except OSError as e:
        notes.add("user xattrs: %s" % e.strerror)
    try:
        os.setxattr(os.path.join(top, "acl.file"), "system.posix_acl_access",
                    acl_denying(OTHER))
    except OSError as e:
        notes.add("POSIX ACLs: %s" % e.strerror)
    if os.geteuid() == 0:
        try:
            os.setxattr(os.path.join(top, "cap.file"), "security.capability",
                        file_capability())
        except OSError as e:
            notes.add("file capabilities: %s" % e.strerror)
    for d, _, names in os.walk(top):
        for n in [d] + [os.path.join(d, x) for x in names]:
            os.lchown(n, uid, uid)
    os.chmod(top, 0o755)


def xattrs(path):
    try:
        names = sorted(os.listxattr(path, follow_symlinks=False))
    except OSError:
        return ()
    out = []
    for n in names:
        try:
            out.append((n, os.getxattr(path, n, follow_symlinks=False)))
        except OSError:
            out.append((n, None))
    return tuple(out)


def snapshot(top):
    """What the tree holds, by relative path; inode numbers as they are."""
    import hashlib
    snap = {}
    for d, dirs, names in os.walk(top):
        dirs.sort()
        for n in sorted(dirs + names):
            p = os.path.join(d, n)
            st = os.lstat(p)
            rel = os.path.relpath(p, top)
            kind = "d" if os.path.isdir(p) and not os.path.islink(p) else \
                "l" if os.path.islink(p) else \
                "f" if os.path.isfile(p) else "p"
            entry = {"kind": kind, "mode": oct(st.st_mode & 0o7777),
                     "uid": st.st_uid, "gid": st.st_gid,
                     "xattrs": xattrs(p), "ino": st.st_ino}
            if kind == "l":
                entry["target"] = os.readlink(p)
            if kind == "f":
                h = hashlib.md5()
                with open(p, "rb") as f:
                    for chunk in iter(lambda: f.read(1 << 20), b""):
                        h.update(chunk)
                entry.update(md5=h.hexdigest(), size=st.st_size,
                             nlink=st.st_nlink,
                             blocks=st.st_blocks)
            snap[rel] = entry
    return snap


def compare(plain_dir, plain_before, audit_dir, audit_before, skip=()):
    """Each copy against its own state before: same contents and metadata,
    and every file the same inode as before in one exactly where it is in
    the other."""
    a, b = snapshot(plain_dir), snapshot(audit_dir)
    for rel in sorted(set(a) | set(b)):
        if any(rel == s or rel.startswith(s + "/") for s in skip):
            continue
        if rel not in b:
            raise Fail("%s: made by the plain run only" % rel)
        if rel not in a:
            raise Fail("%s: made under tame-audit only" % rel)
        ea, eb = dict(a[rel]), dict(b[rel])
        ea["ino"] = plain_before.get(rel, {}).get("ino") == ea["ino"]
        eb["ino"] = audit_before.get(rel, {}).get("ino") == eb["ino"]
        for key in sorted(set(ea) | set(eb)):
            if ea.get(key) != eb.get(key):
                what = "the same inode as before" if key == "ino" else key
                raise Fail("%s: %s is %r after a plain run, %r after "
                           "tame-audit" % (rel, what, ea.get(key),
                                           eb.get(key)))


# Running things.

def as_user(argv, user, groups=None):
    if user is None:
        return argv
    g = "--groups=%s" % ",".join(map(str, groups)) if groups else \
        "--clear-groups"
    return ["setpriv", "--reuid=%d" % user, "--regid=%d" % user, g] + argv


def env_for(top, extra=None):
    env = {"PATH": PATH, "HOME": os.path.join(top, "home"),
           "TMPDIR": os.path.join(top, "tmp"), "LC_ALL": "C"}
    env.update(extra or {})
    return env


def run(argv, cwd, env, user=None, groups=None, stdin=None, timeout=120,
        **kw):
    return subprocess.run(as_user(argv, user, groups), cwd=cwd, env=env,
                          stdin=stdin if stdin is not None else
                          subprocess.DEVNULL, capture_output=True,
                          timeout=timeout, **kw)


def ours_in_tmp():
    """tame-audit's own leftovers in /tmp (its old layers, logs)."""
    return sorted(n for n in os.listdir("/tmp") if n.startswith("tame-audit"))


def left_in(tmpdir, plain_tmpdir):
    """What is in the audit's TMPDIR that the plain run's does not hold."""
    theirs = set(os.listdir(plain_tmpdir)) if os.path.isdir(plain_tmpdir) \
        else set()
    return sorted(n for n in (os.listdir(tmpdir) if os.path.isdir(tmpdir)
                              else []) if n not in theirs)


def viewed(stderr):
    """An audit that made one run only is a plain run: it proves nothing
    about views."""
    if b"one run only" in stderr:
        raise Fail("the audit made one run only: %s"
                   % stderr.decode(errors="replace").splitlines()[0])


class Case:
    """Two copies, plain/ and audit/, of a fresh tree for each case."""

    def __init__(self, work, name, user):
        self.top = os.path.join(work, name + ("-user" if user else ""))
        self.user = user
        self.notes = set()
        self.plain = os.path.join(self.top, "plain")
        self.audit = os.path.join(self.top, "audit")
        os.makedirs(self.top)
        os.chmod(self.top, 0o755)
        # the tree is the runner's own (root's, or an unprivileged
        # runner's: its lchown to root would fail)
        owner = user or os.geteuid()
        make_tree(self.plain, owner, self.notes)
        make_tree(self.audit, owner, self.notes)
        self.before = (snapshot(self.plain), snapshot(self.audit))

    def plain_run(self, cmd, **kw):
        return run(cmd, self.plain, env_for(self.plain), self.user, **kw)

    def audit_run(self, opts, cmd, **kw):
        r = run([AUDIT] + opts + ["--"] + cmd, self.audit,
                env_for(self.audit), self.user, **kw)
        viewed(r.stderr)
        return r

    def check(self, skip=()):
        compare(self.plain, self.before[0], self.audit, self.before[1], skip)
        left = left_in(os.path.join(self.audit, "tmp"),
                       os.path.join(self.plain, "tmp"))
        if left:
            raise Fail("left in TMPDIR: %s" % ", ".join(left))


# The cases: each takes (work, user) and raises Fail, or returns a note.

def case_files(work, user):
    """Appends through a hard link's second name, to a file with a user
    xattr, one with an ACL, one with file capabilities; one byte into a
    64 MiB sparse file; a FIFO made 666 and handed to another owner; a
    directory's mode changed after files were made in it."""
    c = Case(work, "files", user)
    cmd = ["sh", "-c", "echo more >> h2; echo y >> xattr.file; "
           "echo y >> acl.file; echo y >> cap.file; "
           "printf x | dd of=sparse bs=1 seek=4096 conv=notrunc 2>/dev/null; "
           "mkfifo -m 666 fifo; mkdir dd; touch dd/x; chmod 700 dd; "
           "chown %d fifo dd 2>/dev/null; true" % OTHER]
    c.plain_run(cmd)
    c.audit_run(["--verify"], cmd)
    c.check()
    return "; ".join(sorted(c.notes))


def case_tmpdir(work, user):
    """A run that cleans its TMPDIR keeps the rest of its work."""
    c = Case(work, "tmpdir", user)
    cmd = ["sh", "-c", 'echo result > out1; mkdir build; echo o > build/a.o; '
           'rm -rf "$TMPDIR"/*; echo last > out2']
    c.plain_run(cmd)
    c.audit_run([], cmd)
    c.check()


def case_pipe_true(work, user):
    """`tame-audit ... | true`: the run's file is made, nothing is left."""
    c = Case(work, "pipe-true", user)
    script = "echo important > marker; echo output"
    shell = "sh -c '%s' | true" % script
    c.plain_run(["sh", "-c", shell])
    r = run(["sh", "-c", "'%s' --verify -- sh -c '%s' | true"
             % (AUDIT, script)], c.audit, env_for(c.audit), user)
    if not os.path.exists(os.path.join(c.audit, "marker")):
        raise Fail("no marker: %s" % r.stderr.decode(errors="replace")[-300:])
    c.check()


def case_pipe_head(work, user):
    """`tame-audit ... | head -1` of a command printing over 64 KiB: the
    user gets the first line, and the command's later work is done."""
    c = Case(work, "pipe-head", user)
    script = "seq 100000; echo done > marker"
    p = c.plain_run(["sh", "-c", "sh -c '%s' | head -1" % script])
    r = run(["sh", "-c", "'%s' -o report -- sh -c '%s' | head -1"
             % (AUDIT, script)], c.audit, env_for(c.audit), user)
    if r.stdout != p.stdout:
        raise Fail("the output is %r, plainly %r" % (r.stdout, p.stdout))
    c.check(skip=("report",))


def case_appender(work, user):
    """A process appending to a log during the audit loses no line."""
    c = Case(work, "appender", user)
    appender = ("for i in $(seq 20); do echo other-$i >> svc.log; "
                "sleep 0.05; done")
    cmd = ["sh", "-c", "echo RUN-LINE >> svc.log; sleep 1"]
    for side in ("plain", "audit"):
        top = getattr(c, side)
        bg = subprocess.Popen(as_user(["sh", "-c", appender], user), cwd=top,
                              env=env_for(top))
        if side == "plain":
            c.plain_run(cmd)
        else:
            c.audit_run(["--verify"], cmd)
        bg.wait()
    with open(os.path.join(c.audit, "svc.log")) as f:
        lines = f.read().split()
    if len(lines) != 21 or lines.count("RUN-LINE") != 1:
        raise Fail("svc.log has %d lines, %d of the run's: %s"
                   % (len(lines), lines.count("RUN-LINE"), lines))


def case_two_audits(work, user):
    """Two audits at once, appending to one file: both lines stay."""
    c = Case(work, "two-audits", user)
    cmd = ["sh", "-c", "echo line-$$ >> shared; sleep 0.5"]
    procs = [subprocess.Popen(as_user([AUDIT, "-o", "/dev/null", "--"] + cmd,
                                      user), cwd=c.audit,
                              env=env_for(c.audit), stdin=subprocess.DEVNULL,
                              stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL) for _ in range(2)]
    for p in procs:
        p.wait(timeout=120)
    with open(os.path.join(c.audit, "shared")) as f:
        n = len(f.read().split())
    if n != 2:
        raise Fail("shared has %d lines, not 2" % n)


def case_lock(work, user):
    """A lock held outside stops the run as it stops a plain one: a
    program that writes only when it gets the lock does not write."""
    c = Case(work, "lock", user)
    cmd = ["flock", "-n", "shared.lock", "-c", "echo wrote > target"]
    for side in ("plain", "audit"):
        top = getattr(c, side)
        open(os.path.join(top, "shared.lock"), "w").close()
        if user:
            os.chown(os.path.join(top, "shared.lock"), user, user)
        holder = subprocess.Popen(["flock", "shared.lock", "sleep", "30"],
                                  cwd=top)
        for _ in range(100):
            r = run(["flock", "-n", "shared.lock", "true"], top, env_for(top))
            if r.returncode != 0:
                break
            time.sleep(0.05)
        try:
            if side == "plain":
                c.plain_run(cmd)
            else:
                c.audit_run([], cmd)
        finally:
            holder.kill()
            holder.wait()
    c.check()


def loop_fs(top, mb):
    """A small ext4 on a loop device, mounted at top; None if impossible."""
    img = top + ".img"
    with open(img, "wb") as f:
        f.truncate(mb << 20)
    if subprocess.run(["mkfs.ext4", "-q", "-F", "-m", "0", "-O",
                       "^has_journal", img],
                      capture_output=True).returncode != 0:
        return None
    os.makedirs(top, exist_ok=True)
    if subprocess.run(["mount", "-o", "loop", img, top],
                      capture_output=True).returncode != 0:
        return None
    return img


def case_enospc(work, user):
    """One byte appended to a 4 MB file on a 6 MB file system: a plain
    run fits, and so does the audit's (a copy of the file would not)."""
    if os.geteuid() != 0:
        return na("enospc", "a loop-mounted file system needs root")
    top = os.path.join(work, "enospc")
    os.makedirs(top)
    mounted = []
    try:
        for side in ("plain", "audit"):
            d = os.path.join(top, side)
            if loop_fs(d, 6) is None:
                return na("enospc", "no loop device here")
            mounted.append(d)
            with open(os.path.join(d, "big"), "wb") as f:
                f.write(b"y" * (4 << 20))
            os.makedirs(os.path.join(d, "tmp"), exist_ok=True)
            os.makedirs(os.path.join(d, "home"), exist_ok=True)
        before = (snapshot(mounted[0]), snapshot(mounted[1]))
        cmd = ["sh", "-c", "printf z >> big"]
        run(cmd, mounted[0], env_for(mounted[0]))
        r = run([AUDIT, "--verify", "--"] + cmd, mounted[1],
                env_for(mounted[1]))
        compare(mounted[0], before[0], mounted[1], before[1],
                skip=("lost+found",))
        if b"could not" in r.stderr:
            raise Fail(r.stderr.decode(errors="replace")[-300:])
    finally:
        for d in mounted:
            subprocess.run(["umount", d], capture_output=True)


def case_readonly_dir(work, user):
    """A file in a read-only directory (0555), written in place."""
    c = Case(work, "readonly-dir", user)
    for top in (c.plain, c.audit):
        os.makedirs(os.path.join(top, "ro"))
        with open(os.path.join(top, "ro", "file"), "w") as f:
            f.write("cached\n")
        if user:
            os.chown(os.path.join(top, "ro", "file"), user, user)
            os.chown(os.path.join(top, "ro"), user, user)
        os.chmod(os.path.join(top, "ro"), 0o555)
    c.before = (snapshot(c.plain), snapshot(c.audit))
    cmd = ["sh", "-c", "echo more >> ro/file"]
    c.plain_run(cmd)
    c.audit_run(["--verify"], cmd)
    c.check()


def case_rename_dir(work, user):
    """A directory renamed by rename(2) alone, no copy to fall back on."""
    c = Case(work, "rename-dir", user)
    cmd = ["python3", "-c", "import os; os.rename('proj', 'proj2')"]
    c.plain_run(cmd)
    c.audit_run(["--verify"], cmd)
    c.check()


def case_file_bind(work, user):
    """A file bound alone (a container's /etc/hosts) is written once."""
    if os.geteuid() != 0:
        return na("file-bind", "a bind mount needs root")
    c = Case(work, "file-bind", None)
    mounted = []
    try:
        for top in (c.plain, c.audit):
            with open(os.path.join(top, "bound.src"), "w") as f:
                f.write("hosts\n")
            open(os.path.join(top, "bound.conf"), "w").close()
            if subprocess.run(["mount", "--bind", "bound.src", "bound.conf"],
                              cwd=top).returncode != 0:
                return na("file-bind", "mount --bind failed")
            mounted.append(os.path.join(top, "bound.conf"))
        c.before = (snapshot(c.plain), snapshot(c.audit))
        cmd = ["sh", "-c", "echo x >> bound.conf"]
        c.plain_run(cmd)
        c.audit_run(["--verify"], cmd)
    finally:
        for m in mounted:
            subprocess.run(["umount", m])
    c.check()


def overlay_param(name, value=None):
    path = "/sys/module/overlay/parameters/" + name
    if value is None:
        with open(path) as f:
            return f.read().strip()
    with open(path, "w") as f:
        f.write(value)


def case_kernel_defaults(work, user):
    """The kernel's overlay defaults turned on (redirect_dir, metacopy, as
    some distributions ship them): a directory renamed, a mode changed."""
    if os.geteuid() != 0:
        return na("kernel-defaults", "module parameters need root")
    try:
        old = {p: overlay_param(p) for p in ("redirect_dir", "metacopy")}
        overlay_param("redirect_dir", "Y")
        overlay_param("metacopy", "Y")
    except OSError as e:
        return na("kernel-defaults", "overlay's parameters: %s" % e.strerror)
    try:
        c = Case(work, "kernel-defaults", user)
        cmd = ["sh", "-c", "mv proj proj2; chmod 600 big.dat"]
        c.plain_run(cmd)
        c.audit_run(["--verify"], cmd)
        c.check()
    finally:
        for p, v in old.items():
            overlay_param(p, v)


def wait_runs(pattern, n, limit=60):
    """Until n processes running pattern have been seen: the nth run."""
    seen, end = set(), time.monotonic() + limit
    while len(seen) < n and time.monotonic() < end:
        r = subprocess.run(["pgrep", "-f", pattern], capture_output=True,
                           text=True)
        seen.update(r.stdout.split())
        time.sleep(0.02)
    if len(seen) < n:
        raise Fail("run %d of the command did not start" % n)


def case_other_user(work, user):
    """As root, a directory another user makes after the audited run
    (during --verify's) stays theirs, with what they put in it."""
    if os.geteuid() != 0:
        return na("other-user", "needs root, and another user")
    c = Case(work, "other-user", None)
    for top in (c.plain, c.audit):
        os.chmod(top, 0o1777)
    c.before = (snapshot(c.plain), snapshot(c.audit))
    plant = ["sh", "-c", "mkdir newdir && echo planted > newdir/theirs"]
    cmd = ["python3", "-c", "import os, time; time.sleep(0.6); "
           "os.makedirs('newdir', exist_ok=True); "
           "open('newdir/f', 'w').write('mine')"]
    run(as_user(plant, OTHER), c.plain, env_for(c.plain))
    c.plain_run(cmd)
    p = subprocess.Popen([AUDIT, "--verify", "-o", "/dev/null", "--"] + cmd,
                         cwd=c.audit, env=env_for(c.audit),
                         stdin=subprocess.DEVNULL)
    wait_runs("^python3 -c import os, time", 2)
    run(as_user(plant, OTHER), c.audit, env_for(c.audit))
    p.wait(timeout=120)
    c.check()


def case_sticky_dir(work, user):
    """Unprivileged, in a root-owned 1777 directory: touch newfile."""
    c = Case(work, "sticky-dir", user)
    for top in (c.plain, c.audit):
        os.makedirs(os.path.join(top, "pub"))
        os.chmod(os.path.join(top, "pub"), 0o1777)
    c.before = (snapshot(c.plain), snapshot(c.audit))
    cmd = ["touch", "newfile"]
    run(cmd, os.path.join(c.plain, "pub"), env_for(c.plain), user)
    r = run([AUDIT, "--flags-only", "--"] + cmd, os.path.join(c.audit, "pub"),
            env_for(c.audit), user)
    if b"Value too large" in r.stderr:
        raise Fail(r.stderr.decode(errors="replace")[-300:])
    c.check()


def case_group_file(work, user):
    """Unprivileged, a file writable through a supplementary group."""
    if os.geteuid() != 0:
        return na("group-file", "a file of another group, and running in "
                  "it, need root")
    c = Case(work, "group-file", user)
    for top in (c.plain, c.audit):
        p = os.path.join(top, "group.file")
        with open(p, "w") as f:
            f.write("shared\n")
        os.chown(p, 0, OTHER)
        os.chmod(p, 0o664)
    c.before = (snapshot(c.plain), snapshot(c.audit))
    cmd = ["sh", "-c", "echo mine >> group.file"]
    run(cmd, c.plain, env_for(c.plain), user, groups=[user, OTHER])
    run([AUDIT, "--"] + cmd, c.audit, env_for(c.audit), user,
        groups=[user, OTHER])
    c.check()


def case_small_tmpdir(work, user):
    """A TMPDIR of 64 KiB: the command's 1 MB in its working directory
    is written."""
    if os.geteuid() != 0:
        return na("small-tmpdir", "mounting a small tmpfs needs root")
    c = Case(work, "small-tmpdir", user)
    # outside the places a view layers: a mount under one would stop an
    # unprivileged overlay there, and make the audit one run
    small = tempfile.mkdtemp(prefix="tame-faults-small.", dir="/mnt")
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k,mode=1777",
                       "tame-test", small]).returncode != 0:
        return na("small-tmpdir", "mount -t tmpfs failed")
    try:
        cmd = ["dd", "if=/dev/zero", "of=out", "bs=1M", "count=1"]
        run(cmd, c.plain, env_for(c.plain, {"TMPDIR": small}), user)
        run([AUDIT, "--"] + cmd, c.audit, env_for(c.audit, {"TMPDIR": small}),
            user)
        left = os.listdir(small)
    finally:
        subprocess.run(["umount", small])
        os.rmdir(small)
    c.check()
    if left:
        raise Fail("left in TMPDIR: %s" % left)


# Signals: the tree is untouched, or as the plain run interrupted at the
# same point leaves it; nothing is left behind.

STEPS = ("echo a >> log; sleep 0.4; echo b >> log; sleep 0.4; "
         "echo c >> log; echo out")
STATES = ("", "a\n", "a\nb\n", "a\nb\nc\n")


def log_state(top):
    try:
        with open(os.path.join(top, "log")) as f:
            return f.read()
    except FileNotFoundError:
        return ""


def wait_quiet(pattern, limit=20):
    """Until no process runs the steps any more (a plain run goes on
    after a kill of tame-audit, as it would after a kill of its shell)."""
    end = time.monotonic() + limit
    while time.monotonic() < end:
        if subprocess.run(["pgrep", "-f", pattern],
                          capture_output=True).returncode != 0:
            return
        time.sleep(0.1)
    raise Fail("processes of the run still there after %d s" % limit)


def start_verify(top, user, cmd, out):
    """tame-audit --verify of cmd in top, in a session of its own (so
    that ^C can go to its whole group), its report in top/report."""
    return subprocess.Popen(as_user([AUDIT, "--verify", "-o", "report",
                                     "--"] + cmd, user), cwd=top,
                            env=env_for(top), stdin=subprocess.DEVNULL,
                            stdout=out, stderr=subprocess.PIPE,
                            start_new_session=True)


def wait_main(pid, sig):
    """Until tame-audit's main() has begun: sig is blocked or caught
    (before that, any program dies of it: nothing to test there)."""
    bit = 1 << (sig - 1)
    for _ in range(2000):
        try:
            with open("/proc/%d/comm" % pid) as f:
                comm = f.read().strip()
            with open("/proc/%d/status" % pid) as f:
                st = dict(l.split(":", 1) for l in f if ":" in l)
        except (FileNotFoundError, ProcessLookupError):
            return
        if comm == "tame-audit" and (int(st["SigBlk"], 16) |
                                     int(st["SigCgt"], 16)) & bit:
            return
        time.sleep(0.001)
    raise Fail("tame-audit never blocked nor caught %s" %
               signal.Signals(sig).name)


def signalled(work, user, name, sig, at, to_group):
    top = os.path.join(work, name)
    os.makedirs(os.path.join(top, "tmp"))
    os.makedirs(os.path.join(top, "home"))
    if user:
        for d in (top, os.path.join(top, "tmp"), os.path.join(top, "home")):
            os.chown(d, user, user)
    before = ours_in_tmp()
    out = open(os.path.join(top, "stdout"), "wb")
    p = start_verify(top, user, ["sh", "-c", STEPS], out)
    if at == 0:
        wait_main(p.pid, sig)
    time.sleep(at)
    try:
        if to_group:
            os.killpg(p.pid, sig)	# ^C from a terminal: its whole group
        else:
            os.kill(p.pid, sig)
    except ProcessLookupError:
        pass
    err = p.communicate(timeout=120)[1]
    viewed(err)
    err = err.decode(errors="replace")
    out.close()
    wait_quiet(STEPS)
    state = log_state(top)
    with open(os.path.join(top, "stdout"), "rb") as f:
        printed = f.read()
    if state not in STATES:
        raise Fail("at %.1f s: the log is %r" % (at, state))
    report = os.path.join(top, "report")
    report = open(report).read() if os.path.exists(report) else ""
    if sig != signal.SIGKILL:
        if p.returncode not in (0, 5, 130):
            raise Fail("at %.1f s: status %d: %s" % (at, p.returncode,
                                                     err[-300:]))
        ours = "during the audit's own runs" in err
        if p.returncode == 130 and ours and (state or printed or report):
            raise Fail("at %.1f s: stopped in the audit's own runs, yet "
                       "the log is %r, the output %r, the report %d "
                       "bytes" % (at, state, printed, len(report)))
        if p.returncode == 130 and not ours and \
                "your run was interrupted" not in report:
            raise Fail("at %.1f s: the user's run stopped, and the "
                       "report does not say so: %s" % (at, err[-300:]))
        if p.returncode in (0, 5) and (state != STATES[-1] or
                                       printed != b"out\n"):
            raise Fail("at %.1f s: finished, but the log is %r and the "
                       "output %r" % (at, state, printed))
    left = os.listdir(os.path.join(top, "tmp"))
    new = [n for n in ours_in_tmp() if n not in before]
    if left or new:
        raise Fail("at %.1f s: left behind: %s" % (at, left + new))
    return state, p.returncode


def case_signals(work, user):
    """SIGINT (to the group, as ^C) and SIGTERM at several points of an
    audit with --verify: three runs, the last the user's."""
    seen = []
    # 0: as soon as its main() runs, before it knows how to meet a stop
    points = (0, 0.3, 1.2) if QUICK else (0, 0.2, 0.5, 0.8, 1.0, 1.2, 1.4,
                                          1.7)
    for sig, group in ((signal.SIGINT, True), (signal.SIGTERM, False)):
        for i, at in enumerate(points):
            state, status = signalled(work, user, "sig%d-%d%s" % (
                sig, i, "-user" if user else ""), sig, at, group)
            seen.append("%s@%.1f:%s/%d" % (signal.Signals(sig).name[3:], at,
                                           state.replace("\n", ""), status))
    return " ".join(seen)


def case_sigkill(work, user):
    """SIGKILL of tame-audit alone (the OOM killer, a CI cancel) at 10
    random points: the tree untouched or as a plain run leaves it, and
    nothing of tame-audit's left."""
    rng = random.Random(4242)
    seen = []
    for i in range(3 if QUICK else 10):
        at = rng.uniform(0.05, 2.0)
        state, _ = signalled(work, user, "kill-%d%s" % (
            i, "-user" if user else ""), signal.SIGKILL, at, False)
        seen.append("%.2f:%s" % (at, state.replace("\n", "") or "-"))
    return " ".join(seen)


def case_later_sigint(work, user):
    """^C during a later run (--verify's): the files are untouched and
    the user gets no output, since no run of theirs began."""
    top = os.path.join(work, "later-sigint" + ("-user" if user else ""))
    os.makedirs(os.path.join(top, "tmp"))
    os.makedirs(os.path.join(top, "home"))
    if user:
        for d in (top, os.path.join(top, "tmp"), os.path.join(top, "home")):
            os.chown(d, user, user)
    script = ("import time; open('made', 'a').write('x'); time.sleep(1); "
              "print('done')")
    out = open(os.path.join(top, "out.txt"), "wb")
    p = start_verify(top, user, ["python3", "-c", script], out)
    wait_runs("^python3 -c import time", 2)
    time.sleep(0.3)
    os.killpg(p.pid, signal.SIGINT)
    p.communicate(timeout=60)
    out.close()
    if p.returncode != 130:
        raise Fail("status %d after ^C in the second run" % p.returncode)
    if os.path.exists(os.path.join(top, "made")):
        raise Fail("a run in a view made a real file")
    if os.path.getsize(os.path.join(top, "out.txt")) != 0:
        raise Fail("output from no run of the user's")


CASES = [
    ("files", case_files, True, True),
    ("tmpdir", case_tmpdir, True, True),
    ("pipe-true", case_pipe_true, True, True),
    ("pipe-head", case_pipe_head, True, False),
    ("appender", case_appender, True, False),
    ("two-audits", case_two_audits, True, False),
    ("lock", case_lock, True, False),
    ("enospc", case_enospc, False, False),
    ("readonly-dir", case_readonly_dir, True, False),
    ("rename-dir", case_rename_dir, True, False),
    ("file-bind", case_file_bind, False, False),
    ("kernel-defaults", case_kernel_defaults, False, False),
    ("other-user", case_other_user, False, False),
    ("sticky-dir", case_sticky_dir, True, False),
    ("group-file", case_group_file, True, False),
    ("small-tmpdir", case_small_tmpdir, True, False),
    ("later-sigint", case_later_sigint, True, False),
    ("signals", case_signals, True, True),
    ("sigkill", case_sigkill, True, False),
]


def can_view(user):
    """Can tame-audit make a view here, as root or as uid 4242 (user
    namespaces, unprivileged overlays on a tmpfs)?  None, or why not."""
    d = tempfile.mkdtemp(prefix="tame-faults-probe.", dir="/var/tmp")
    os.chmod(d, 0o777)
    for sub in ("tmp", "home"):
        os.makedirs(os.path.join(d, sub))
        os.chown(os.path.join(d, sub), USER, USER)
    try:
        r = run([AUDIT, "--json", "-o", "r.json", "--", "true"], d,
                env_for(d), user)
        if r.returncode != 0:
            return "tame-audit as uid %s: %s" % (user or os.geteuid(),
                                                 r.stderr.decode()[-200:])
        if b"one run only" in r.stderr:
            return r.stderr.decode().splitlines()[0]
        return None
    finally:
        shutil.rmtree(d)


def main():
    names = sys.argv[1:]
    if not os.access(AUDIT, os.X_OK):
        print("audit-faults: build first (%s)" % AUDIT)
        return 1
    work = tempfile.mkdtemp(prefix="tame-faults.", dir="/var/tmp")
    os.chmod(work, 0o755)
    why = can_view(None)
    if why is not None:
        na("every case", "no view here: %s" % why)
        return 0
    users = [None]
    if os.geteuid() == 0 and shutil.which("setpriv"):
        why = can_view(USER)
        if why is None:
            users.append(USER)
        else:
            na("the unprivileged cases", why)
    else:
        na("the unprivileged cases", "need root and setpriv to test")
    start_tmp = ours_in_tmp()
    try:
        for name, fn, for_user, quick in CASES:
            if names and name not in names:
                continue
            if QUICK and not quick:
                continue
            for user in users:
                if user and not for_user:
                    continue
                label = "%s [%s]" % (name, "uid %d" % user if user else
                                     "root" if os.geteuid() == 0 else
                                     "user")
                t = time.monotonic()
                try:
                    note = fn(work, user)
                    say("%s: pass (%.1f s)%s" % (label, time.monotonic() - t,
                                                 ": " + note if note else ""))
                except Fail as e:
                    failures.append(label)
                    say("%s: FAIL: %s" % (label, e))
                except subprocess.TimeoutExpired as e:
                    failures.append(label)
                    say("%s: FAIL: timed out: %s" % (label, e.cmd))
                except OSError as e:	# the test's own trouble, said
                    failures.append(label)
                    say("%s: FAIL: %s" % (label, e))
    finally:
        subprocess.run(["sh", "-c", "grep -o ' %s/[^ ]*' /proc/mounts | "
                        "sort -r | xargs -r -n1 umount -l" % work],
                       capture_output=True)
        shutil.rmtree(work, ignore_errors=True)
    new = [n for n in ours_in_tmp() if n not in start_tmp]
    if new:
        failures.append("leftovers")
        say("FAIL: left in /tmp: %s" % new)
    say("%d failed%s" % (len(failures), ": " + ", ".join(failures)
                          if failures else ""))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
