# SPDX-License-Identifier: ISC
"""make bench-compare: what changed between two `make bench` runs, row by
row, from their raw data.

    python3 -B bench/report/compare.py OLD NEW

OLD and NEW are reports directories (the committed reports/ and a
BENCH_REPORTS=DIR run, say) or their raw/; relative paths are the
repository's, as they are to bench/run.sh.

 1. the per-call rows (each configuration's google-benchmark process,
    the interleaved batches), the first-call rows and their phases, and
    the tame() latency rows: google-benchmark's own compare.py (Debian's
    libbenchmark-tools) on both runs' data as google-benchmark JSON
    (gbench.py); each row's median and mean change, and its U test over
    every sample
 2. the interleaved paired differences the per-call targets are judged
    on: old and new median with their 95% intervals
 3. the whole commands (hyperfine): per command, the old and new
    median, their ratio, and whether the ranges of the per-round medians
    overlap; per comparison, the same for the ratio

Environment: BENCH_PYTHON (/usr/bin/python3: Debian's, which has
python3-scipy), BENCH_COMPARE_PY (/usr/share/benchmark/compare.py).
"""
import json
import os
import subprocess
import sys
import tempfile

# the comparison writes nothing beside its sources (no __pycache__)
sys.dont_write_bytecode = True
import gbench  # noqa: E402
from raw import Raw  # noqa: E402
from stats import median  # noqa: E402
from summary import paired  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def main(argv):
    if len(argv) != 2:
        print("usage: bench/report/compare.py OLD NEW (reports directories)",
              file=sys.stderr)
        return 2
    os.chdir(ROOT)
    python = os.environ.get("BENCH_PYTHON") or "/usr/bin/python3"
    tool = os.environ.get("BENCH_COMPARE_PY") or \
        "/usr/share/benchmark/compare.py"
    if not os.access(tool, os.R_OK):
        print(f"bench-compare: no {tool} (Debian: libbenchmark-tools)",
              file=sys.stderr)
        return 1
    try:
        old, new = (Raw(_raw_of(d)) for d in argv)
    except LookupError as e:
        print(f"bench-compare: {e}", file=sys.stderr)
        return 1

    print(f"# bench-compare: {old.path} -> {new.path}")
    ok = _google(python, tool, old, new)
    _paired(old, new)
    _whole(old, new)
    return 0 if ok else 1


def _raw_of(d):
    """A reports directory's raw data, or the raw directory itself."""
    for raw in (d + "/raw", d):
        if os.access(os.path.join(raw, "micro.json"), os.R_OK):
            return raw
    raise LookupError(f"{d} holds no raw/micro.json")


def _google(python, tool, old, new):
    """Section 1, through google-benchmark's compare.py; False where it
    failed (its own words are on standard error)."""
    print("""
## Per call, first call, latency (google-benchmark compare.py)

Time and CPU: relative change of the row's median and mean, new
over old minus one (-0.05 is 5% faster); _pvalue: U test over every
sample (low: the samples differ).  Times in ns (per call, and per
forked sample for latency/), in µs for fresh/ and phases/.
""", flush=True)  # before compare.py's warnings, if any
    with tempfile.TemporaryDirectory(prefix="bench-compare.") as tmp:
        files = []
        for name, raw in (("old", old), ("new", new)):
            files.append(os.path.join(tmp, name + ".json"))
            with open(files[-1], "w", encoding="utf-8") as f:
                json.dump(gbench.document(raw), f)
        done = subprocess.run([python, tool, "-a", "--no-color",
                               "benchmarks"] + files,
                              stdout=subprocess.PIPE, text=True)
    # its table, without the lines that name the temporary files
    lines = done.stdout.splitlines(keepends=True)
    start = next((i for i, line in enumerate(lines)
                  if line.startswith("Benchmark")), len(lines))
    sys.stdout.write("".join(lines[start:]))
    if done.returncode != 0:
        print(f"bench-compare: {tool} failed ({done.returncode})",
              file=sys.stderr)
    return done.returncode == 0


def _paired(old, new):
    print("""
## Interleaved paired differences (ns per call, 95% interval)
""")
    was = {(p.call, p.config, p.floor): p for p in paired(old.interleave)}
    now = paired(new.interleave)
    if not was or not now:
        print("(not in both runs)")
        return
    print(f"{'call':<22} {'difference':<15} {'old':>24} {'new':>24} "
          f"{'change':>9} overlap")
    for p in now:
        o = was.get((p.call, p.config, p.floor))
        if o is None:
            continue
        print(f"{p.call:<22} {p.config + '-' + p.floor:<15} "
              f"{_interval(o):>24} {_interval(p):>24} "
              f"{p.median - o.median:+9.1f} "
              f"{_yes(p.lo <= o.hi and o.lo <= p.hi)}")


def _interval(p):
    return f"{p.median:.1f} [{p.lo:.1f}..{p.hi:.1f}]"


def _yes(b):
    return "yes" if b else "no"


def _commands(rounds):
    """Per command of one comparison's rounds, sorted: its median ms over
    every run, each round's median ms, and whether it is the base (the
    command round 1 ran first: bench/run.sh names the untamed one
    first)."""
    base = rounds[0]["results"][0]["command"]
    by = {}
    for doc in rounds:
        for r in doc["results"]:
            by.setdefault(r["command"], []).append(r)
    return [(c, median([t for r in by[c] for t in r["times"]]) * 1000,
             [r["median"] * 1000 for r in by[c]], c == base)
            for c in sorted(by)]


def _ratios(base, tamed):
    """Each round's tamed/base ratio, sorted, and their median."""
    x = sorted(t / b for b, t in zip(base, tamed))
    return x, median(x)


def _whole(old, new):
    print("""
## Whole commands (hyperfine)

Per command: median ms, old and new, their ratio, and whether the
ranges of the per-round medians overlap.  Per comparison (ratio):
the median of the rounds' tamed/untamed ratios, old and new, and
whether their ranges overlap.
""")
    print(f"{'row':<22} {'command':<16} {'old ms':>10} {'new ms':>10} "
          f"{'new/old':>7} {'old rounds':<20} {'new rounds':<20} overlap")
    for name in sorted(old.hyperfine):
        if name not in new.hyperfine:
            continue
        was = _commands(old.hyperfine[name])
        before = {c: (med, rounds) for c, med, rounds, _ in was}
        # each side's per-round medians, base and tamed: the old run's
        # of every command, the new run's of those both runs have
        side = {}
        for c, _, rounds, is_base in was:
            side["old", is_base] = rounds
        for c, med, rounds, is_base in _commands(new.hyperfine[name]):
            if c not in before:
                continue
            omed, orounds = before[c]
            print(f"{name:<22} {c[:16]:<16} {omed:10.3f} {med:10.3f} "
                  f"{med / omed:7.3f} {_span(sorted(orounds)):<20} "
                  f"{_span(sorted(rounds)):<20} "
                  f"{_overlap(sorted(orounds), sorted(rounds))}")
            side["new", is_base] = rounds
        if len(side) < 4:
            continue
        ox, om = _ratios(side["old", True], side["old", False])
        nx, nm = _ratios(side["new", True], side["new", False])
        print(f"{name:<22} {'(ratio)':<16} {om:10.3f} {nm:10.3f} "
              f"{nm / om:7.3f} {_span(ox):<20} {_span(nx):<20} "
              f"{_overlap(ox, nx)}")


def _span(x):
    """A sorted list's range."""
    return f"{x[0]:.3f}..{x[-1]:.3f}"


def _overlap(a, b):
    """Whether the ranges of two sorted lists overlap."""
    return _yes(b[0] <= a[-1] and a[0] <= b[-1])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
