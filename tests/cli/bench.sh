#!/bin/sh
# SPDX-License-Identifier: ISC
# make bench, quickly: every benchmark runs once, briefly (BENCH_QUICK=1),
# into a scratch directory, and the report comes out whole and well
# formed; bench/report/compare.py (make bench-compare) compares the run
# with a copy of itself and says so row by row.  Numbers are not judged
# here (no timing assertions): only that a run compared with itself shows
# no change.
B=${B:-build}
PY="/usr/bin/python3 -B"
dir=$(mktemp -d /var/tmp/tame-bench.XXXXXX)
copy=$(mktemp -d /var/tmp/tame-bench-copy.XXXXXX)
trap 'rm -rf "$dir" "$copy"' EXIT
fail=0
no() { echo "bench.sh: $*"; fail=1; }

if ! BENCH_QUICK=1 BENCH_REPORTS="$dir" B="$B" sh bench/run.sh \
    >"$dir/run.log" 2>&1; then
	tail -20 "$dir/run.log"
	no "bench/run.sh failed"
	exit 1
fi
grep -q '^bench: round 1/1: latency' "$dir/run.log" ||
    no "no progress lines on the terminal"
BENCH_REPORTS="$dir" B="$B" $PY bench/report >"$dir/report.log" 2>&1 ||
    { cat "$dir/report.log"; no "bench/report failed"; exit 1; }
grep -q 'error' "$dir/report.log" && no "bench/report said: $(cat "$dir/report.log")"

md=$dir/latest.md
for section in '## Machine' '## Targets (DESIGN.md)' \
    '## The first tame(), as programs pay it' '### Where the first call goes' \
    "### What the kernel's attach costs, by program shape" \
    '## Per call, interleaved' \
    '## Cost per system call' '## What the traps cost' '## tame() latency' \
    '## Whole commands (hyperfine)'; do
	grep -qxF "$section" "$md" || no "latest.md has no '$section'"
done
# every configuration measured, every target row judged
for c in untamed allow1 allow3 tame1 tame3 libseccomp tame-norpath \
    tame-cmsg tame-nounix; do
	jq -e --arg c "$c" 'any(.[]; .config == $c)' "$dir/raw/micro.json" \
	    >/dev/null || no "no results for configuration $c"
done
# a target row names its limit (<= or >=); each has a verdict
targets=$(sed -n '/^## Targets/,/^## /p' "$md" |
    grep -E '^\| ([^|]|\\\|)*[<>]= ')
rows=$(printf '%s\n' "$targets" | grep -c .)
[ "$rows" -ge 12 ] || no "the targets table has $rows rows"
printf '%s\n' "$targets" |
    grep -Ev '\| (met|\*\*not met\*\*|undecided.*|not measured)( \(.*\))? \|$' |
    grep . && no "a target row without a verdict"
grep -Eiq '(^|[ |(])-?(nan|null|inf)([ |)x]|$)' "$md" &&
    no "latest.md shows nan, null or inf"
# the first call's phases: each flag set's sum and the whole call beside it
for row in '| **sum of the phases**' '| the whole tame() timed by bench/fresh' \
    '| sum of the phases / whole call' \
    '| the program: a precompiled one copied and relocated' \
    '| audit marker write; seccomp(SET_MODE_FILTER, TSYNC)'; do
	grep -F "$row" "$md" | grep -Eq '\| [0-9.*]+[ %(*]' ||
	    no "the phases table has no numbers in '$row'"
done
# the attach shapes: each timed, and tame()'s own beside its model
for shape in allow1 skip-1024 walk-256 'tame:stdio,rpath'; do
	grep -F "| $shape |" "$md" | grep -Eq '\| [0-9.]+ \| [0-9.]+\.\.[0-9.]+ \| [0-9.]+ \|' ||
	    no "the attach table has no numbers for $shape"
done
# every interleaved call has its row, every difference a median
# and an interval: four for the cached calls, eight for the checked
# ones (also against args1 and args3, the kernel's floors)
cell='\| [+-][0-9.]+ \[[+-][0-9.]+\.\.[+-][0-9.]+\] \([^)]*\) '
for call in getpid 'read 1 B' 'write 1 B' openat+close ioctl socket+close; do
	want="($cell){4}(\\| - ){4}\\|\$"
	case $call in
	openat+close|ioctl|socket+close) want="($cell){8}\\|\$" ;;
	esac
	sed -n '/^## Per call, interleaved/,/^## /p' "$md" |
	    grep -F "| $call" | grep -Eq "$want" ||
	    no "no interleaved row for $call"
done
# tmppath priced both ways: Landlock, and the handler's openat2 alone
grep -F 'beneath /tmp under tmppath' "$md" |
    grep -Eq 'with Landlock .*: [+-][0-9.]+ ns \[.*without Landlock .*: [+-][0-9.]+ ns \[.*, [+-][0-9.]+ ns \[.* beyond the Landlock way' ||
    no "the traps table does not price tmppath with and without Landlock"
# the checked calls' targets split into the kernel's share and libtame's
for row in "of which the kernel's own, at one tame()" "and libtame's: tame1" \
    "of which the kernel's own, at three" "and libtame's: tame3"; do
	grep -F "$row" "$md" | grep -Eq 'worst [^:]*: [+-][0-9.]+ ns' ||
	    no "the targets have no numbers for '$row'"
done
# the process trees: each row in the whole-command table with its
# figures, the profiles tame-audit --profile wrote kept in raw/, the
# paragraph's figures, and every audited run of the suite writing its
# profile anew (one kept log, not one a run)
whole=$(sed -n '/^## Whole commands/,/^## /p' "$md")
for row in "vs tame-exec --profile (each program its audited flags)" \
    "(floor) the same pipeline: bare vs" \
    "the test suite (bench/suite.sh): bare vs tame-exec --profile" \
    "(profile) /bin/cat 4 KiB file: tame-exec -f stdio,rpath vs" \
    "a test suite (bench/suite.sh): bare vs tame-audit --profile" \
    "the test suite: strace alone vs tame-audit --profile" \
    "a long suite (bench/long-suite.sh, thousands of processes): bare vs" \
    "the long suite: strace alone vs tame-audit --profile" \
    "kept log of the long suite: wc -l vs tame-audit --from-log"; do
	printf '%s\n' "$whole" | grep -F "$row" |
	    grep -Eq '\| [0-9.]+ \| [0-9.]+ \| (\*\*)?[0-9.]+x(\*\*)? \|' ||
	    no "the whole-command table has no numbers for '$row'"
done
for p in pipeline suite; do
	grep -q "^$(readlink -f "$(command -v sort)") stdio" \
	    "$dir/raw/profile-$p.txt" || no "raw/ has no $p profile listing sort"
done
grep -q "^$(readlink -f "$(command -v tr)") stdio$" \
    "$dir/raw/profile-long-suite.txt" ||
    no "raw/ has no long suite's profile listing tr"
trees=$(sed -n '/^Process trees (.tame-exec --profile.)/,/^$/p' "$md" |
    tr '\n' ' ')
[ "$(printf '%s\n' "$trees" | grep -Eo '[0-9]+ programs listed' |
    grep -c .)" -eq 3 ] || no "the process trees' paragraph counts no programs"
for want in 'bare; its floor' 'beyond the floor: [+-][0-9.]+\.' \
    'profile: [0-9.]+x bare\. What' '\([+-][0-9]+ µs a run' \
    '[0-9.]+x the bare suite, [0-9.]+x strace alone' \
    '[0-9.]+x bare, [0-9.]+x strace alone; [0-9]+ programs listed'; do
	printf '%s\n' "$trees" | grep -Eq "$want" ||
	    no "the process trees' paragraph has no '$want'"
done
printf '%s\n' "$trees" | grep -q ' -x' &&
    no "the process trees' paragraph misses a row"
# one run recorded (its warmed runs beside it are NNNN.warm-FLAGS.log.gz)
[ "$(find "$B/bench/out/suite-audit.prof.runs" -type f -name '[0-9]*[0-9].log.gz' |
    grep -c .)" -eq 1 ] ||
    no "tame-audit --profile's runs of the suite merged (hyperfine --prepare)"
[ "$(find "$B/bench/out/long-suite.prof.runs" -type f -name '*.log.gz' |
    grep -c .)" -eq 1 ] ||
    no "tame-audit --profile's runs of the long suite merged"
for svg in syscalls latency cat cat-4k-cdf tame-exec-cdf; do
	f=$dir/$svg.svg
	[ -s "$f" ] && head -c 200 "$f" | grep -q '<svg\|<?xml' &&
	    tail -c 20 "$f" | grep -q '</svg>' || no "$svg.svg is missing or cut"
done

# --- bench-compare: the run against a copy of itself -----------------------
cp -r "$dir/raw" "$copy/raw"
if ! $PY bench/report/compare.py "$dir" "$copy" > "$dir/compare.out" 2>&1; then
	tail -20 "$dir/compare.out"
	no "bench/report/compare.py failed"
	exit 1
fi
out=$dir/compare.out
for h in '## Per call, first call, latency (google-benchmark compare.py)' \
    '## Interleaved paired differences (ns per call, 95% interval)' \
    '## Whole commands (hyperfine)'; do
	grep -qxF "$h" "$out" || no "compare output has no '$h'"
done
grep -q '^Benchmark  *Time  *CPU  *Time Old  *Time New' "$out" ||
    no "no compare.py table in the compare output"
# compare.py's rows: a median for each kind of data, no change against
# itself, and a U test over the samples
for r in tame1/syscall/getpid latency/tame_first/stdio,rpath \
    interleave/tame1/openat_close fresh/stdio-rpath \
    phases/stdio-rpath/compile; do
	grep -Eq "^${r}_median +[+-]0\.0000 +[+-]0\.0000( +[0-9]+){4}\$" \
	    "$out" || no "compare.py: no unchanged median row for $r"
	grep -Eq "^${r}_pvalue +[0-9.]+ +[0-9.]+ +U Test" "$out" ||
	    no "compare.py: no U test for $r"
done
# interleaved differences: every call and pair, unchanged, overlapping
il=$(sed -n '/^## Interleaved/,/^## Whole/p' "$out" |
    grep -E '^[a-z_A-Z0-9]+ +[a-z0-9-]+-[a-z0-9]+ ')
# (3 cached calls x 7 pairs, 3 checked ones x 11 with the kernel's
# floors, tmppath's call x 3: with and without Landlock, the supervisor's
# 3 calls x 5 pairs: bare, Landlock, supervised, with exec and without,
# and unveil's stat x 3)
[ "$(printf '%s\n' "$il" | grep -c .)" -eq 75 ] ||
    no "compare: $(printf '%s\n' "$il" | grep -c .) interleaved rows, not 75"
printf '%s\n' "$il" | grep -Ev ' [+-]0\.0 yes$' | grep . &&
    no "compare: an interleaved row changed against itself"
# whole commands: both commands and the ratio of every comparison, each
# with old and new medians, their ratio 1.000 and overlapping rounds
hf=$(sed -n '/^## Whole commands/,$p' "$out" | sed '1,/^row  *command /d')
for n in cat-4k floor-4k cat-100m tame-exec-4k audit-100m strace-ls \
    port-wc tame-exec-pipeline exec-floor-pipeline tame-exec-suite \
    profile-4k audit-suite strace-suite; do
	[ "$(printf '%s\n' "$hf" | grep -c "^$n ")" -eq 3 ] ||
	    no "compare: $n has not three rows"
done
printf '%s\n' "$hf" | grep -q '^cat-4k  *(ratio) ' ||
    no "compare: no ratio row for cat-4k"
printf '%s\n' "$hf" | grep -Ev \
    ' [0-9.]+ +[0-9.]+ +1\.000 [0-9.]+\.\.[0-9.]+ +[0-9.]+\.\.[0-9.]+ +yes$' |
    grep . && no "compare: a whole-command row is malformed or changed"
$PY bench/report/compare.py "$dir" > /dev/null 2>&1 &&
    no "compare.py ran with one argument"
# the Python runs with -B, and writes nothing beside its sources
[ -e bench/report/__pycache__ ] && no "bench/report/__pycache__ was written"
exit $fail
