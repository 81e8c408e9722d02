# SPDX-License-Identifier: ISC
"""Which programs of a directory the census runs, and why not the rest.

Eligible: a regular, executable, dynamically linked ELF file for this
machine, neither set-user-ID nor set-group-ID, without file capabilities,
and not in the skip list.  Names that resolve to the same file are one
program, run under the alphabetically first name (a multi-call binary
behaves by its name, so that name is the one recorded).
"""
import errno
import os
import stat
from dataclasses import dataclass, field

import elf


@dataclass
class Program:
    name: str		# the name the census runs it under
    path: str		# DIR/name
    target: str		# its real path
    aliases: list = field(default_factory=list)	# other names, same file


def read_skip_list(path):
    """name -> reason, from lines "name  reason..." ('#' starts a comment)."""
    skip = {}
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            name, _, reason = line.replace("\t", " ").partition(" ")
            if not reason.strip():
                raise ValueError(f"{path}:{number}: {name}: no reason given")
            skip[name] = reason.strip()
    return skip


def _has_capabilities(path):
    try:
        os.getxattr(path, "security.capability")
        return True
    except OSError as e:
        if e.errno in (errno.ENODATA, errno.ENOTSUP):
            return False
        raise


def ineligibility(path):
    """Why a file cannot be run by the census, or None if it can."""
    try:
        st = os.stat(path)
    except FileNotFoundError:
        return "dangling symlink"
    except OSError as e:
        return f"unreadable ({e.strerror})"
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if not st.st_mode & 0o111:
        return "not executable"
    if st.st_mode & stat.S_ISUID:
        return "set-user-ID"
    if st.st_mode & stat.S_ISGID:
        return "set-group-ID"
    try:
        if _has_capabilities(path):
            return "file capabilities"
        what = elf.kind(path)
    except OSError as e:
        return f"unreadable ({e.strerror})"
    if what == "static":
        return "statically linked"
    if what != "dynamic":
        return what
    return None


def survey(directory, skip, only=None):
    """(programs, ineligible, skipped, aliases): the programs to run, in
    name order; [(name, reason)] of files that cannot be run; [(name,
    reason)] of skip-listed ones; {alias: name run instead}."""
    names = sorted(os.listdir(directory))
    if only is not None:
        names = [n for n in names if n in only]
    ineligible, skipped, by_target = [], [], {}
    for name in names:
        path = os.path.join(directory, name)
        reason = ineligibility(path)
        if reason is not None:
            ineligible.append((name, reason))
        elif name in skip:
            skipped.append((name, skip[name]))
        else:
            target = os.path.realpath(path)
            if target in by_target:
                by_target[target].aliases.append(name)
            else:
                by_target[target] = Program(name, path, target)
    programs = sorted(by_target.values(), key=lambda p: p.name)
    aliases = {a: p.name for p in programs for a in p.aliases}
    return programs, ineligible, skipped, aliases
