#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""The arm64 root: build/kernels/root-arm64/, Debian's arm64 packages of
userland.txt and everything they depend on, unpacked into one merged-/usr
tree.  It is both the cross compiler's --sysroot (make cross-arm64) and
the root file system of the arm64 guests (make check-kernels), so what
the tests link against at build time is what they load at run time.

The packages come from the machine's own Debian archive and suite
(fetch.py reads /etc/apt) through a private apt configuration in
build/kernels/apt-arm64/ with APT::Architecture=arm64 and an empty
status file: apt resolves the dependencies and downloads, the machine's
dpkg and apt configuration are never touched (no dpkg
--add-architecture).  The packages are only unpacked, never configured
(their maintainer scripts are arm64 programs): what a script would make
and the tests need -- /etc/passwd and /etc/group from base-passwd's
masters, shadow (locked), nsswitch.conf, hosts, an empty resolv.conf,
localtime (UTC), the alternatives' links, ld.so.cache -- is made here.  The root is made again only when the
list of packages downloaded, or this file, changes.

usage: userland.py [ARCH]     (arm64, the only foreign one so far)"""

import glob
import hashlib
import os
import shutil
import subprocess
import sys

import fetch
import kernels as K

HOSTS = """127.0.0.1\tlocalhost
::1\t\tlocalhost ip6-localhost ip6-loopback
127.0.1.1\tguest
"""


def packages():
    out = []
    for line in open(os.path.join(K.HERE, "userland.txt")):
        line = line.split("#", 1)[0].strip()
        if line:
            out.append(line)
    return out


def host_suite():
    for line in open("/etc/os-release"):
        if line.startswith("VERSION_CODENAME="):
            return line.split("=", 1)[1].strip().strip('"')
    raise SystemExit("userland: no VERSION_CODENAME in /etc/os-release: "
                     "which Debian suite to take the arm64 packages from?")


def download(arch, debs):
    uri, signed_by = fetch.machine_archive()
    apt = fetch.PrivateApt(os.path.join(K.build_dir(), "apt-" + arch),
                           [arch])
    suite = host_suite()
    apt.write_sources(uri, signed_by, [suite])
    os.makedirs(os.path.join(debs, "partial"), exist_ok=True)
    print("userland: apt-get update of %s for %s (private lists in %s)"
          % (suite, arch, apt.root), flush=True)
    r = apt.run("update")
    if r.returncode != 0:
        raise SystemExit("userland: apt-get update failed: "
                         + fetch.last_error(r.stdout))
    r = apt.run("-o", "Dir::Cache::archives=" + debs, "install", "-y",
                "--download-only", "--no-install-recommends", *packages())
    if r.returncode != 0:
        raise SystemExit("userland: apt-get install --download-only "
                         "failed: " + fetch.last_error(r.stdout))


def unpack(debs, root):
    """Every .deb into root, whose /bin, /sbin and /lib are links into
    /usr (merged /usr, as a bookworm system is): tar keeps those links
    where a package still ships files under /bin."""
    shutil.rmtree(root, ignore_errors=True)
    os.makedirs(os.path.join(root, "usr"))
    for d in ("bin", "sbin", "lib"):
        os.makedirs(os.path.join(root, "usr", d))
        os.symlink("usr/" + d, os.path.join(root, d))
    for deb in sorted(glob.glob(os.path.join(debs, "*.deb"))):
        tar = subprocess.Popen(["dpkg-deb", "--fsys-tarfile", deb],
                               stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "--keep-directory-symlink",
                        "--no-same-owner" if os.getuid() else
                        "--same-owner", "-C", root], stdin=tar.stdout,
                       check=True)
        if tar.wait() != 0:
            raise SystemExit("userland: cannot unpack " + deb)


def configure(root):
    """What the maintainer scripts would have made, as far as the tests
    need it."""
    def put(rel, text, mode=0o644):
        path = os.path.join(root, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, mode)
    base = os.path.join(root, "usr/share/base-passwd")
    put("etc/passwd", open(os.path.join(base, "passwd.master")).read())
    put("etc/group", open(os.path.join(base, "group.master")).read())
    put("etc/nsswitch.conf",
        open(os.path.join(root, "usr/share/libc-bin/nsswitch.conf")).read())
    put("etc/hosts", HOSTS)
    # an empty resolver configuration: the tests read it, none resolves
    put("etc/resolv.conf", "")
    # root's password entry locked, as a fresh system's; the tests stat
    # and try to read it (t_bypass, the gadget and race cases)
    put("etc/shadow", "".join(l.split(":", 1)[0] + ":*:19000:0:99999:7:::\n"
                              for l in open(os.path.join(base,
                                                         "passwd.master"))),
        0o640)
    put("etc/hostname", "guest\n")
    os.symlink("/usr/share/zoneinfo/Etc/UTC",
               os.path.join(root, "etc/localtime"))
    put("etc/timezone", "Etc/UTC\n")
    # what dash's and update-alternatives' scripts would have linked
    for link, target in (("bin/sh", "dash"), ("usr/bin/awk", "mawk"),
                         ("usr/bin/nawk", "mawk"), ("usr/bin/cc", "gcc"),
                         ("usr/bin/c99", "c99-gcc"),
                         ("usr/bin/which", "which.debianutils"),
                         ("usr/bin/gnuplot", "gnuplot-nox")):
        path = os.path.join(root, link)
        if not os.path.lexists(path) and \
                os.path.exists(os.path.join(os.path.dirname(path), target)):
            os.symlink(target, path)
    # libc-bin's trigger: the loader's cache, made by the root's own
    # ldconfig under qemu's user mode, chrooted into the root (-r), so
    # that it reads and writes nothing of the machine's
    subprocess.run(["qemu-aarch64", "-L", root,
                    os.path.join(root, "sbin/ldconfig"), "-r", root],
                   check=True)
    for d in ("proc", "sys", "dev", "run", "tmp", "root", "home"):
        os.makedirs(os.path.join(root, d), exist_ok=True)
    os.chmod(os.path.join(root, "tmp"), 0o1777)


def build(arch="arm64"):
    """The root's path, made or brought up to date."""
    root = os.path.join(K.build_dir(), "root-" + arch)
    debs = os.path.join(K.build_dir(), "debs-" + arch)
    download(arch, debs)
    have = "\n".join(sorted(os.path.basename(d) for d in
                            glob.glob(os.path.join(debs, "*.deb")))) + "\n"
    have += hashlib.sha256(open(__file__, "rb").read()).hexdigest() + "\n"
    stamp = root + ".stamp"
    if os.path.exists(stamp) and open(stamp).read() == have \
            and os.path.isdir(root):
        print("userland: %s up to date" % root)
        return root
    unpack(debs, root)
    configure(root)
    with open(stamp, "w") as f:
        f.write(have)
    print("userland: %s: %d packages" % (root, have.count("\n") - 1))
    return root


def main():
    build(*(sys.argv[1:2] or ["arm64"]))


if __name__ == "__main__":
    main()
