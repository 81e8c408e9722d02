# SPDX-License-Identifier: ISC
"""The raw results reduced to the numbers the report shows: per call,
per configuration, per whole command, per phase.  Figures are rounded
here to the places the report gives them, once."""
import collections

from names import CALLS, CONFIGS
from stats import median, median_ci, pct, r1, r2, r3, shown

# The interleaved paired differences, configuration minus floor: the
# floors are nothing (untamed), any filter (allow1, allow3), and the
# least filter that checks an argument (args1, args3, the kernel's share
# of an argument check); tame-tmp-openat2 against tame-tmp is what
# Landlock saves tmppath.
PAIRS = (("allow1", "untamed"), ("allow3", "untamed"), ("tame1", "untamed"),
         ("tame3", "untamed"), ("tame1", "allow1"), ("tame3", "allow1"),
         ("tame3", "allow3"), ("args1", "allow1"), ("args3", "allow3"),
         ("tame1", "args1"), ("tame3", "args3"), ("tame-tmp", "untamed"),
         ("tame-tmp-openat2", "untamed"), ("tame-tmp-openat2", "tame-tmp"),
         ("pledge-exec-norpath", "pledge-norpath"),
         ("tame-norpath", "untamed"), ("pledge-norpath", "untamed"),
         ("pledge-exec-norpath", "untamed"),
         ("pledge-norpath", "tame-norpath"),
         ("tame1-unveiled", "untamed"), ("tame1-unveiled", "tame1"))

PerCall = collections.namedtuple(
    "PerCall", "median delta ratio dmin dmax rounds")
Paired = collections.namedtuple(
    "Paired", "call config floor median lo hi p10 p90 n config_median "
    "floor_median")
Latency = collections.namedtuple(
    "Latency", "name median lo hi samples insns")
Command = collections.namedtuple("Command", "median runs rounds fastest")
Phase = collections.namedtuple("Phase", "name median p10 p90 faults")
Shape = collections.namedtuple(
    "Shape", "shape length steps median p10 p90 samples")
Model = collections.namedtuple(
    "Model", "ns_per_insn ns_per_step floor_us floor_steps")
Fresh = collections.namedtuple("Fresh", "median p10 p90 samples faults")


def per_call(micro, configs, calls):
    """{(call, config): PerCall}: the median over rounds of each
    process's median CPU time per call (CPU time leaves out the time
    other tenants of the VM hold the CPU, which only ever adds), its
    delta and ratio against untamed, and the smallest and largest delta
    against the untamed process of the same round.  None where the
    configuration does not hold the call."""
    def runs(config, call):
        out = []
        for p in micro:
            if p["config"] != config:
                continue
            for r in p["results"]:
                m = r.get("cpu_median")
                if m is None:
                    m = r.get("median")
                if r["name"] == "syscall/" + call and m is not None:
                    out.append((p["round"], m))
        return out

    table = {}
    for call in calls:
        base = runs("untamed", call)
        b = median([m for _, m in base])
        by_round = dict(base)
        for c in configs:
            rs = runs(c, call)
            mc = median([m for _, m in rs])
            d = [m - by_round[r] for r, m in rs if r in by_round]
            both = mc is not None and b is not None
            table[call, c] = PerCall(
                mc, r1(mc - b) if both else None,
                r2(mc / b) if both else None,
                r1(min(d)) if d else None, r1(max(d)) if d else None,
                len(rs))
    return table


def latency(micro):
    """One confining call's cost, by operation (names sorted): forked
    samples (latency/...) pooled over all rounds, in µs; the in-process
    compile loops (compile/...) as the median, min and max over rounds
    of each round's median."""
    by = collections.defaultdict(list)
    for p in micro:
        if p["config"] == "latency":
            for r in p["results"]:
                by[r["name"]].append(r)
    rows = []
    for name in sorted(by):
        rs = by[name]
        if name.startswith("latency/"):
            s = [x / 1000 for r in rs for x in r["samples"]]
            rows.append(Latency(name, r1(median(s)), r1(pct(s, 0.1)),
                                r1(pct(s, 0.9)), len(s), None))
        else:
            s = [r["median"] / 1000 for r in rs]
            rows.append(Latency(name, r2(median(s)), r2(min(s)), r2(max(s)),
                                sum(len(r["samples"]) for r in rs),
                                rs[0].get("insns")))
    return rows


def paired(docs):
    """Per call and pair (PAIRS) that both ran, the paired differences
    of the rounds (the configuration's batch minus the floor's batch of
    the same round, CPU time): their median, a 95% interval of that
    median, their 10th..90th percentile (the spread of one round), how
    many, and each side's own median."""
    rows = []
    for doc in docs:
        for c in doc["calls"]:
            res = c["results"]
            for a, b in PAIRS:
                if res.get(a) is None or res.get(b) is None:
                    continue
                ca, cb = res[a]["cpu"], res[b]["cpu"]
                d = [x - y for x, y in zip(ca, cb)
                     if x is not None and y is not None]
                if not d:
                    continue
                lo, hi = median_ci(d)
                rows.append(Paired(
                    c["call"], a, b, r1(median(d)), r1(lo), r1(hi),
                    r1(pct(d, 0.1)), r1(pct(d, 0.9)), len(d),
                    r1(median([x for x in ca if x is not None])),
                    r1(median([x for x in cb if x is not None]))))
    return rows


def commands(rounds):
    """{command: Command} of one whole-command comparison's rounds
    (hyperfine exports): the median of every run pooled, in ms; the
    runs; each round's median, in the rounds' order; the fastest run."""
    by = collections.defaultdict(list)
    for doc in rounds:
        for r in doc["results"]:
            by[r["command"]].append(r)
    out = {}
    for command, rs in by.items():
        t = [x * 1000 for r in rs for x in r["times"]]
        out[command] = Command(r3(median(t)), len(t),
                               [r3(r["median"] * 1000) for r in rs],
                               r3(min(t)))
    return out


class Comparison:
    """One whole-command comparison, its untamed command (the base: the
    one bench/run.sh names first, which round 1 runs first) against the
    tamed one, as the report gives it: each median; the median over
    rounds of each round's ratio (the two ran back to back, so drift of
    the shared VM cancels) and the range of those; the pooled medians'
    and the fastest runs' ratio.  Figures are kept as printed (shown()),
    so that what is computed from them agrees with the table."""

    def __init__(self, rounds):
        first = [r["command"] for r in rounds[0]["results"]]
        if len(set(first)) != 2:
            raise ValueError("a comparison is of two commands, not "
                             + ", ".join(first))
        cmd = commands(rounds)
        b, t = cmd[first[0]], cmd[first[1]]
        x = sorted(rt / rb for rb, rt in zip(b.rounds, t.rounds))
        m = median(x)
        self.base_ms = shown(b.median, 3)
        self.tamed_ms = shown(t.median, 3)
        self.ratio = shown(m, 3)
        self.lo = shown(x[0], 2)
        self.hi = shown(x[-1], 2)
        self.runs = (b.runs, t.runs)
        self.pooled = shown(t.median / b.median, 3)
        self.fastest = shown(t.fastest / b.fastest, 3)


def phases(lines):
    """Each phase of the first tame() over the samples (bench/phases's
    lines), in the order made, then "sum", the per-sample sum of the
    phases: median µs, p10, p90, and the median page faults."""
    if not lines:
        return []
    rows = []
    for p in lines[0]["phases"]:
        us = [x["phases"][p][0] for x in lines]
        faults = [x["phases"][p][1] for x in lines]
        rows.append(Phase(p, r1(median(us)), r1(pct(us, 0.1)),
                          r1(pct(us, 0.9)), median(faults)))
    s = [x["sum"] for x in lines]
    faults = [sum(v[1] for v in x["phases"].values()) for x in lines]
    rows.append(Phase("sum", r1(median(s)), r1(pct(s, 0.1)),
                      r1(pct(s, 0.9)), median(faults)))
    return rows


def attach(lines):
    """The kernel's attach by program shape (bench/attach's lines), and
    the model fitted to the synthetic shapes: the cost of one replay
    step in ns (walk-N over skip-N), of one instruction in ns (the skip
    shapes over allow1, less their replay steps), the floor (allow1) in
    µs and allow1's own replay steps.  The model is None without
    allow1."""
    shapes = [Shape(x["shape"], x["len"], x["steps"], r1(median(x["us"])),
                    r1(pct(x["us"], 0.1)), r1(pct(x["us"], 0.9)),
                    len(x["us"])) for x in lines]
    by = {x["shape"]: x for x in lines}
    if "allow1" not in by:
        return shapes, None
    a = median(by["allow1"]["us"])
    per_step = []
    for w in lines:
        if w["shape"].startswith("walk-"):
            k = by.get("skip-" + w["shape"][len("walk-"):])
            if k:
                per_step.append((median(w["us"]) - median(k["us"]))
                                / (w["steps"] - k["steps"]))
    if not per_step:
        return shapes, None
    step = median(per_step)
    per_insn = [(median(k["us"]) - a - step * (k["steps"]
                                               - by["allow1"]["steps"]))
                / (k["len"] - 1)
                for k in lines if k["shape"].startswith("skip-")]
    if not per_insn:
        return shapes, None
    return shapes, Model(r1(median(per_insn) * 1000), r2(step * 1000), r1(a),
                         by["allow1"]["steps"])


def fresh(lines):
    """The first tame() of a freshly exec'd program (lines "µs faults"):
    the median, p10 and p90 as the report prints them (the lower median:
    a sample), the samples, and the median faults as written; None
    without samples."""
    if not lines:
        return None
    us = sorted(float(x.split()[0]) for x in lines)
    n = len(us)
    faults = sorted((x.split()[1] for x in lines if len(x.split()) >= 2),
                    key=float)
    return Fresh(shown(us[int((n - 1) * 0.5)], 1),
                 shown(us[int((n - 1) * 0.1)], 1),
                 shown(us[int((n - 1) * 0.9)], 1), n,
                 faults[(len(faults) + 1) // 2 - 1] if faults else None)


class Run:
    """Everything the report shows of one run, reduced once."""

    def __init__(self, raw):
        self.raw = raw
        self.machine = raw.machine
        held = raw.configs()
        self.configs = [c for c in CONFIGS if c in held]
        measured = {r["name"] for p in raw.micro for r in p["results"]}
        self.calls = [c for c, _, _ in CALLS if "syscall/" + c in measured]
        self.per_call = per_call(raw.micro, self.configs, self.calls)
        self.latency = latency(raw.micro)
        self.paired = paired(raw.interleave)
        self.fresh = {n: fresh(lines) for n, lines in raw.fresh.items()}
        self.phases = {n: phases(lines) for n, lines in raw.phases.items()}
        self.shapes, self.model = attach(raw.attach)
        self.whole = {n: Comparison(r) for n, r in raw.hyperfine.items()}

    def compare(self, name):
        """The whole-command comparison NAME, or None where the run has
        none."""
        return self.whole.get(name)

    def lat(self, name):
        """The latency row NAME, or None."""
        return next((r for r in self.latency if r.name == name), None)
