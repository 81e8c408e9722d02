# SPDX-License-Identifier: ISC
"""The pinned kernel list (kernels.txt) and the paths every step shares.

Each step of `make check-kernels` (fetch.py, initramfs.py, boot.py,
matrix.py) reads the list through here, so a kernel's files are named
in one place."""

import os
from collections import namedtuple

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

# options: kernel parameters the guest boots with beyond the console's
# ("" for none), e.g. ia32_emulation=0 for a kernel without the IA-32
# entry, as some hosts and confidential VMs have it.
Kernel = namedtuple("Kernel", "name suite package version arch options")


def build_dir():
    """build/kernels/ of the build directory make uses ($B)."""
    b = os.environ.get("B", "build")
    return os.path.join(TOP, b, "kernels") if not os.path.isabs(b) \
        else os.path.join(b, "kernels")


def read_list(path=os.path.join(HERE, "kernels.txt")):
    kernels = []
    with open(path) as f:
        for line in f:
            line = line.split("#", 1)[0].split()
            if not line:
                continue
            if len(line) < 5:
                raise SystemExit("%s: a line needs 5 fields and may have "
                                 "kernel parameters after them: %s"
                                 % (path, " ".join(line)))
            kernels.append(Kernel(*line[:5], options=" ".join(line[5:])))
    return kernels


def select(kernels, wanted):
    """KERNELS=... : names separated by spaces or commas; a bare version
    (6.1) picks every kernel of that version, on every architecture and
    with any parameters; a full name (6.12-amd64) that one alone.  An
    unknown name is an error, never an empty run."""
    if not wanted or not wanted.strip():
        return kernels
    chosen = []
    for w in wanted.replace(",", " ").split():
        hits = [k for k in kernels if k.name == w or
                ("-" not in w and k.name.startswith(w + "-"))]
        if not hits:
            raise SystemExit("check-kernels: no kernel %r in kernels.txt "
                             "(there are: %s)"
                             % (w, " ".join(k.name for k in kernels)))
        chosen += [k for k in hits if k not in chosen]
    return chosen


def deb_path(k):
    """Where fetch.py leaves the package (apt-get download's own name,
    with the epoch's colon escaped as apt escapes it)."""
    return os.path.join(build_dir(), "debs", "%s_%s_%s.deb"
                        % (k.package, k.version.replace(":", "%3a"), k.arch))


def unavailable_path(k):
    """Written by fetch.py when the package cannot be had: one line why."""
    return os.path.join(build_dir(), k.name + ".unavailable")


def log_path(k):
    return os.path.join(build_dir(), k.name + ".log")


# The architecture of this machine, in Debian's names.
HOST_ARCH = {"x86_64": "amd64", "aarch64": "arm64"}.get(os.uname().machine,
                                                         os.uname().machine)


def guest_root(arch):
    """The root file system a guest of arch gets, read-only over 9p: this
    machine's own for its own architecture; for another, the root that
    userland.py unpacks from Debian's packages of that architecture."""
    if arch == HOST_ARCH:
        return "/"
    return os.path.join(build_dir(), "root-" + arch)


def tree_build(arch):
    """The build directory of the tree for arch, relative to TOP: make's
    own ($B) for this machine's architecture, build-ARCH (make
    cross-ARCH) for another."""
    if arch == HOST_ARCH:
        return os.environ.get("B", "build")
    return "build-" + arch


if __name__ == "__main__":
    # kernels.mk: the architectures, other than this machine's, of the
    # kernels KERNELS chooses: each needs its cross build (make
    # cross-ARCH) before the guests boot.
    print(" ".join(sorted({k.arch for k in select(read_list(),
                                                  os.environ.get("KERNELS", ""))
                           if k.arch != HOST_ARCH})))
