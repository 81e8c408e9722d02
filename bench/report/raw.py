# SPDX-License-Identifier: ISC
"""Reading a run's raw results (reports/raw/, written by bench/run.sh)
as they are: no statistics here (summary.py takes them)."""
import glob
import json
import os
import re

_HF = re.compile(r"hf-(.+)-(\d+)\.json$")


class Raw:
    """One run's raw directory.  micro.json and machine.json are needed;
    anything else a run may lack (an older run, a port or upstream
    program not built, a row retired) reads as empty: the report leaves
    its rows out, or says "not measured" where a target needs it."""

    def __init__(self, path):
        self.path = path
        self.micro = _json(os.path.join(path, "micro.json"))
        self.machine = _json(os.path.join(path, "machine.json"))
        # every file in the order of the names (as the shell globbed
        # them), which puts a comparison's round 1 first
        self.interleave = [_json(f) for f in self._glob("interleave-*.json")]
        self.hyperfine = {}
        for f in self._glob("hf-*.json"):
            m = _HF.search(os.path.basename(f))
            if m:
                self.hyperfine.setdefault(m.group(1), []).append(_json(f))
        self.fresh = {n: _lines(f) for n, f in self._named("fresh")}
        self.phases = {n: [json.loads(line) for line in _lines(f)]
                       for n, f in self._named("phases")}
        # the profiles tame-audit --profile wrote for the process trees
        self.profiles = {n: _lines(f) for n, f in self._named("profile")}
        attach = os.path.join(path, "attach.jsonl")
        self.attach = [json.loads(line) for line in _lines(attach)] \
            if os.path.exists(attach) else []
        self.port_workloads = _workloads(
            os.path.join(path, "port-workloads.tsv"))
        self.upstream_workloads = _workloads(
            os.path.join(path, "upstream-workloads.tsv"))
        self.pledged_workloads = _workloads(
            os.path.join(path, "pledged-workloads.tsv"))

    def _glob(self, pattern):
        return sorted(glob.glob(os.path.join(glob.escape(self.path),
                                             pattern)))

    def _named(self, kind):
        """(NAME, path) of each KIND-NAME.txt."""
        for f in self._glob(kind + "-*.txt"):
            yield os.path.basename(f)[len(kind) + 1:-len(".txt")], f

    def configs(self):
        return {p["config"] for p in self.micro}

    def rows(self, prefix):
        """The whole-command comparisons named PREFIX-NAME: the NAMEs."""
        return [n[len(prefix):] for n in sorted(self.hyperfine)
                if n.startswith(prefix)]


def _json(path):
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def _lines(path):
    """The file's lines that hold anything."""
    with open(path, encoding="utf-8") as f:
        return [line for line in f.read().split("\n") if line.strip()]


def _workloads(path):
    """NAME<TAB>WORKLOAD lines: each name's first."""
    w = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f.read().split("\n"):
                if line:
                    name, _, rest = line.partition("\t")
                    w.setdefault(name, rest.split("\t")[0])
    return w
