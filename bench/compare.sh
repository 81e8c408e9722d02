#!/bin/sh
# SPDX-License-Identifier: ISC
# compare.sh OLD NEW: what changed between two `make bench` runs, row by
# row, from their raw data (OLD and NEW are reports directories, such as
# the committed reports/ and a BENCH_REPORTS=dir run, or their raw/).
# make bench-compare OLD=dir NEW=dir runs it.
#
#	1. the per-call rows (each configuration's google-benchmark
#	   process, the interleaved batches), the first-call rows and
#	   their phases, and the tame() latency rows: google-benchmark's
#	   own compare.py (Debian's libbenchmark-tools) on both runs' data
#	   as google-benchmark JSON (bench/gbench.jq); each row's median
#	   and mean change, and its U test over every sample
#	2. the interleaved paired differences the per-call targets are
#	   judged on: old and new median with their 95% intervals
#	3. the whole commands (hyperfine): per command, the old and new
#	   median, their ratio, and whether the ranges of the per-round
#	   medians overlap; per comparison, the same for the ratio
#
# Environment: BENCH_PYTHON (/usr/bin/python3: Debian's, which has
# python3-scipy), BENCH_COMPARE_PY (/usr/share/benchmark/compare.py).
set -e
cd "$(dirname "$0")/.."
if [ $# -ne 2 ]; then
	echo "usage: bench/compare.sh OLD NEW (reports directories)" >&2
	exit 2
fi
PY=${BENCH_PYTHON:-/usr/bin/python3}
COMPARE=${BENCH_COMPARE_PY:-/usr/share/benchmark/compare.py}
[ -r "$COMPARE" ] || {
	echo "compare.sh: no $COMPARE (Debian: libbenchmark-tools)" >&2
	exit 1
}
raw_of() {
	if [ -r "$1/raw/micro.json" ]; then
		echo "$1/raw"
	elif [ -r "$1/micro.json" ]; then
		echo "$1"
	else
		echo "compare.sh: $1 holds no raw/micro.json" >&2
		return 1
	fi
}
OLD=$(raw_of "$1")
NEW=$(raw_of "$2")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/bench-compare.XXXXXX")
trap 'rm -rf "$tmp"' EXIT

# gbench RAW OUT: RAW's per-call and first-call data as one
# google-benchmark JSON file
gbench() {
	raw=$1 out=$2
	echo '[]' > "$tmp/il.json"
	set -- "$raw"/interleave-*.json
	[ -e "$1" ] && jq -s . "$@" > "$tmp/il.json"
	for f in "$raw"/fresh-*.txt; do
		[ -e "$f" ] || continue
		n=${f##*/fresh-}
		jq -R -s --arg n "${n%.txt}" '[$n, .]' "$f"
	done | jq -s . > "$tmp/fresh.json"
	for f in "$raw"/phases-*.txt; do
		[ -e "$f" ] || continue
		n=${f##*/phases-}
		jq -s --arg n "${n%.txt}" '[$n, .]' "$f"
	done | jq -s . > "$tmp/phases.json"
	jq -n --arg dir "$raw" --slurpfile micro "$raw/micro.json" \
	    --slurpfile il "$tmp/il.json" --slurpfile fresh "$tmp/fresh.json" \
	    --slurpfile phases "$tmp/phases.json" -f bench/gbench.jq > "$out"
}
gbench "$OLD" "$tmp/old.json"
gbench "$NEW" "$tmp/new.json"

echo "# bench-compare: $OLD -> $NEW"
echo
echo "## Per call, first call, latency (google-benchmark compare.py)"
echo
echo "Time and CPU: relative change of the row's median and mean, new"
echo "over old minus one (-0.05 is 5% faster); _pvalue: U test over every"
echo "sample (low: the samples differ).  Times in ns (per call, and per"
echo "forked sample for latency/), in µs for fresh/ and phases/."
echo
"$PY" "$COMPARE" -a --no-color benchmarks "$tmp/old.json" "$tmp/new.json" |
    sed -n '/^Benchmark/,$p'

# --- the interleaved paired differences --------------------------------
il_tsv() {
	for f in "$1"/interleave-*.json; do
		[ -e "$f" ] || continue
		jq -r --arg what interleave --arg configs "" --arg calls "" \
		    -f bench/report.jq "$f"
	done
}
il_tsv "$OLD" > "$tmp/il-old.tsv"
il_tsv "$NEW" > "$tmp/il-new.tsv"
echo
echo "## Interleaved paired differences (ns per call, 95% interval)"
echo
if [ -s "$tmp/il-old.tsv" ] && [ -s "$tmp/il-new.tsv" ]; then
	printf '%-22s %-15s %24s %24s %9s %s\n' call difference old new \
	    change overlap
	awk -F '\t' 'FNR == NR { o[$1 SUBSEP $2 SUBSEP $3] = $0; next }
	($1 SUBSEP $2 SUBSEP $3) in o {
		split(o[$1 SUBSEP $2 SUBSEP $3], a, "\t")
		printf "%-22s %-15s %24s %24s %+9.1f %s\n", $1, $2 "-" $3, \
		    sprintf("%.1f [%.1f..%.1f]", a[4], a[5], a[6]), \
		    sprintf("%.1f [%.1f..%.1f]", $4, $5, $6), $4 - a[4], \
		    ($5 + 0 <= a[6] + 0 && a[5] + 0 <= $6 + 0) ? "yes" : "no"
	}' "$tmp/il-old.tsv" "$tmp/il-new.tsv"
else
	echo "(not in both runs)"
fi

# --- whole commands ---------------------------------------------------
# hf_tsv FILE...: label median_ms round_lo round_hi base(1/0) rounds
# round_medians
# (round_lo..round_hi: the range of the per-round medians; the base is
# the command hyperfine ran first in round 1, the untamed side)
hf_tsv() {
	jq -r -s 'def median: sort | length as $n | if $n % 2 == 1
	    then .[($n - 1) / 2] else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;
	    (.[0].results[0].command) as $base
	    | [.[].results[]] | group_by(.command)[]
	    | [.[0].command, ([.[].times[]] | median * 1000),
		(map(.median * 1000) | min), (map(.median * 1000) | max),
		(if .[0].command == $base then 1 else 0 end), length,
		(map(.median * 1000) | map(tostring) | join(" "))]
	    | @tsv' "$@"
}
echo
echo "## Whole commands (hyperfine)"
echo
echo "Per command: median ms, old and new, their ratio, and whether the"
echo "ranges of the per-round medians overlap.  Per comparison (ratio):"
echo "the median of the rounds' tamed/untamed ratios, old and new, and"
echo "whether their ranges overlap."
echo
printf '%-22s %-16s %10s %10s %7s %-20s %-20s %s\n' row command "old ms" \
    "new ms" new/old "old rounds" "new rounds" overlap
for f in "$OLD"/hf-*-1.json; do
	[ -e "$f" ] || continue
	n=${f##*/hf-}
	n=${n%-1.json}
	[ -e "$NEW/hf-$n-1.json" ] || continue
	hf_tsv "$OLD"/hf-"$n"-*.json > "$tmp/hf-old.tsv"
	hf_tsv "$NEW"/hf-"$n"-*.json > "$tmp/hf-new.tsv"
	awk -F '\t' -v row="$n" '
	function ratios(s, t, x, n, i, a, b) {
		# per-round ratios of tamed over base, sorted into x
		n = split(s, a, " ")
		split(t, b, " ")
		for (i = 1; i <= n; i++)
			x[i] = b[i] / a[i]
		for (i = 2; i <= n; i++)
			for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
				y = x[j]; x[j] = x[j - 1]; x[j - 1] = y
			}
		return n
	}
	function mid(x, n) {
		return n % 2 ? x[(n + 1) / 2] : (x[n / 2] + x[n / 2 + 1]) / 2
	}
	FNR == NR {
		o[$1] = $0
		if ($5 == 1) ob = $7; else ot = $7
		next
	}
	$1 in o {
		split(o[$1], a, "\t")
		printf "%-22s %-16s %10.3f %10.3f %7.3f %-20s %-20s %s\n", row, \
		    substr($1, 1, 16), a[2], $2, $2 / a[2], \
		    sprintf("%.3f..%.3f", a[3], a[4]), \
		    sprintf("%.3f..%.3f", $3, $4), \
		    ($3 + 0 <= a[4] + 0 && a[3] + 0 <= $4 + 0) ? "yes" : "no"
		if ($5 == 1) nb = $7; else nt = $7
	}
	END {
		if (ob == "" || ot == "" || nb == "" || nt == "")
			exit
		on = ratios(ob, ot, ox)
		nn = ratios(nb, nt, nx)
		printf "%-22s %-16s %10.3f %10.3f %7.3f %-20s %-20s %s\n", row, \
		    "(ratio)", mid(ox, on), mid(nx, nn), \
		    mid(nx, nn) / mid(ox, on), \
		    sprintf("%.3f..%.3f", ox[1], ox[on]), \
		    sprintf("%.3f..%.3f", nx[1], nx[nn]), \
		    (nx[1] <= ox[on] && ox[1] <= nx[nn]) ? "yes" : "no"
	}' "$tmp/hf-old.tsv" "$tmp/hf-new.tsv"
done
