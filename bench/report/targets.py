# SPDX-License-Identifier: ISC
"""DESIGN.md's performance targets judged on one run: each target's row,
its measured cell and its verdict.  A verdict knows the noise where the
run measured it: per-call rows take every call's 95% interval, the
whole-command ones with "noisy" the spread of their rounds."""
from names import cached, label, trapped
from stats import num, shown, sgn, text

MET, NOT_MET, NOT_MEASURED = "met", "**not met**", "not measured"

# ns a call beyond the floor, by kind of call ("cached" or "arg")
PER_CALL_LIMIT = {"cached": 3, "arg": 15}
# an upstream program tamed, beyond its floor's ratio
UPSTREAM_LIMIT = 0.02


def verdict(value, op, limit):
    """VALUE against LIMIT (op "<=" or ">=")."""
    if value is None:
        return NOT_MEASURED
    ok = value <= limit if op == "<=" else value >= limit
    return MET if ok else NOT_MET


def noisy(limit, median, lo, hi):
    """A verdict that knows the spread: met when even the worst round is
    within LIMIT, not met when even the best is over it, undecided when
    the rounds straddle it."""
    if median is None:
        return NOT_MEASURED
    if hi <= limit:
        return MET
    if lo > limit:
        return NOT_MET
    return _undecided(median, limit)


def _undecided(median, limit):
    return "undecided (median %s)" % ("within" if median <= limit
                                      else "over")


def _same_kind(call, kind):
    return not trapped(call) and (kind == "cached") == cached(call)


def paired_worst(run, config, floor, kind, limit):
    """Of the interleaved rows CONFIG - FLOOR of a KIND of call ("cached"
    or "arg"), the one whose median difference is worst, and the verdict
    on every call of the kind together: any interval wholly over LIMIT,
    not met; all wholly within, met; else undecided.  (None, "not
    measured") without rows."""
    rows = [p for p in run.paired if p.config == config and
            p.floor == floor and _same_kind(p.call, kind)]
    if not rows:
        return None, NOT_MEASURED
    worst = rows[0]
    for p in rows[1:]:
        if p.median > worst.median:
            worst = p
    if any(p.lo > limit for p in rows):
        return worst, NOT_MET
    if any(p.hi > limit for p in rows):
        return worst, _undecided(worst.median, limit)
    return worst, MET


def _paired_cell(worst):
    if worst is None:
        return "-"
    return (f"worst {label(worst.call)}: {sgn(worst.median)} ns (95% "
            f"interval of the median {sgn(worst.lo)}..{sgn(worst.hi)}; "
            f"one round {sgn(worst.p10)}..{sgn(worst.p90)}; {worst.n} "
            "rounds)")


def per_process_worst(run, config, kind, beyond_allow1=False):
    """The worst delta against untamed of a KIND of call in CONFIG's own
    processes, or with BEYOND_ALLOW1 the worst of that delta less
    allow1's: what libtame adds to having any filter at all.  (ns,
    label), or None."""
    worst = None
    for call in run.calls:
        if not _same_kind(call, kind):
            continue
        d = _delta(run, call, config)
        if beyond_allow1:
            a = _delta(run, call, "allow1")
            d = None if d is None or a is None else d - a
        if d is not None and (worst is None or d > worst[0]):
            worst = (d, label(call))
    return worst


def _delta(run, call, config):
    row = run.per_call.get((call, config))
    return row.delta if row else None


def _fig(c, attr, places):
    """A comparison's figure as printed, or "-"."""
    return "-" if c is None else f"{getattr(c, attr):.{places}f}"


def _diff(a, b):
    """A - B of two printed ratios, as printed (three places)."""
    if a is None or b is None:
        return None
    return shown(a.ratio - b.ratio, 3)


def _signed(x):
    return "-" if x is None else f"{x:+.3f}"


def _ratio_and_floor(c, floor, limit):
    """The cells of "tamed <= its floor's ratio + LIMIT"."""
    d = _diff(c, floor)
    return [f"{_fig(c, 'ratio', 3)}x (rounds {_fig(c, 'lo', 2)}.."
            f"{_fig(c, 'hi', 2)}x); floor {_fig(floor, 'ratio', 3)}x "
            f"(rounds {_fig(floor, 'lo', 2)}..{_fig(floor, 'hi', 2)}x): "
            f"{_signed(d)}", verdict(d, "<=", limit) + " (medians)"]


def _rounds(c):
    return f"{_fig(c, 'ratio', 3)}x (rounds {_fig(c, 'lo', 2)}.." \
        f"{_fig(c, 'hi', 2)}x)"


def _noisy(c, limit):
    if c is None:
        return NOT_MEASURED
    return noisy(limit, c.ratio, c.lo, c.hi)


def _quotient(a, b, places):
    """A / B as printed, or None."""
    if a is None or b is None or b == 0:
        return None
    return shown(a / b, places)


def _text(x, places):
    return "-" if x is None else f"{x:.{places}f}"


def _fresh(f, attr):
    return "-" if f is None else f"{getattr(f, attr):.1f}"


def _num(row):
    return "-" if row is None else num(row.median)


def table(run):
    """The targets table's rows after its head: target, measured,
    verdict."""
    return _per_call(run) + _first_call(run) + _whole(run)


def _per_call(run):
    rows = []
    # (the kernel's share of an argument check is no target of ours: its
    # rows say whose it is instead of a verdict)
    for what, config, floor, kind, ours in (
            ("cached syscall (getpid, read, write) <= +3 ns beyond allow1,"
             " one tame()", "tame1", "allow1", "cached", True),
            ("cached syscall <= +3 ns beyond allow1, three tame()", "tame3",
             "allow1", "cached", True),
            ("argument-checked (openat, ioctl, socket) <= +15 ns beyond "
             "allow1, one tame()", "tame1", "allow1", "arg", True),
            ("argument-checked <= +15 ns beyond allow3, three tame()",
             "tame3", "allow3", "arg", True),
            ("... of which the kernel's own, at one tame(): the least "
             "filter that checks an argument (args1) beyond allow1", "args1",
             "allow1", "arg", False),
            ("... and libtame's: tame1 beyond args1 (target +15 ns)",
             "tame1", "args1", "arg", True),
            ("... of which the kernel's own, at three: three such filters "
             "in tame3's Landlock domain (args3) beyond allow3", "args3",
             "allow3", "arg", False),
            ("... and libtame's: tame3 beyond args3 (target +15 ns)",
             "tame3", "args3", "arg", True)):
        worst, v = paired_worst(run, config, floor, kind,
                                PER_CALL_LIMIT[kind])
        rows.append([what, _paired_cell(worst), v if ours else
                     "the kernel's"])
    return rows


def _first_call(run):
    rows = []
    first, floor = run.fresh.get("stdio-rpath"), run.fresh.get("allow1")
    delta = run.fresh.get("delta")
    ft = first.median if first else None
    fa1 = floor.median if floor else None
    ftr = _quotient(ft, fa1, 1)
    rows.append(["first tame(STDIO\\|RPATH) in a freshly exec'd program <= "
                 "90 µs", f"median {_text(ft, 1)} µs (p10..p90 "
                 f"{_fresh(first, 'p10')}..{_fresh(first, 'p90')})",
                 noisy(90, ft, first.p10, first.p90) if first
                 else NOT_MEASURED])
    rows.append(["... and <= 4x a 1-insn filter in the same kind of process",
                 f"{_text(ftr, 1)}x ({_text(ft, 1)} / {_text(fa1, 1)} µs)",
                 verdict(ftr, "<=", 4)])
    rows.append(["later tame(), delta without a new Landlock layer, <= 25 µs",
                 f"median {_fresh(delta, 'median')} µs in a fresh program "
                 f"(p10..p90 {_fresh(delta, 'p10')}..{_fresh(delta, 'p90')})",
                 noisy(25, delta.median, delta.p10, delta.p90) if delta
                 else NOT_MEASURED])
    ls = run.lat("latency/libseccomp_load/stdio,rpath")
    tf = run.lat("latency/tame_first/stdio,rpath")
    lsr = _quotient(ls and ls.median, tf and tf.median, 1)
    rows.append(["well under libseccomp's compile+load (taken as >= 5x)",
                 f"libseccomp {_num(ls)} µs = {_text(lsr, 1)}x tame()'s",
                 verdict(lsr, ">=", 5)])
    return rows


def _whole(run):
    rows = []
    c = run.compare
    rows.append(["tamed cat, 4 KiB file, <= its floor's ratio + 0.08"]
                + _ratio_and_floor(c("cat-4k"), c("floor-4k"), 0.08))
    read = run.machine.get("cat_read_size")
    rows.append([f"tamed cat, 100 MB in {read // 1024 if read else '-'} KiB "
                 "reads, <= its floor's ratio + 0.01"]
                + _ratio_and_floor(c("cat-100m"), c("floor-100m"), 0.01))
    ping, ping_floor = c("port-ping"), c("floor-ping")
    if ping is None or ping_floor is None:
        ping = ping_floor = None
    rows.append(["tamed ping -c 5000 -i 0 on loopback, <= its floor's ratio "
                 "+ 0.01"] + _ratio_and_floor(ping, ping_floor, 0.01))
    ex, exf = c("tame-exec-4k"), c("exec-floor-4k")
    rows.append(["`tame-exec -f stdio,rpath -- /bin/cat` 4 KiB <= 1.30x "
                 "bare", _rounds(ex), verdict(ex and ex.ratio, "<=", 1.30)
                 + " (median)"])
    d = _diff(ex, exf)
    rows.append(["... and <= tame-exec's floor's ratio + 0.10 (launcher and "
                 "shim, a 1-instruction filter)",
                 f"{_fig(ex, 'ratio', 3)}x; floor {_fig(exf, 'ratio', 3)}x "
                 f"(rounds {_fig(exf, 'lo', 2)}..{_fig(exf, 'hi', 2)}x): "
                 f"{_signed(d)}", verdict(d, "<=", 0.10) + " (medians)"])
    tools = [("ls -l", c("tame-exec-ls")), ("grep", c("tame-exec-grep")),
             ("sort", c("tame-exec-sort")),
             ("sha256sum", c("tame-exec-sha256sum"))]
    measured = [t.ratio for _, t in tools if t is not None]
    worst = max(measured) if measured else None
    rows.append(["tame-exec on ls -l, grep, sort, sha256sum <= 1.30x bare "
                 "each", ", ".join(f"{name} {_fig(t, 'ratio', 3)}x"
                                   for name, t in tools)
                 + f" (medians of rounds; worst {_text(worst, 3)}x)",
                 verdict(worst, "<=", 1.30) + " (worst)"])
    a100, s100 = c("audit-100m"), c("strace-100m")
    als, sls = c("audit-ls"), c("strace-ls")
    rows.append(["`tame-audit` on a syscall-heavy command (cat-untamed, 100 "
                 "MB in 4 KiB reads) <= 25x bare", _rounds(a100)
                 + "; strace alone is "
                 + _text(_quotient(s100 and s100.base_ms,
                                   a100 and a100.base_ms, 2), 2) + "x bare",
                 _noisy(a100, 25)])
    rows.append(["... and <= 1.2x strace alone", _rounds(s100),
                 _noisy(s100, 1.2)])
    rows.append(["`tame-audit` on a typical command (ls -l /usr/bin) <= 1.2x "
                 "strace alone", _rounds(sls) + f"; {_fig(als, 'ratio', 3)}x "
                 "bare, strace alone " + _text(_quotient(
                     sls and sls.base_ms, als and als.base_ms, 2), 2) + "x",
                 _noisy(sls, 1.2)])
    along, slong = c("audit-long"), c("strace-long")
    rows.append(["`tame-audit --profile` on a long suite (thousands of "
                 "processes) <= 1.5x strace alone", _rounds(slong)
                 + f"; {_fig(along, 'ratio', 3)}x bare, strace alone "
                 + _text(_quotient(slong and slong.base_ms,
                                   along and along.base_ms, 2), 2) + "x",
                 _noisy(slong, 1.5)])
    parse = c("audit-parse")
    lines = run.machine.get("audit_log_lines")
    rate = shown(lines / (parse.tamed_ms / 1000), 0) \
        if parse and lines is not None and parse.tamed_ms else None
    size = run.machine.get("audit_log_bytes")
    rows.append(["tame-audit log reading >= 10^6 lines/s",
                 f"{_text(rate, 0)} lines/s ({text(lines)} lines, "
                 f"{size // 1048576 if size is not None else '-'} MiB of "
                 f"the long suite's trace, in {_fig(parse, 'tamed_ms', 3)} ms, "
                 "median)",
                 verdict(rate, ">=", 1000000)])
    return rows


def limits(run):
    """Any filter at all (allow1) against what libtame adds beyond it,
    from the per-configuration processes: rows of cached and of
    argument-checked calls."""
    def cell(w):
        return "- ns (-)" if w is None else f"{sgn(w[0])} ns ({w[1]})"
    return [[what, cell(per_process_worst(run, "allow1", kind)),
             cell(per_process_worst(run, "tame1", kind, True)),
             cell(per_process_worst(run, "tame3", kind, True))]
            for what, kind in (("cached calls", "cached"),
                               ("argument-checked calls", "arg"))]
