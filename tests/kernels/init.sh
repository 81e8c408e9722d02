#!/bin/busybox sh
# SPDX-License-Identifier: ISC
# The guest's first process (initramfs.py makes it /init).  It gives the
# guest what a container has: the host's root, read-only over 9p, under
# an overlay with tmpfs above it (a writable root, /tmp on the same
# mount as the rest), its own /proc, /sys, /dev and devpts; then runs
# the file named by tame.run= on the kernel command line (boot.py
# writes it into the build directory, which the host root carries),
# chrooted, and turns the machine off.  All output goes to the serial
# console, which boot.py keeps as build/kernels/NAME.log.
/bin/busybox --install -s /bin
export PATH=/bin
mount -t proc proc /proc
mount -t sysfs sysfs /sys
mount -t devtmpfs devtmpfs /dev 2>/dev/null
echo "init: kernel $(uname -r)"
for m in $(cat /modules/order); do
	insmod /modules/$m.ko || echo "init: insmod $m failed"
done
# cache=loose: with 9p's default (no cache) inodes are not stable, and
# Landlock rules, which hold inodes, would never match.
mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,ro,msize=262144 \
    hostroot /lower || { echo "init: cannot mount the host root"; reboot -f; }
mount -t tmpfs -o mode=0755 tmpfs /upper
mkdir /upper/rw /upper/work
mount -t overlay -o lowerdir=/lower,upperdir=/upper/rw,workdir=/upper/work \
    overlay /newroot || { echo "init: no overlay"; reboot -f; }
# A root that is not the host's (an arm64 guest's: tests/kernels/
# userland.py) lacks the project's tree: boot.py shares it too, and it
# goes at the same path (tame.tree=), under an overlay of its own.
tree=$(sed -n 's/.*tame\.tree=\([^ ]*\).*/\1/p' /proc/cmdline)
if [ -n "$tree" ]; then
	mkdir -p /tree /upper/tree/rw /upper/tree/work "/newroot$tree"
	mount -t 9p -o trans=virtio,version=9p2000.L,cache=loose,ro,msize=262144 \
	    tametree /tree || { echo "init: cannot mount the tree"; reboot -f; }
	mount -t overlay -o \
	    lowerdir=/tree,upperdir=/upper/tree/rw,workdir=/upper/tree/work \
	    overlay "/newroot$tree" || { echo "init: no overlay for the tree"; \
	    reboot -f; }
fi
mount -t proc proc /newroot/proc
mount -t sysfs sysfs /newroot/sys
mount -t devtmpfs devtmpfs /newroot/dev
mkdir -p /newroot/dev/pts /newroot/dev/shm
mount -t devpts -o newinstance,ptmxmode=0666,gid=5,mode=0620 devpts \
    /newroot/dev/pts
ln -sf pts/ptmx /newroot/dev/ptmx
# what udev (or a container runtime) adds to devtmpfs: install.sh's
# tame-audit -o /dev/stdout found none
ln -sf /proc/self/fd /newroot/dev/fd
ln -sf /proc/self/fd/0 /newroot/dev/stdin
ln -sf /proc/self/fd/1 /newroot/dev/stdout
ln -sf /proc/self/fd/2 /newroot/dev/stderr
mount -t tmpfs -o mode=1777 tmpfs /newroot/dev/shm
ip link set lo up
hostname "$(cat /newroot/etc/hostname 2>/dev/null || echo guest)"
run=$(sed -n 's/.*tame\.run=\([^ ]*\).*/\1/p' /proc/cmdline)
# the PATH a root shell has (setcap and ip live in /usr/sbin), not the
# initramfs's /bin alone
export PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin
if [ -n "$run" ]; then
	chroot /newroot /bin/sh "$run"
	echo "init: $run ended with status $?"
else
	echo "init: no tame.run= on the command line: a shell"
	setsid cttyhack sh
fi
sync
reboot -f
