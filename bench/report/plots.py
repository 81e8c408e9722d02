# SPDX-License-Identifier: ISC
"""The report's SVG plots: their data as TSV in the work directory, drawn
by gnuplot with bench/*.gp."""
import os
import re
import subprocess

from names import label, trapped
from stats import num

# The whole-command plot's grey bars (cat.gp's "target" column), fixed
# ratios: tame-exec's is its target, tame-cat's are not (its targets are
# its floor's ratio plus a margin, targets.py, which a bar cannot show).
CAT_BARS = (("tame-cat 4 KiB", "cat-4k", "1.10"),
            ("tame-cat 100 MB", "cat-100m", "1.05"),
            ("tame-exec /bin/cat 4 KiB", "tame-exec-4k", "1.30"))


# Every run of a comparison, untamed and tamed: comparison, title, SVG,
# the two commands' legends.
CDFS = (("cat-4k", "cat of a 4 KiB file, every run", "cat-4k-cdf.svg",
         "cat-untamed", "tame-cat"),
        ("tame-exec-4k", "/bin/cat of a 4 KiB file", "tame-exec-cdf.svg",
         "/bin/cat", "tame-exec -f stdio,rpath -- /bin/cat"))


def draw(run, work, out):
    """Every plot of RUN into OUT, their data into WORK."""
    def data(name, lines):
        path = os.path.join(work, name)
        with open(path, "w", encoding="utf-8") as f:
            f.write("".join(line + "\n" for line in lines))
        return path

    def gnuplot(script, **values):
        subprocess.run(["gnuplot", "-e", "; ".join(
            f"{k}='{v}'" for k, v in values.items()),
            os.path.join("bench", script)], check=True)

    gnuplot("syscalls.gp", data=data("syscalls-plot.tsv", _per_call(run)),
            out=os.path.join(out, "syscalls.svg"))
    gnuplot("latency.gp", data=data("latency-plot.tsv", _latency(run)),
            out=os.path.join(out, "latency.svg"))
    gnuplot("cat.gp", data=data("cat-plot.tsv", _whole(run)),
            out=os.path.join(out, "cat.svg"))
    for name, title, svg, la, lb in CDFS:
        runs = _cdf(run.raw.hyperfine.get(name, []))
        if len(runs) != 2:
            print(f"bench: no {name} runs to draw {svg} from")
            continue
        (ca, a), (cb, b) = runs
        gnuplot("cdf.gp", a=data(f"cdf-{name}-{_file(ca)}.tsv", a),
                b=data(f"cdf-{name}-{_file(cb)}.tsv", b), la=la, lb=lb,
                t=title, out=os.path.join(out, svg))


def _per_call(run):
    """Each call (the trap-priced ones, microseconds not nanoseconds,
    have their own section) against untamed, under every configuration
    but the trap-pricing ones."""
    configs = [c for c in run.configs if not c.startswith("tame-")][1:]
    lines = ["\t".join(["call"] + configs)]
    for call in run.calls:
        if trapped(call):
            continue
        name = re.sub(r" /dev/(zero|null)| 4 KiB file| pipe| AF_INET UDP",
                      "", label(call), count=1)
        d = [run.per_call[call, c].delta for c in configs]
        lines.append("\t".join([name] + ["NaN" if x is None else num(x)
                                         for x in d]))
    return lines


def _latency(run):
    """Each latency row, its name short: µs median, p10, p90."""
    lines = []
    for r in run.latency:
        name = r.name
        for old, new in (("latency/", ""), ("/stdio,rpath", ""),
                         ("stdio,rpath,inet->", "+inet->"),
                         ("stdio,rpath->stdio", "->stdio")):
            if old == "latency/":
                name = name[len(old):] if name.startswith(old) else name
            else:
                name = name.replace(old, new, 1)
        lines.append("\t".join([name, num(r.median), num(r.lo), num(r.hi)]))
    return lines


def _whole(run):
    lines = ["comparison\tmeasured\ttarget"]
    for what, name, bar in CAT_BARS:
        c = run.compare(name)
        lines.append(f"{what}\t{'NaN' if c is None else f'{c.ratio:.3f}'}"
                     f"\t{bar}")
    return lines


def _cdf(rounds):
    """Both commands of a comparison, the base first: (command, every
    run's ms, sorted)."""
    times = {}
    for doc in rounds:
        for r in doc["results"]:
            times.setdefault(r["command"], []).extend(r["times"])
    return [(c, [num(t * 1000) for t in sorted(times[c])])
            for c in list(times)[:2]]


def _file(command):
    return re.sub(r"[^A-Za-z0-9-]", "_", command)
