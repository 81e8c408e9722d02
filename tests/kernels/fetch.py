#!/usr/bin/python3
# SPDX-License-Identifier: ISC
"""Download the pinned linux-image packages of kernels.txt into
build/kernels/debs/, through a private apt configuration in
build/kernels/apt/ (own sources list, lists, cache and an empty status
file): the machine's apt configuration is never touched.

No archive is named here: the URIs and keyrings are the machine's own
(/etc/apt/sources.list and sources.list.d/, one-line and deb822), with
only the suite replaced by each kernel's.  A package already downloaded
is not fetched again, and when every one is there apt is not even
asked (a second run downloads nothing).  A kernel that cannot be had
gets one line saying so and a NAME.unavailable file, which the matrix
shows as "not available"; the others go on."""

import glob
import os
import re
import subprocess
import sys

import kernels as K

# deb [options] uri suite components
ONE_LINE = re.compile(r"^deb\s+(?:\[([^]]*)\]\s+)?(\S+)\s+(\S+)\s*(.*)$")


def deb822_stanzas(text):
    stanza, key = {}, None
    for line in text.splitlines() + [""]:
        if line.startswith("#"):
            continue
        if not line.strip():
            if stanza:
                yield stanza
            stanza, key = {}, None
        elif line[0] in " \t" and key:
            stanza[key] += "\n" + line.strip()
        elif ":" in line:
            key, value = line.split(":", 1)
            key = key.strip().lower()
            stanza[key] = value.strip()


def one_line_entries(text):
    for line in text.splitlines():
        m = ONE_LINE.match(line.split("#", 1)[0].strip())
        if not m:
            continue
        opts = dict(o.split("=", 1) for o in (m.group(1) or "").split()
                    if "=" in o)
        yield {"uris": m.group(2), "suites": m.group(3),
               "components": m.group(4), "signed-by": opts.get("signed-by", "")}


def machine_archive():
    """(URI, Signed-By) of the machine's Debian archive."""
    return machine_entry()[:2]


def machine_entry():
    """(URI, Signed-By, suite) of the machine's Debian archive: a deb
    entry with the main component and a plain release suite (no
    -security, whose URI is a different archive)."""
    entries = []
    for f in ["/etc/apt/sources.list"] + \
            sorted(glob.glob("/etc/apt/sources.list.d/*.list")):
        if os.path.exists(f):
            entries += list(one_line_entries(open(f).read()))
    for f in sorted(glob.glob("/etc/apt/sources.list.d/*.sources")):
        for s in deb822_stanzas(open(f).read()):
            if s.get("enabled", "yes") != "no":
                entries.append(s)
    for e in entries:
        if "deb" not in e.get("types", "deb").split():
            continue
        if "main" not in e.get("components", "").split():
            continue
        for suite in e.get("suites", "").split():
            if "-" not in suite:
                return e["uris"].split()[0], e.get("signed-by", ""), suite
    raise SystemExit("fetch: no Debian archive with a release suite and "
                     "main in /etc/apt")


class PrivateApt:
    def __init__(self, root, arches):
        self.root = root
        for d in ("lists/partial", "cache/archives/partial", "etc"):
            os.makedirs(os.path.join(root, d), exist_ok=True)
        self.sources = os.path.join(root, "etc", "sources.list")
        status = os.path.join(root, "status")
        if not os.path.exists(status):
            open(status, "w").close()
        self.opts = [
            "-o", "Dir::Etc::SourceList=" + self.sources,
            "-o", "Dir::Etc::SourceParts=/dev/null",
            "-o", "Dir::Etc::Preferences=/dev/null",
            "-o", "Dir::Etc::PreferencesParts=/dev/null",
            "-o", "Dir::State=" + root,
            "-o", "Dir::State::Lists=" + os.path.join(root, "lists"),
            "-o", "Dir::State::status=" + status,
            "-o", "Dir::Cache=" + os.path.join(root, "cache"),
            "-o", "APT::Architecture=" + arches[0],
            "-o", "APT::Architectures=" + ",".join(arches),
        ]

    def write_sources(self, uri, signed_by, suites, kind="deb"):
        keyring = signed_by
        if "\n" in signed_by:		# an inline key: give apt a file
            keyring = os.path.join(self.root, "etc", "archive.asc")
            with open(keyring, "w") as f:
                f.write(signed_by.replace("\n.\n", "\n\n") + "\n")
        opt = " [signed-by=%s]" % keyring if keyring else ""
        with open(self.sources, "w") as f:
            for suite in suites:
                f.write("%s%s %s %s main\n" % (kind, opt, uri, suite))

    def run(self, *args, cwd=None):
        return subprocess.run(["apt-get", "-q"] + self.opts + list(args),
                              cwd=cwd, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True)


def last_error(out):
    lines = [l for l in out.splitlines() if l.startswith(("E:", "W:"))]
    return (lines or out.splitlines() or ["no output"])[-1]


def fetch(chosen):
    debs = os.path.join(K.build_dir(), "debs")
    os.makedirs(debs, exist_ok=True)
    todo = []
    for k in chosen:
        if os.path.exists(K.deb_path(k)):
            if os.path.exists(K.unavailable_path(k)):
                os.unlink(K.unavailable_path(k))
        else:
            todo.append(k)
    if not todo:
        print("fetch: every kernel already downloaded")
        return
    uri, signed_by = machine_archive()
    apt = PrivateApt(os.path.join(K.build_dir(), "apt"),
                     sorted({k.arch for k in todo}))
    apt.write_sources(uri, signed_by, sorted({k.suite for k in todo}))
    print("fetch: apt-get update of %s (private lists in %s)"
          % (" ".join(sorted({k.suite for k in todo})), apt.root))
    upd = apt.run("update")
    if upd.returncode != 0:
        print("fetch: apt-get update failed: " + last_error(upd.stdout))
    for k in todo:
        spec = "%s:%s=%s" % (k.package, k.arch, k.version)
        r = apt.run("download", spec, cwd=debs)
        if r.returncode == 0 and os.path.exists(K.deb_path(k)):
            print("fetch: %s: %s" % (k.name, os.path.basename(K.deb_path(k))))
            if os.path.exists(K.unavailable_path(k)):
                os.unlink(K.unavailable_path(k))
            continue
        why = "%s from %s: %s" % (spec, k.suite, last_error(r.stdout))
        print("fetch: %s: not available: %s" % (k.name, why))
        with open(K.unavailable_path(k), "w") as f:
            f.write(why + "\n")


def main():
    fetch(K.select(K.read_list(), os.environ.get("KERNELS", "")))


if __name__ == "__main__":
    main()
