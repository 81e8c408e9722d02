# SPDX-License-Identifier: ISC
"""One run's per-call and first-call samples as one google-benchmark JSON
document, for google-benchmark's own comparison tool (compare.py,
Debian's libbenchmark-tools).

Rows, each with every sample as a repetition (so that compare.py's U
test sees them all) and their median and mean as aggregates:

    CONFIG/syscall/CALL, latency/..., compile/...   micro.json, every
            round pooled (CPU time where the raw data has it)
    interleave/CONFIG/CALL  interleave-*.json, one sample a round
    fresh/NAME              fresh-NAME.txt, one sample an exec, µs
    phases/FLAGS/PHASE      phases-FLAGS.txt, one sample an exec, µs
"""
import itertools

from stats import median


def document(raw):
    rows = _micro(raw) + _interleave(raw) + _fresh(raw) + _phases(raw)
    # compare.py sorts by family last, and puts the aggregates after the
    # samples within it
    family = {n: i for i, n in enumerate(sorted({r["run_name"]
                                                 for r in rows}))}
    context = raw.micro[0].get("context", {}) if raw.micro else {}
    return {"context": {"executable": raw.path, "date": context.get("date"),
                        "library_build_type":
                        context.get("library_build_type")},
            "benchmarks": [dict(r, family_index=family[r["run_name"]],
                                per_family_instance_index=0)
                           for r in rows]}


def _row(name, unit, samples):
    """NAME's rows: every (real, cpu) sample, then their median and
    mean; nothing without samples."""
    n = len(samples)
    if n == 0:
        return []
    out = [{"name": name, "run_name": name, "run_type": "iteration",
            "repetitions": n, "repetition_index": i, "threads": 1,
            "iterations": 1, "real_time": real, "cpu_time": cpu,
            "time_unit": unit} for i, (real, cpu) in enumerate(samples)]
    real = [s[0] for s in samples]
    cpu = [s[1] for s in samples]
    for agg, r, c in (("median", median(real), median(cpu)),
                      ("mean", _mean(real), _mean(cpu))):
        out.append({"name": name + "_" + agg, "run_name": name,
                    "run_type": "aggregate", "aggregate_name": agg,
                    "aggregate_unit": "time", "repetitions": n,
                    "threads": 1, "iterations": n, "real_time": r,
                    "cpu_time": c, "time_unit": unit})
    return out


def _mean(xs):
    # summed in order, as google-benchmark sums (Python 3.12's sum()
    # compensates, which can change the last digit)
    total = xs[0]
    for x in xs[1:]:
        total += x
    return total / len(xs)


def _micro(raw):
    """Per configuration and benchmark, the repetitions of every round;
    the latency rows are manual (forked) times, whose CPU time is the
    parent's, so they pair each real time with itself."""
    found = []
    for p in raw.micro:
        for r in p["results"]:
            if not r.get("samples"):
                continue
            name = r["name"] if p["config"] == "latency" else \
                p["config"] + "/" + r["name"]
            cpu = r["samples"]
            if r["name"].startswith("syscall/") and \
                    r.get("cpu_samples") is not None:
                cpu = r["cpu_samples"]
            found.append((name, r.get("unit"),
                          list(itertools.zip_longest(r["samples"], cpu))))
    found.sort(key=lambda f: f[0])
    rows = []
    for name, group in itertools.groupby(found, key=lambda f: f[0]):
        group = list(group)
        rows += _row(name, group[0][1], [s for g in group for s in g[2]])
    return rows


def _interleave(raw):
    return [row for doc in raw.interleave for c in doc["calls"]
            for config, r in c["results"].items()
            for row in _row(f"interleave/{config}/{c['call']}", "ns",
                            [(x, x) for x in r["cpu"] if x is not None])]


def _fresh(raw):
    return [row for name, lines in raw.fresh.items()
            for row in _row("fresh/" + name, "us",
                            [(float(x.split(" ")[0]),) * 2 for x in lines])]


def _phases(raw):
    rows = []
    for flags, lines in raw.phases.items():
        for p in lines[0]["phases"] if lines else ():
            rows += _row(f"phases/{flags}/{p}", "us",
                         [(x["phases"][p][0],) * 2 for x in lines
                          if x["phases"].get(p) is not None and
                          x["phases"][p][0] is not None])
    return rows
