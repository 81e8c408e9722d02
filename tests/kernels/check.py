#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""make check-kernels: fetch the pinned kernels, build each one's
initramfs, boot each in turn with the suites given, print the matrix.

usage: KERNELS='6.1 6.12-amd64' check.py [--minutes N] SUITE...

Kernels run one after another (each guest, of --cpus vCPUs, takes
both cores), or --jobs at once: the sum of the time is about the same
under TCG, but then each guest's minutes are not its own.  One vCPU a
guest holds up better on a busy machine: port-id.sh took 53 s in the
6.1 guest with 2 vCPUs and 56 s with 1 on a quiet machine, 183 and
129 s with stress-ng --cpu 2 beside it (2026-12-06): a guest kernel
with two vCPUs waits on the one the host has descheduled.
KERNEL_SHARE=ci leaves out what exclude.txt marks share=ci.  A kernel
that cannot be fetched, or whose initramfs cannot be made, is not
booted and its column says so."""

import argparse
import concurrent.futures
import os
import subprocess
import sys

import boot
import fetch
import initramfs
import kernels as K
import matrix


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--minutes", type=int, default=75,
                    help="kill a guest after this long")
    ap.add_argument("--suite-timeout", type=int, default=900,
                    help="kill one suite after this many seconds")
    ap.add_argument("--jobs", type=int, default=1,
                    help="guests at once")
    ap.add_argument("--cpus", type=int, default=2,
                    help="vCPUs a guest")
    ap.add_argument("suites", nargs="+")
    a = ap.parse_args()
    chosen = K.select(K.read_list(), os.environ.get("KERNELS", ""))
    excluded = matrix.read_excluded()
    fetch.fetch(chosen)
    ready = []
    for k in chosen:
        if os.path.exists(K.log_path(k)):
            os.unlink(K.log_path(k))	# a stale log never counts
        if os.path.exists(K.unavailable_path(k)):
            continue
        try:
            mods = initramfs.build(k)
        except (SystemExit, OSError, subprocess.CalledProcessError) as e:
            why = "initramfs: %s" % e
            print("check-kernels: %s: not available: %s" % (k.name, why))
            with open(K.unavailable_path(k), "w") as f:
                f.write(why + "\n")
            continue
        print("check-kernels: %s: initramfs with %s" % (k.name,
                                                       " ".join(mods)))
        ready.append(k)
    with concurrent.futures.ThreadPoolExecutor(max(1, a.jobs)) as pool:
        for f in [pool.submit(boot.boot, k,
                              [s for s in a.suites if not
                               matrix.excluded_for(excluded, s, k.arch)],
                              a.minutes, a.suite_timeout, a.cpus)
                  for k in ready]:
            f.result()
    sys.argv = ["matrix.py"] + [k.name for k in chosen] + ["--"] + a.suites
    return matrix.main()


if __name__ == "__main__":
    sys.exit(main())
