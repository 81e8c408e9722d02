# SPDX-License-Identifier: ISC
"""What the report calls the benchmarks' configurations and calls, and
in which order it shows them (bench/config.c and bench/micro.c say what
each one does; the raw data holds no order)."""

# The per-configuration processes, in the columns' order; a report shows
# those its micro.json holds.
CONFIGS = ("untamed", "allow1", "allow3", "tame1", "tame3", "libseccomp",
           "tame-norpath", "tame-cmsg", "tame-nounix")

# Each call: its name in the raw data, what a reader sees, and its kind.
# "cached" calls are allowed unconditionally (the kernel's constant-action
# bitmap answers them); "arg-checked" ones run every filter's BPF;
# "trap-priced" ones trap in some configurations (the SIGSYS handler
# checks them), which prices the trap in microseconds: they have their
# own section and never count in the per-call targets.
CALLS = (
    ("getpid", "getpid", "cached"),
    ("read_1B_devzero", "read 1 B /dev/zero", "cached"),
    ("write_1B_devnull", "write 1 B /dev/null", "cached"),
    ("openat_close", "openat+close 4 KiB file", "arg-checked"),
    ("stat", "stat 4 KiB file by path", "trap-priced"),
    ("ioctl_FIONREAD", "ioctl(FIONREAD) pipe", "arg-checked"),
    ("socket_close_udp", "socket+close AF_INET UDP", "arg-checked"),
    ("openat_close_granted", "openat+close /etc/localtime", "trap-priced"),
    ("msg_unix", "sendmsg+recvmsg AF_UNIX", "trap-priced"),
    ("msg_udp", "sendmsg+recvmsg UDP", "trap-priced"),
    ("sigmask_block", "sigprocmask block+unblock", "trap-priced"),
    ("tmp_create_remove", "open O_CREAT+close+unlink beneath /tmp",
     "trap-priced"),
)
_LABEL = {name: label for name, label, _ in CALLS}
_KIND = {name: kind for name, _, kind in CALLS}


def label(call):
    return _LABEL.get(call, call)


def kind(call):
    return _KIND.get(call, "arg-checked")


def cached(call):
    return kind(call) == "cached"


def trapped(call):
    return kind(call) == "trap-priced"
