#!/bin/sh
# make bench, quickly: every benchmark runs once, briefly (BENCH_QUICK=1),
# into a scratch directory, and the report comes out whole and well
# formed.  Its numbers are not judged here (no timing assertions).
B=${B:-build}
dir=$(mktemp -d /var/tmp/tame-bench.XXXXXX)
trap 'rm -rf "$dir"' EXIT
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
BENCH_REPORTS="$dir" B="$B" sh bench/report.sh >"$dir/report.log" 2>&1 ||
    { cat "$dir/report.log"; no "bench/report.sh failed"; exit 1; }
grep -q 'error' "$dir/report.log" && no "report.sh said: $(cat "$dir/report.log")"

md=$dir/latest.md
for section in '## Machine' '## Targets (DESIGN.md)' \
    '## The first tame(), as programs pay it' \
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
for svg in syscalls latency cat cat-4k-cdf tame-exec-cdf; do
	f=$dir/$svg.svg
	[ -s "$f" ] && head -c 200 "$f" | grep -q '<svg\|<?xml' &&
	    tail -c 20 "$f" | grep -q '</svg>' || no "$svg.svg is missing or cut"
done
exit $fail
