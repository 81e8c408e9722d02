# SPDX-License-Identifier: ISC
"""The report's tables, as Markdown lines, and the cells its prose
quotes."""
from names import kind, label, trapped
from stats import num, r1, sgn, shown, text
from targets import UPSTREAM_LIMIT, verdict


def table(head, align, rows):
    """A Markdown table: HEAD's cells, ALIGN's ("---", "---:"), ROWS."""
    return [_row(head), "|" + "|".join(align) + "|"] + [_row(r) for r in rows]


def _row(cells):
    return "|" + "".join(f" {c} |" if c != "" else " |" for c in cells)


def machine(run):
    def m(key):
        return text(run.machine.get(key))
    build = text(run.raw.micro[0]["context"].get("library_build_type"))
    gib = num(r1(run.machine["mem_kib"] / 1024 / 1024))
    return table(["", ""], ["---", "---"], [
        ["CPU", f"{m('cpu')}, {m('nproc')} CPUs (nproc)"],
        ["memory", f"{gib} GiB"],
        ["kernel", f"{m('kernel')} (BPF JIT: {m('bpf_jit_enable')}, "
         f"Landlock ABI {m('landlock_abi')})"],
        ["gcc", m("gcc")],
        ["google-benchmark", f"{m('benchmark')} (Debian's build, reports "
         f"itself as a **{build}** build: fine for ratios within one run)"],
        ["libseccomp", m("libseccomp")],
        ["hyperfine", m("hyperfine")],
        ["pinning", "micro-benchmarks: `sched_setaffinity` to CPU "
         f"{m('cpu_pinned')}; hyperfine and its commands: `taskset -c "
         f"{m('cpu_pinned')}`"],
        ["load average", f"{m('loadavg_start')} at start, "
         f"{m('loadavg_end')} at end (the VM is shared with other work)"]])


# --- per call -------------------------------------------------------------

def per_call(run):
    """Each call under each configuration's own processes."""
    rows = []
    for call in run.calls:
        row = [label(call), kind(call)]
        for c in run.configs:
            r = run.per_call[call, c]
            if r.median is None or (c != "untamed" and r.delta is None):
                row.append("-")
            elif c == "untamed":
                row.append(f"{r.median:.1f} ns")
            else:
                row.append(f"{sgn(r.delta)} ({r.ratio:.2f}x) "
                           f"[{sgn(r.dmin)}..{sgn(r.dmax)}]")
        rows.append(row)
    return table(["call", "kind"] + run.configs,
                 ["---", "---"] + ["---:"] * len(run.configs), rows)


def cell(run, call, config):
    """One call under one configuration: "+d ns (r x) [lo..hi]", or -."""
    r = run.per_call.get((call, config))
    if r is None or r.delta is None:
        return "-"
    return f"{sgn(r.delta)} ns ({r.ratio:.2f}x) [{sgn(r.dmin)}..{sgn(r.dmax)}]"


# The interleaved table's columns: configuration - floor.
PAIRED_COLUMNS = (("allow1", "untamed"), ("tame1", "allow1"),
                  ("tame3", "allow1"), ("tame3", "allow3"),
                  ("args1", "allow1"), ("tame1", "args1"),
                  ("args3", "allow3"), ("tame3", "args3"))


def paired(run):
    """Each interleaved call (the trap-priced ones have their own
    section): its paired differences, [95% interval] (one round's
    10th..90th percentile)."""
    by = {(p.call, p.config, p.floor): p for p in run.paired}
    calls = []
    for p in run.paired:
        if p.call not in calls and not trapped(p.call):
            calls.append(p.call)
    rows = []
    for call in calls:
        first = next(p for p in run.paired if p.call == call)
        base = [p.floor_median for p in run.paired
                if p.call == call and p.floor == "untamed"]
        row = [label(call), kind(call), first.n,
               f"{base[-1]:.1f}" if base else "-"]
        for config, floor in PAIRED_COLUMNS:
            p = by.get((call, config, floor))
            row.append("-" if p is None else
                       f"{sgn(p.median)} [{sgn(p.lo)}..{sgn(p.hi)}] "
                       f"({sgn(p.p10)}..{sgn(p.p90)})")
        rows.append(row)
    return table(["call", "kind", "rounds", "untamed ns"]
                 + [f"{c} - {f}" for c, f in PAIRED_COLUMNS],
                 ["---", "---"] + ["---:"] * (2 + len(PAIRED_COLUMNS)), rows)


def paired_cell(run, call, config, floor):
    """One interleaved difference: "+X ns [lo..hi]", or -."""
    p = next((p for p in run.paired if (p.call, p.config, p.floor) ==
              (call, config, floor)), None)
    if p is None:
        return "-"
    return f"{sgn(p.median)} ns [{sgn(p.lo)}..{sgn(p.hi)}]"


def paired_rounds(run, call):
    """How many rounds the interleaved call ran, or -."""
    p = next((p for p in run.paired if p.call == call), None)
    return "-" if p is None else str(p.n)


# --- one confining call ------------------------------------------------

def _operation(name):
    """What a latency row times."""
    for part, what in (
            ("allow1_load", "1-instruction filter, prctl+seccomp (floor)"),
            ("tame_first", "**tame(STDIO\\|RPATH)**, first call: "
             "compile+load"),
            ("compile_cold", "tame(STDIO\\|RPATH), its compile alone, first "
             "time in the process"),
            ("load_prebuilt", "tame(STDIO\\|RPATH), its load alone "
             "(prctl+seccomp of the program compiled beforehand)"),
            ("narrow/stdio,rpath,inet->", "later tame(): STDIO\\|RPATH\\|INET"
             " -> STDIO\\|RPATH (delta filter)"),
            ("narrow/stdio,rpath->stdio", "later tame(): STDIO\\|RPATH -> "
             "STDIO (delta + Landlock layer)"),
            ("libseccomp_load", "**libseccomp**: tame_oracle_bpf (two "
             "contexts, exported, joined) + load, same flags"),
            ("compile/tame_delta", "tame_compile, delta, warm (in-process "
             "loop)")):
        if part in name:
            return what
    if "compile/tame/" in name:
        return ("tame_compile " + name[len("compile/tame/"):]
                + ", warm (in-process loop)")
    if "compile/libseccomp" in name:
        return ("libseccomp: two contexts + BPF generation, joined, warm "
                "(in-process loop)")
    return name


def latency(run):
    return table(
        ["operation", "median µs", "p10..p90 µs (forked) / min..max of "
         "rounds (warm)", "samples", "BPF insns"],
        ["---", "---:", "---:", "---:", "---:"],
        [[_operation(r.name), f"{r.median:.1f}", f"{r.lo:.1f}..{r.hi:.1f}",
          r.samples, "-" if r.insns is None else num(r.insns)]
         for r in run.latency])


# The first call's variants (bench/fresh), as bench/run.sh names them.
FRESH = (("allow1", "a 1-instruction filter, prctl+seccomp (floor)"),
         ("stdio-rpath", "**tame(STDIO\\|RPATH)**"),
         ("stdio-rpath-inet-dnspath", "tame(STDIO\\|RPATH\\|INET\\|DNSPATH):"
          " also warms the resolver, looks for AF_UNIX sockets"),
         ("delta", "a second tame(), STDIO\\|RPATH\\|INET -> STDIO\\|RPATH "
          "(delta filter)"))


def fresh_value(run, name, attr):
    f = run.fresh.get(name)
    if f is None:
        return "-"
    v = getattr(f, attr)
    return str(v) if attr == "samples" else f"{v:.1f}"


def fresh(run):
    floor = run.fresh.get("allow1")
    rows = []
    for name, what in FRESH:
        f = run.fresh.get(name)
        x = "-" if f is None or floor is None or floor.median == 0 else \
            f"{f.median / floor.median:.1f}x"
        rows.append([what, fresh_value(run, name, "median"),
                     f"{fresh_value(run, name, 'p10')}.."
                     f"{fresh_value(run, name, 'p90')}",
                     fresh_value(run, name, "samples"), x])
    return table(["operation", "median µs", "p10..p90 µs", "samples",
                  "x floor"], ["---", "---:", "---:", "---:", "---:"], rows)


# The first call's steps, as bench/phases names them, in the order made.
PHASES = (
    ("check", "checks, state lock, flag expansion"),
    ("acquired", "what came before tame(): io_uring rings held or mapped "
     "(/proc/self: the descriptors' count, poll, PROCMAP_QUERY), a poller "
     "thread (threaded only), personality"),
    ("warm", "warming the name services (GETPW, DNSPATH: tame__warm)"),
    ("unix_look", "looking for AF_UNIX sockets (INET, DNSPATH: single-thread"
     " check, ppoll scan)"),
    ("landlock_create", "Landlock: is a layer needed (the paths', or the "
     "first call's domain layer); ABI probe"),
    ("landlock_rules", "Landlock: ruleset created, path rules added"),
    ("touch", "first touch of the precompiled program (or the policy table)"
     " and the workspace (page faults)"),
    ("compile", "the program: a precompiled one copied and relocated "
     "(lib/precompiled.sets), else compiled (tame_compile_fast)"),
    ("handler", "SIGSYS handler installed"),
    ("spare_sigsys", "SIGSYS out of the masks of handlers set before "
     "(each of the 64 actions asked), SIGSYS unblocked"),
    ("no_new_privs", "prctl(PR_SET_NO_NEW_PRIVS)"),
    ("landlock_restrict", "Landlock: landlock_restrict_self"),
    ("seccomp_attach", "audit marker write; seccomp(SET_MODE_FILTER, TSYNC):"
     " the kernel checks, JITs and caches the filter"))
PHASE_SETS = ("stdio-rpath", "stdio-rpath-inet-dnspath")


def phase(run, flags, name):
    """The phase NAME of the first call under FLAGS, or None."""
    return next((p for p in run.phases.get(flags, []) if p.name == name),
                None)


def phase_value(run, flags, name, attr="median"):
    p = phase(run, flags, name)
    return "-" if p is None else num(getattr(p, attr))


def percent(a, b):
    """A as a percentage of B, both as printed, or -."""
    if a == "-" or b == "-" or float(b) == 0:
        return "-"
    return f"{100 * float(a) / float(b):.0f}"


def phases(run):
    rows = []
    for name, what in PHASES:
        if all(phase(run, s, name) is None for s in PHASE_SETS):
            continue
        rows.append([what] + [phase_value(run, s, name, attr)
                              for s in PHASE_SETS
                              for attr in ("median", "faults")])
    sums = []
    whole = []
    ratios = []
    for s in PHASE_SETS:
        v = [phase_value(run, s, "sum", a)
             for a in ("median", "p10", "p90", "faults")]
        sums += [f"**{v[0]}** ({v[1]}..{v[2]})", v[3]]
        f = run.fresh.get(s)
        whole += [f"{fresh_value(run, s, 'median')} "
                  f"({fresh_value(run, s, 'p10')}.."
                  f"{fresh_value(run, s, 'p90')})",
                  "-" if f is None or f.faults is None else f.faults]
        ratios += [percent(v[0], fresh_value(run, s, "median")) + "%", ""]
    rows.append(["**sum of the phases** (median of per-sample sums; "
                 "p10..p90)"] + sums)
    rows.append(["the whole tame() timed by bench/fresh, same run (median; "
                 "p10..p90)"] + whole)
    rows.append(["sum of the phases / whole call"] + ratios)
    return table(["phase", "STDIO\\|RPATH µs", "faults",
                  "STDIO\\|RPATH\\|INET\\|DNSPATH µs", "faults"],
                 ["---", "---:", "---:", "---:", "---:"], rows)


def attach(run):
    """The kernel's attach by program shape, beside what the model
    fitted to the synthetic shapes predicts."""
    m = run.model
    rows = []
    for s in run.shapes:
        model = "-" if m is None else f"{_model(m, s):.1f}"
        rows.append([s.shape, s.length, s.steps, num(s.median),
                     f"{num(s.p10)}..{num(s.p90)}", model, s.samples])
    if not rows:
        rows = [["(not measured)", "", "", "", "", "", ""]]
    return table(["program", "instructions", "replay steps", "median µs",
                  "p10..p90 µs", "model µs", "samples"],
                 ["---"] + ["---:"] * 6, rows)


def _model(m, s):
    """µs the model gives shape S: the floor, and its instructions and
    replay steps beyond allow1's."""
    return m.floor_us + (m.ns_per_insn * (s.length - 1) + m.ns_per_step
                         * (s.steps - m.floor_steps)) / 1000


# --- whole commands --------------------------------------------------------

def _workload(workloads, name, empty):
    w = workloads.get(name)
    return "" if w is None else (empty if w == "" else w)


def _against_untamed(run, prefix, workloads, empty, label, what, none):
    """Each comparison PREFIX-NAME, a build against its untamed one: a
    row labelled label(NAME, its workload, EMPTY where it has none);
    WHAT names the other build's column and the first column."""
    rows = []
    for p in run.raw.rows(prefix):
        cells = _cells(run.compare(prefix + p), True)
        rows.append([label(p, _workload(workloads, p, empty))]
                    + cells[:4] + cells[6:])
    return table([what[1], "untamed median ms", f"{what[0]} median ms",
                  "ratio (median of rounds)", "per-round ratios", "runs"],
                 ["---"] + ["---:"] * 5, rows or [[none] + [""] * 5])


def ports(run):
    """Each port against its untamed build."""
    return _against_untamed(run, "port-", run.raw.port_workloads,
                            "(no arguments)", lambda p, w: f"tame-{p} `{w}`",
                            ("tamed", "port and workload"),
                            "(no port measured)")


def upstream(run):
    """Each upstream program tamed and its floor, each against the
    untamed build, and the target."""
    rows = []
    for p in run.raw.rows("upstream-"):
        if p.startswith("floor-"):
            continue
        t, f = run.compare("upstream-" + p), run.compare("upstream-floor-" + p)
        d = None if f is None else shown(t.ratio - f.ratio, 3)
        rows.append([f"{p} `{_workload(run.raw.upstream_workloads, p, '')}`",
                     f"{t.base_ms:.3f}", f"{t.tamed_ms:.3f}",
                     f"**{t.ratio:.3f}x**",
                     "-x" if f is None else f"{f.ratio:.3f}x",
                     "-" if d is None else f"{d:+.3f}",
                     verdict(d, "<=", UPSTREAM_LIMIT)])
    return table(["program and work", "untamed median ms", "tamed median ms",
                  "tamed ratio", "floor ratio", "beyond the floor", "target"],
                 ["---"] + ["---:"] * 5 + ["---"],
                 rows or [["(none built: make check-upstream)", "", "", "",
                           "", "", ""]])


def pledged(run):
    """Each program that pledges itself, its sandbox on, against its
    build with the sandbox off."""
    return _against_untamed(run, "pledged-", run.raw.pledged_workloads, "",
                            lambda p, w: f"{p} `{w}`",
                            ("pledged", "program and work"),
                            "(none built: make check-pledged)")


# The whole-command table: comparison, what it sets against what, and
# whether its ratio is a headline one (bold).
WHOLE = (
    ("cat-4k", "cat 4 KiB file: cat-untamed vs tame-cat", True),
    ("link-4k", "(attribution) cat 4 KiB file: cat-untamed vs cat-linked",
     False),
    ("floor-4k", "(floor) cat 4 KiB file: cat-untamed vs cat-floor", False),
    ("cat-100m", "cat 100 MB file: cat-untamed vs tame-cat", True),
    ("tame-exec-4k", "4 KiB file: /bin/cat vs tame-exec -f stdio,rpath -- "
     "/bin/cat", True),
    ("exec-floor-4k", "(floor) 4 KiB file: /bin/cat vs tame-exec's launcher "
     "and shim with a 1-instruction filter", False),
    ("handover-4k", "(handover) 4 KiB file, tame-exec -f stdio,rpath,inet "
     "(not precompiled): the shim compiling vs the launcher handing over",
     False),
    ("audit-100m", "cat-untamed 100 MB: bare vs tame-audit", True),
    ("strace-100m", "cat-untamed 100 MB: strace alone vs tame-audit", True),
    ("audit-ls", "ls -l /usr/bin: bare vs tame-audit", True),
    ("strace-ls", "ls -l /usr/bin: strace alone vs tame-audit", True),
    ("audit-view", "(view) true: tame-audit --once (one run, yours) vs "
     "tame-audit (the audited run in a view, then yours, plainly)",
     False),
    ("audit-plain", "(view) sort (1 MB): tame-audit --once vs tame-audit "
     "(the audited run in a view, then yours, plainly)", False),
    ("audit-suite", "a test suite (bench/suite.sh): bare vs tame-audit "
     "--profile, writing the suite's profile", True),
    ("strace-suite", "the test suite: strace alone vs tame-audit --profile",
     True),
    ("audit-long", "a long suite (bench/long-suite.sh, thousands of "
     "processes): bare vs tame-audit --profile", True),
    ("strace-long", "the long suite: strace alone vs tame-audit --profile",
     True),
    ("tame-exec-ls", "ls -l /usr/bin: bare vs tame-exec -f stdio,rpath,getpw",
     True),
    ("tame-exec-grep", "grep -c 99 (1 MB): bare vs tame-exec -f stdio,rpath",
     True),
    ("tame-exec-sort", "sort (1 MB): bare vs tame-exec -f stdio,rpath", True),
    ("tame-exec-sha256sum", "sha256sum (1 MB): bare vs tame-exec -f "
     "stdio,rpath", True),
    ("tame-exec-pipeline", "sh -c 'sort (1 MB) \\| uniq -c \\| sort -rn "
     "\\| head -n 5': bare vs tame-exec --profile (each program its "
     "audited flags)", True),
    ("exec-floor-pipeline", "(floor) the same pipeline: bare vs tame-exec's "
     "launcher and shim with a 1-instruction filter, the same profile",
     False),
    ("tame-exec-suite", "the test suite (bench/suite.sh): bare vs tame-exec "
     "--profile", True),
    ("pledge-shell", "a shell running 20 commands: bare vs tame-exec -p "
     "'stdio rpath proc exec' (the commands unpledged)", True),
    ("exec-floor-shell", "(floor) the same shell: bare vs tame-exec's "
     "launcher and shim with a 1-instruction filter", False),
    ("find-usr", "find /usr -type f: bare vs tame-exec -p 'stdio rpath' "
     "(Landlock)", True),
    ("find-usr-nolandlock", "the same without Landlock (tests/tools/refuse: "
     "paths the supervisor's)", True),
    ("find-usr-unveil", "the same under -v r:/usr: every stat by path the "
     "supervisor's", True),
    ("profile-4k", "(profile) /bin/cat 4 KiB file: tame-exec -f stdio,rpath "
     "vs tame-exec --profile giving cat stdio,rpath", False),
    ("audit-parse", "kept log of the long suite: wc -l vs tame-audit "
     "--from-log",
     False))


def whole(run):
    """Every whole-command comparison the run made (a run without one
    leaves its row out)."""
    return table(["comparison", "untamed median ms", "tamed median ms",
                  "ratio (median of rounds)", "per-round ratios",
                  "pooled medians' ratio", "fastest runs' ratio", "runs"],
                 ["---"] + ["---:"] * 7,
                 [[what] + _cells(run.compare(name), bold)
                  for name, what, bold in WHOLE if run.compare(name)])


def _cells(c, bold):
    """A comparison's cells, from the medians on."""
    ratio = f"{c.ratio:.3f}x"
    return [f"{c.base_ms:.3f}", f"{c.tamed_ms:.3f}",
            f"**{ratio}**" if bold else ratio, f"{c.lo:.2f}..{c.hi:.2f}x",
            f"{c.pooled:.3f}x", f"{c.fastest:.3f}x",
            f"{c.runs[0]} + {c.runs[1]}"]
