# SPDX-License-Identifier: ISC
"""What kind of executable a file is, from its ELF header alone.

The census runs dynamically linked programs only: tame-exec tames through
a preloaded library, which only the dynamic loader (named by PT_INTERP)
ever loads.  Reading the header ourselves keeps the census free of
readelf and file(1), and costs a few hundred bytes per program.
"""
import struct

PT_INTERP = 3
ET_EXEC, ET_DYN = 2, 3

# e_ident[EI_CLASS] -> (layout of e_type .. e_phnum, size of the header)
_LAYOUT = {
    1: ("HHIIIIIHHH", 52),	# ELFCLASS32
    2: ("HHIQQQIHHH", 64),	# ELFCLASS64
}


def _machine_of(path):
    with open(path, "rb") as f:
        head = f.read(20)
    order = "<" if head[5] == 1 else ">"
    return struct.unpack(order + "H", head[18:20])[0]


# The machine this interpreter runs on: a program for another one could
# not run here at all (or only through binfmt_misc, where no preload goes).
HOST_MACHINE = _machine_of("/proc/self/exe")


def kind(path):
    """One of "dynamic", "static", "not ELF", "another architecture",
    "not an executable ELF" (relocatable objects, core files) or
    "truncated ELF"."""
    with open(path, "rb") as f:
        head = f.read(64)
        if head[:4] != b"\x7fELF":
            return "not ELF"
        if len(head) < 6 or head[4] not in _LAYOUT or head[5] not in (1, 2):
            return "truncated ELF"
        layout, size = _LAYOUT[head[4]]
        if len(head) < size:
            return "truncated ELF"
        order = "<" if head[5] == 1 else ">"
        (e_type, e_machine, _version, _entry, e_phoff, _shoff, _flags,
         _ehsize, e_phentsize, e_phnum) = struct.unpack_from(
            order + layout, head, 16)
        if e_type not in (ET_EXEC, ET_DYN):
            return "not an executable ELF"
        if e_machine != HOST_MACHINE:
            return "another architecture"
        if e_phentsize < 4 or e_phnum == 0:
            return "static"
        f.seek(e_phoff)
        table = f.read(e_phentsize * e_phnum)
        if len(table) < e_phentsize * e_phnum:
            return "truncated ELF"
    for i in range(e_phnum):
        (p_type,) = struct.unpack_from(order + "I", table, i * e_phentsize)
        if p_type == PT_INTERP:
            return "dynamic"
    return "static"
