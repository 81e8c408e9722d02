# SPDX-License-Identifier: ISC
"""The census's report: census.json (everything), census.md (what a
reader needs: the counts, every defect in full, the rest summarised) and
census.svg (outcomes, and the flag sets suggested), drawn by gnuplot."""
import collections
import json
import os
import re
import shutil
import subprocess
import tempfile

from item import OUTCOMES

ARGS = ("--version", "--help")
EXAMPLES = 4


def _cell(text):
    return str(text).replace("|", "\\|").replace("\n", " ")


def _table(header, rows):
    out = ["| " + " | ".join(header) + " |",
           "|" + "|".join("---" for _ in header) + "|"]
    out += ["| " + " | ".join(_cell(c) for c in row) + " |" for row in rows]
    return out


def _examples(names, n=EXAMPLES):
    names = list(dict.fromkeys(names))
    more = f", ... ({len(names)} in all)" if len(names) > n else ""
    return ", ".join(names[:n]) + more


def _item(r):
    return f"`{r['program']} {r['arg']}`"


def _unexpressible(r):
    return ", ".join(dict.fromkeys(
        u["needs"] or "?" for u in r.get("audit", {}).get("unexpressible",
                                                           [])))


def _decided(results, untameable):
    """What a run decided (tame-audit's default in a hermetic view: code
    and soft blockers): items not tameable by kind before and after."""
    decided = [r for r in results if r.get("audit", {}).get("decided")]
    before, after = collections.Counter(), collections.Counter()
    for r in untameable:
        for k in {b.get("kind", "?") for b in r["audit"]["blockers"]}:
            # a verify blocker is the deciding run's answer
            before[k] += k != "verify"
            after[k] += 1
    for r in decided:
        for k in r["audit"]["decided"]:
            before[k] += 1
    md = ["", "## What a run decided", "",
          f"{len(decided)} items had only blockers a run decides (code, "
          "soft), and a run under the suggestion, in a hermetic view, ended "
          "as the untamed one: they were audited tameable (their tamed runs "
          "are in the outcomes above: "
          + ", ".join(f"{o} {n}" for o, n in collections.Counter(
              r["outcome"] for r in decided).most_common()) + "). "
          f"Not tameable: {len(untameable) + len(decided)} items before a "
          f"run decided, {len(untameable)} after.", ""]
    md += _table(["kind", "items before a run decided", "after"],
                 [[k, before[k], after[k]] for k in
                  sorted(before, key=lambda k: -before[k])]) \
        if before else ["None."]
    return md


def _reproduced(results):
    """The user's run (tame-audit's last, plain, in the real tree) against
    the audited run in its view: how often a view changed a run."""
    audits = [r["audit"] for r in results if "audit" in r and
              "reproduced" in r["audit"]]
    same = sum(1 for a in audits if a["reproduced"] is True)
    other = [r for r in results if r.get("audit", {}).get("reproduced")
             is False]
    md = ["", "## The user's run against the audited one", "",
          f"Each audit ends with one plain run of the command, the only one "
          f"whose effects are real (tame-audit(1), HERMETIC RUNS), compared "
          f"with the audited run made in a view: {same} of {len(audits)} "
          f"audits ended the same, {len(other)} otherwise"
          + (" (" + _examples([f"{r['program']} {r['arg']}" for r in other])
             + ")" if other else "") + ", "
          f"{len(audits) - same - len(other)} not compared."]
    return md


def _second_opinions(items):
    """--verify on the items a run could decide, and how its suggestions
    ran: the same target, killed 0 and differs 0."""
    md = ["", "## A second opinion: tame-audit --verify", ""]
    if not items:
        return md + ["No item was declared not tameable for a soft denial "
                     "or a module load alone."]
    out = collections.Counter(r["verify"]["outcome"] for r in items)
    bad = [r for r in items if r["verify"]["outcome"] in
           ("killed", "differs")]
    md += [f"{len(items)} items were declared not tameable only for "
           "blockers a run can decide (soft, code). `tame-audit --verify` "
           "ran each again under its suggestion: "
           + ", ".join(f"{o} {n}" for o, n in out.most_common())
           + ". Its suggestions, run tamed against the reference: killed "
           f"{sum(r['verify']['outcome'] == 'killed' for r in items)}, "
           f"differs {sum(r['verify']['outcome'] == 'differs' for r in items)}"
           + (" (target 0 and 0: met)." if not bad else
              " (target 0 and 0: **not met**).")]
    if bad:
        md += [""] + _table(["item", "flags", "outcome", "why"], [
            [_item(r), ",".join(r["verify"]["flags"]),
             r["verify"]["outcome"], r["verify"]["reason"]] for r in bad])
    tamed = [r for r in items if r["verify"]["outcome"] == "reproduced"]
    if tamed:
        md += ["", "Tamed after verification: " + _examples(
            [f"{r['program']} {r['arg']} ({','.join(r['verify']['flags'])})"
             for r in tamed], 12) + "."]
    return md


def _skip_class(reason):
    """Skip reasons grouped without their particulars (line numbers)."""
    reason = re.sub(r"^bare run \d: ", "", reason)
    reason = re.sub(r" at line \d+$", "", reason)
    reason = re.sub(r"exit -?\d+ and -?\d+", "different exit statuses", reason)
    return reason


def _counts(results):
    c = {o: {a: 0 for a in ARGS} for o in OUTCOMES}
    for r in results:
        c[r["outcome"]][r["arg"]] += 1
    return c


def _plot(census, counts, flagsets, outdir, here, workdir):
    svg = os.path.join(outdir, "census.svg")
    gnuplot = shutil.which("gnuplot")
    if not census["results"] or gnuplot is None:
        why = "no eligible programs" if not census["results"] else \
            "gnuplot is not installed"
        with open(svg, "w", encoding="utf-8") as f:
            f.write('<svg xmlns="http://www.w3.org/2000/svg" width="480" '
                    'height="60"><text x="10" y="35" font-family="sans-serif"'
                    f' font-size="14">census: {why}</text></svg>\n')
        return why if gnuplot is None else None
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        outcomes = os.path.join(tmp, "outcomes.tsv")
        with open(outcomes, "w", encoding="utf-8") as f:
            f.write("outcome\t--version\t--help\n")
            for o in OUTCOMES:
                f.write(f"{o}\t{counts[o]['--version']}\t"
                        f"{counts[o]['--help']}\n")
        sets = os.path.join(tmp, "flagsets.tsv")
        with open(sets, "w", encoding="utf-8") as f:
            f.write("set\titems\n")
            for s, items in flagsets[:8]:
                f.write(f"{s}\t{len(items)}\n")
            if not flagsets:
                f.write("(none)\t0\n")
        done = subprocess.run(
            [gnuplot, "-e", f"outcomes='{outcomes}'; sets='{sets}'; "
             f"out='{svg}'; title='{census['directory']}'",
             os.path.join(here, "census.gp")],
            capture_output=True, text=True)
    if done.returncode != 0:
        return "gnuplot failed: " + done.stderr.strip().splitlines()[-1]
    return None


def write(census, outdir, here, workdir):
    results = census["results"]
    counts = _counts(results)
    by = collections.defaultdict(list)
    for r in results:
        by[r["outcome"]].append(r)
    flagsets = collections.defaultdict(list)
    for r in results:
        if "flags" in r:
            flagsets[",".join(r["flags"])].append(r)
    flagsets = sorted(flagsets.items(), key=lambda kv: (-len(kv[1]), kv[0]))

    with open(os.path.join(outdir, "census.json"), "w",
              encoding="utf-8") as f:
        json.dump(census, f, indent=1)
    plot_problem = _plot(census, counts, flagsets, outdir, here, workdir)

    md = ["<!-- Generated by make census (census/report.py): do not edit. -->",
          f"# Census of {census['directory']}", ""]
    md += ["Every dynamically linked program of the directory, run with "
           "`--version` and with `--help`: twice bare, once under "
           "`tame-audit`, and once under `tame-exec -f` with the flags the "
           "audit suggested, which must reproduce the bare run's exit "
           "status and standard output (`make census`, census/census.py).",
           ""]
    md += _table(["", ""], [
        ["date", census["date"]],
        ["kernel", f"{census['kernel']} ({census['machine']})"],
        ["tame-audit", census["tame_audit"]],
        ["directory", census["directory"] + (
            f" (only {' '.join(census['only'])})" if census["only"] else "")],
        ["programs run as", census["run_as"] or "the user running the "
         "census"],
        ["timeouts", f"{census['timeout']:g} s a run, "
         f"{census['audit_timeout']} s an audit"],
        ["wall time", f"{census['wall_seconds']:.0f} s with -j "
         f"{census['jobs']} for the {census['items_run_now']} items run now"
         + (f"; {sum(h['seconds'] for h in census['history']):.0f} s over "
            f"the {len(census['history'])} runs that made these results"
            if len(census["history"]) > 1 else "")],
        ["item time", f"{census['item_seconds']:.0f} s (the sum of every "
         "item's own time)"],
    ])

    # --- programs -------------------------------------------------------
    ineligible = collections.defaultdict(list)
    for e in census["ineligible"]:
        ineligible[e["reason"]].append(e["name"])
    n_names = len(census["programs"]) + len(census["aliases"]) + len(
        census["ineligible"]) + len(census["skipped_by_list"])
    md += ["", "## Programs", ""]
    if not census["programs"]:
        md += ["**No eligible programs** in the directory: nothing was run.",
               ""]
    md += [f"{n_names} names: **{len(census['programs'])} programs "
           f"eligible**, {len(census['aliases'])} names that are symlinks "
           "to one of them (each file runs once, under the alphabetically "
           f"first of its names), {len(census['skipped_by_list'])} in the "
           f"skip list ({census['skip_list']['file']}, "
           f"{census['skip_list']['entries']} entries), and "
           f"{len(census['ineligible'])} not eligible:", ""]
    md += _table(["not eligible because", "names", "examples"], [
        [why, len(names), _examples(names)] for why, names in
        sorted(ineligible.items(), key=lambda kv: -len(kv[1]))] or
        [["(none)", 0, ""]])
    if census["skipped_by_list"]:
        md += ["", "Skipped by the list: " + ", ".join(
            f"{e['name']}" for e in census["skipped_by_list"]) + "."]

    # --- outcomes -------------------------------------------------------
    md += ["", "## Outcomes", ""]
    md += _table(["outcome", "--version", "--help", "total"], [
        [o, counts[o]["--version"], counts[o]["--help"],
         counts[o]["--version"] + counts[o]["--help"]] for o in OUTCOMES] + [
        ["**all**", sum(counts[o]["--version"] for o in OUTCOMES),
         sum(counts[o]["--help"] for o in OUTCOMES), len(results)]])
    killed, differs = len(by["killed"]), len(by["differs"])
    verdict = "met" if killed == 0 and differs == 0 else "**not met**"
    md += ["", f"Target: killed 0 and differs 0. This run: **killed "
           f"{killed} and differs {differs}**: {verdict}.", ""]
    md += ["![outcomes and suggested flag sets](census.svg)" if
           plot_problem is None else f"(no plot: {plot_problem})"]

    # --- defects, in full -------------------------------------------------
    md += ["", "## Killed under the suggested flags", ""]
    md += ["The last column is what the audit itself listed as calls no "
           "flag allows: where it is empty, the suggestion was wrong "
           "without a warning.", ""]
    md += _table(["item", "flags", "signal", "last line of stderr",
                  "audit: no flag allows"], [
        [_item(r), ",".join(r["flags"]), r["tamed"]["signal"],
         r["tamed"]["stderr_last"], _unexpressible(r)]
        for r in by["killed"]]) if by["killed"] else ["None."]
    md += ["", "## Different result under the suggested flags", ""]
    md += _table(["item", "flags", "what differs", "audit: no flag allows"],
                 [[_item(r), ",".join(r["flags"]), r["reason"],
                   _unexpressible(r)] for r in by["differs"]]) \
        if by["differs"] else ["None."]
    md += ["", "## Audit errors", ""]
    md += _table(["item", "detail"], [
        [_item(r), r["reason"]] for r in by["audit error"]]) \
        if by["audit error"] else ["None."]

    # --- declared not tameable, and calls no flag allows -------------------
    md += ["", "## Declared not tameable: blockers by kind", ""]
    kinds = collections.defaultdict(list)
    for r in by["not tameable"]:
        for b in r["audit"]["blockers"] or [{"kind": "(none given)"}]:
            kinds[b.get("kind", "?")].append((r, b))
    rows = []
    for kind, pairs in sorted(kinds.items(), key=lambda kv: -len(kv[1])):
        ex = "; ".join(f"{r['program']} {r['arg']}: {b.get('call', '')} "
                       f"{b.get('detail', '')}".strip()
                       for r, b in pairs[:3])
        rows.append([kind, len({(r['program'], r['arg']) for r, _ in pairs}),
                     ex])
    md += _table(["kind", "items", "examples (program, call, detail)"],
                 rows) if rows else ["None."]
    md += _decided(results, by["not tameable"])
    md += _reproduced(results)
    md += _second_opinions([r for r in by["not tameable"] if "verify" in r])
    calls = collections.defaultdict(list)
    for r in results:
        for u in r.get("audit", {}).get("unexpressible", []):
            calls[(u["needs"] or "?").split()[0]].append((r, u))
    md += ["", "## Calls no flag allows (tame-audit's `unexpressible`)", ""]
    md += _table(["call", "items", "as", "outcomes", "programs"], [
        [call, len({(r["program"], r["arg"]) for r, _ in pairs}),
         _examples(u["needs"] for _, u in pairs),
         ", ".join(f"{o} {n}" for o, n in collections.Counter(
             r["outcome"] for r in {(r["program"], r["arg"]): r
                                    for r, _ in pairs}.values()
         ).most_common()),
         _examples([f"{r['program']} {r['arg']}" for r, _ in pairs], 6)]
        for call, pairs in sorted(calls.items(), key=lambda kv:
                                  -len(kv[1]))]) if calls else ["None."]

    # --- what was suggested ---------------------------------------------
    md += ["", "## Suggested flag sets", ""]
    md += _table(["flags", "items", "reproduced", "examples"], [
        [s, len(items), sum(r["outcome"] == "reproduced" for r in items),
         _examples([f"{r['program']} {r['arg']}" for r in items])]
        for s, items in flagsets]) if flagsets else ["None."]

    # --- skipped ----------------------------------------------------------
    md += ["", "## Skipped: no reference run", ""]
    skips = collections.defaultdict(list)
    for r in by["skipped"]:
        skips[_skip_class(r["reason"])].append(f"{r['program']} {r['arg']}")
    md += _table(["reason", "items", "examples"], [
        [why, len(items), _examples(items)] for why, items in
        sorted(skips.items(), key=lambda kv: -len(kv[1]))]) \
        if skips else ["None."]

    # --- information ------------------------------------------------------
    stderr_diff = [r for r in results if r.get("tamed", {}).get(
        "stderr_difference") and r["outcome"] == "reproduced"]
    leftovers = [r for r in results if any(
        run.get("leftovers") for run in r.get("bare", []) +
        [r.get("audit", {}), r.get("tamed", {})])]
    md += ["", "## Also seen", ""]
    md += [f"- Reproduced, but with other standard error: "
           f"{len(stderr_diff)} items"
           + (": " + _examples([f"{r['program']} {r['arg']}" for r in
                                stderr_diff]) if stderr_diff else "") + "."]
    md += [f"- Runs that left processes behind (killed when the run ended):"
           f" {len(leftovers)} items" + (": " + _examples(
               [f"{r['program']} {r['arg']}" for r in leftovers])
               if leftovers else "") + "."]
    tmp = census["left_in_tmp"]
    md += [f"- New entries in /tmp owned by the user the programs ran as: "
           f"{len(tmp)}" + (": " + _examples(tmp, 8) if tmp else "") + (
               " (removed after the census)" if tmp and
               census["tmp_removed"] else " (left there)" if tmp else "")
           + "."]
    md += ["", "Raw data: census.json (every item: both bare runs, the audit"
           " with its flags, blockers and unexpressible calls, the tamed "
           "run)."]
    with open(os.path.join(outdir, "census.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(md) + "\n")
