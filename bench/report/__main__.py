# SPDX-License-Identifier: ISC
"""make bench's report: reports/latest.md and its SVG plots, from the raw
results bench/run.sh wrote to reports/raw/.

    python3 -B bench/report

Environment, as bench/run.sh's: B (the build directory, build; the
plots' data go to $B/bench/report), BENCH_REPORTS (reports: the run's
directory, holding raw/), BENCH_QUICK (a quick run's report, in
$B/bench/quick unless BENCH_REPORTS says otherwise).  Relative paths are
the repository's, as they are to run.sh.
"""
import os
import shutil
import subprocess
import sys

# the report writes nothing beside its sources (no __pycache__)
sys.dont_write_bytecode = True
import document  # noqa: E402
import plots  # noqa: E402
from raw import Raw  # noqa: E402
from summary import Run  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__))))


def main(argv):
    if argv:
        print("usage: python3 -B bench/report (see its environment)",
              file=sys.stderr)
        return 2
    os.chdir(ROOT)
    build = os.environ.get("B") or "build"
    reports = os.environ.get("BENCH_REPORTS") or (
        os.path.join(build, "bench", "quick")
        if os.environ.get("BENCH_QUICK") else "reports")
    raw = os.path.join(reports, "raw")
    if not os.path.exists(os.path.join(raw, "micro.json")):
        print(f"bench: no {raw}/micro.json: make bench writes it",
              file=sys.stderr)
        return 1
    work = os.path.join(build, "bench", "report")
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)

    run = Run(Raw(raw))
    try:
        plots.draw(run, work, reports)
    except subprocess.CalledProcessError as e:
        print(f"bench: {e.cmd[0]} failed ({e.returncode})", file=sys.stderr)
        return 1
    md = os.path.join(reports, "latest.md")
    with open(md, "w", encoding="utf-8") as f:
        f.write(document.latest(run))
    print(f"bench: wrote {md}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
