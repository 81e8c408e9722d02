#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Build a guest's initramfs for one kernel of kernels.txt:
build/kernels/NAME/initramfs.gz (cpio newc, gzip) and NAME/vmlinuz.

It holds busybox-static (the guest's architecture's: from its root,
kernels.guest_root), init.sh as /init, and the kernel's own modules
that the guest needs before it can mount the host's root: virtio PCI,
9p over virtio, overlay, virtio-rng (so that an early getrandom() need
not wait for entropy under TCG), each with the modules it depends on
(each module's own depends=); what
the kernel's config builds in is skipped.  Modules are decompressed
here (6.12 ships .ko.xz), so busybox's insmod needs no decompressor.
Written without root: the archive, device node included, is made here."""

import glob
import gzip
import lzma
import os
import re
import shutil
import subprocess
import sys

import kernels as K

WANTED = ["virtio_pci", "virtio_rng", "9pnet_virtio", "9p", "overlay"]
BUSYBOX = "bin/busybox"     # in the guest root of the kernel's arch


def extract(k, dest):
    """The package's files, once (a stamp names the .deb extracted)."""
    stamp = os.path.join(dest, ".extracted")
    deb = os.path.basename(K.deb_path(k))
    if os.path.exists(stamp) and open(stamp).read() == deb:
        return
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(dest)
    subprocess.run(["dpkg-deb", "-x", K.deb_path(k), dest], check=True)
    open(stamp, "w").write(deb)


def module_dir(root):
    """6.12 keeps its modules under /usr/lib (merged /usr), the others
    under /lib."""
    dirs = glob.glob(os.path.join(root, "lib", "modules", "*")) + \
        glob.glob(os.path.join(root, "usr", "lib", "modules", "*"))
    if not dirs:
        raise SystemExit("initramfs: no lib/modules in " + root)
    return dirs[0]


def modname(path):
    return os.path.basename(path).split(".ko")[0].replace("-", "_")


def module_bytes(path):
    data = open(path, "rb").read()
    if path.endswith(".xz"):
        return lzma.decompress(data)
    if path.endswith(".gz"):
        return gzip.decompress(data)
    if path.endswith(".zst"):
        return subprocess.run(["zstd", "-dc", path], check=True,
                              stdout=subprocess.PIPE).stdout
    return data


def depends(data):
    """The module's own list of what it needs: the depends= string of
    its .modinfo section (what depmod reads; the package ships no
    modules.dep, and kmod need not be installed)."""
    m = re.search(rb"\0depends=([\w,-]*)\0", data)
    return [d.decode().replace("-", "_")
            for d in (m.group(1).split(b",") if m else []) if d]


def load_order(moddir):
    """The wanted modules and their dependencies, each after what it
    needs, with their contents; built-in ones left out."""
    paths = {}
    for d, _, files in os.walk(moddir):
        for f in files:
            if ".ko" in f:
                paths[modname(f)] = os.path.join(d, f)
    builtin = {modname(l.strip())
               for l in open(os.path.join(moddir, "modules.builtin"))}
    order, data = [], {}

    def visit(m):
        if m in data or m in builtin:
            return
        if m not in paths:
            raise SystemExit("initramfs: module %s neither built in nor "
                             "in %s" % (m, moddir))
        data[m] = module_bytes(paths[m])
        for d in depends(data[m]):
            visit(d)
        order.append(m)
    for m in WANTED:
        visit(m)
    return [(m, data[m]) for m in order]


class Cpio:
    """cpio newc, the format the kernel unpacks."""

    def __init__(self):
        self.out, self.ino = bytearray(), 1

    def add(self, name, mode, data=b"", rdev=(0, 0)):
        self.ino += 1
        name = name.encode() + b"\0"
        hdr = "070701" + "".join("%08x" % v for v in (
            self.ino, mode, 0, 0, 1, 0, len(data), 0, 0, rdev[0], rdev[1],
            len(name), 0))
        self.out += hdr.encode() + name
        self.out += b"\0" * (-len(self.out) % 4) + data
        self.out += b"\0" * (-len(self.out) % 4)

    def dir(self, name):
        self.add(name, 0o40755)

    def file(self, name, data, mode=0o644):
        self.add(name, 0o100000 | mode, data)

    def bytes(self):
        self.add("TRAILER!!!", 0)
        return bytes(self.out)


def build(k):
    kdir = os.path.join(K.build_dir(), k.name)
    root = os.path.join(kdir, "root")
    extract(k, root)
    order = load_order(module_dir(root))
    c = Cpio()
    for d in ("bin", "dev", "proc", "sys", "modules", "lower", "upper",
              "newroot"):
        c.dir(d)
    c.add("dev/console", 0o20600, rdev=(5, 1))
    busybox = os.path.join(K.guest_root(k.arch), BUSYBOX)
    c.file("bin/busybox", open(busybox, "rb").read(), 0o755)
    c.file("init", open(os.path.join(K.HERE, "init.sh"), "rb").read(),
           0o755)
    for m, data in order:
        c.file("modules/%s.ko" % m, data)
    c.file("modules/order", "".join(m + "\n" for m, _ in order).encode())
    with gzip.open(os.path.join(kdir, "initramfs.gz"), "wb", 6) as f:
        f.write(c.bytes())
    shutil.copy(glob.glob(os.path.join(root, "boot", "vmlinuz-*"))[0],
                os.path.join(kdir, "vmlinuz"))
    return [m for m, _ in order]


def main():
    for k in K.select(K.read_list(), " ".join(sys.argv[1:])):
        print("initramfs: %s: %s" % (k.name, " ".join(build(k))))


if __name__ == "__main__":
    main()
