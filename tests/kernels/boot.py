#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Boot one kernel of kernels.txt under qemu and run suites in it.

usage: boot.py [--minutes N] NAME SUITE...

The guest is a Debian kernel with the initramfs initramfs.py made,
under TCG (no KVM: this machine's nested KVM cannot run a guest),
--cpus vCPUs (2 unless told) and 2 GiB, the host's root shared read-only over 9p.  The host
writes the guest's command into build/kernels/NAME.run (the guest sees
the build directory through the host root) and keeps everything the
serial console prints in build/kernels/NAME.log.  qemu is killed after
--minutes; the suites that had not ended by then are left without a
result, which matrix.py shows.  Progress goes to standard output, one
line a suite."""

import argparse
import os
import subprocess
import sys
import threading
import time

import kernels as K

# -smap: this qemu's TCG does lretq's stack reads as a supervisor access,
# so with SMAP a user program's far return (t_bypass's switch into
# 32-bit mode) oopses the guest kernel; without it, it works as on
# hardware.
# arm64: the virt board; -cpu max with QEMU's own pointer
# authentication algorithm (pauth-impdef), which TCG computes far faster
# than the architected QARMA; max runs AArch32 at EL0, which t_bypass's
# compat case needs.
QEMU = {"amd64": ["qemu-system-x86_64", "-machine", "q35,accel=tcg",
                  "-cpu", "max,-smap"],
        "arm64": ["qemu-system-aarch64", "-machine", "virt,accel=tcg",
                  "-cpu", "max,pauth-impdef=on"]}
CONSOLE = {"amd64": "ttyS0", "arm64": "ttyAMA0"}


def shares(k):
    """-virtfs options and kernel parameters: the guest's root (the
    host's own, or the root of the guest's architecture); with a root
    that is not the host's, the project's tree as well, which init.sh
    puts at the same path."""
    opts = ",security_model=none,readonly=on,multidevs=remap"
    root = K.guest_root(k.arch)
    args = ["-virtfs", "local,path=%s,mount_tag=hostroot%s" % (root, opts)]
    if root == "/":
        return args, ""
    return args + ["-virtfs", "local,path=%s,mount_tag=tametree%s"
                   % (K.TOP, opts)], " tame.tree=" + K.TOP


def qemu_command(k, run_file, cpus):
    kdir = os.path.join(K.build_dir(), k.name)
    virtfs, tree = shares(k)
    return QEMU[k.arch] + [
        "-smp", str(cpus), "-m", "2048", "-nographic", "-no-reboot",
        "-kernel", os.path.join(kdir, "vmlinuz"),
        "-initrd", os.path.join(kdir, "initramfs.gz"),
        # quiet: a seccomp kill is logged at notice level, and a test
        # run makes hundreds: they would crowd the console.
        "-append", "console=%s quiet loglevel=3 panic=-1 tame.run=%s%s%s"
        % (CONSOLE[k.arch], run_file, tree,
           " " + k.options if k.options else "")] + virtfs + [
        "-device", "virtio-rng-pci", "-nic", "none"]


def boot(k, suites, minutes, suite_timeout, cpus=2):
    run_file = os.path.join(K.build_dir(), k.name + ".run")
    with open(run_file, "w") as f:
        f.write("# written by tests/kernels/boot.py: the guest runs this\n"
                "cd %s || exit 1\n"
                "export B=%s\n"
                "# what the kernel can enforce, for the matrix's heading\n"
                "$B/tame-exec --check 2>&1 | sed 's/^/@@check /'\n"
                "exec /usr/bin/python3 tests/kernels/guest.py "
                "--timeout %d --named-in %s %s\n"
                % (K.TOP, K.tree_build(k.arch), suite_timeout,
                   K.tree_build(K.HOST_ARCH), " ".join(suites)))
    log = open(K.log_path(k), "w")
    start = time.monotonic()
    p = subprocess.Popen(qemu_command(k, run_file, cpus), stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    killed = []

    def bound():
        try:
            p.wait(timeout=minutes * 60)
        except subprocess.TimeoutExpired:
            killed.append(1)
            p.kill()
    threading.Thread(target=bound, daemon=True).start()
    for raw in p.stdout:
        line = raw.decode(errors="replace")
        log.write(line)
        log.flush()
        if line.startswith("@@result "):
            w = line.split(None, 5)
            print("check-kernels: %s: %-28s %s passed, %s failed, %s s %s"
                  % (k.name, w[1], w[2], w[3], w[4],
                     w[5].strip() if len(w) > 5 else ""), flush=True)
    p.wait()
    elapsed = time.monotonic() - start
    note = "\n@@guest %s %.0f %s\n" % (
        k.name, elapsed,
        "killed after %d minutes" % minutes if killed else "ended")
    log.write(note)
    log.close()
    print("check-kernels: %s: guest %s after %.1f minutes"
          % (k.name, "killed" if killed else "ended", elapsed / 60),
          flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=int, default=45)
    ap.add_argument("--suite-timeout", type=int, default=1200)
    ap.add_argument("--cpus", type=int, default=2)
    ap.add_argument("name")
    ap.add_argument("suites", nargs="+")
    a = ap.parse_args()
    for k in K.select(K.read_list(), a.name):
        boot(k, a.suites, a.minutes, a.suite_timeout, a.cpus)


if __name__ == "__main__":
    main()
