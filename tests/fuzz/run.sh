#!/bin/sh
# SPDX-License-Identifier: ISC
# run.sh: replay and fuzz the libFuzzer targets tests/fuzz/fuzz.mk built.
#
#	sh tests/fuzz/run.sh [-t SECONDS] [-a FOUND] [-w WORK] DIR NAME...
#
# For each NAME, DIR/fuzz_NAME first runs every file kept in
# tests/fuzz/regress/NAME/ and tests/fuzz/corpus/NAME/ once, then
# fuzzes for SECONDS (default 60; 0: replay only) from those inputs,
# growing its working corpus in WORK/NAME/ (default DIR/corpus).  An
# input that crashes is written to FOUND/NAME/ (default DIR/found);
# `make fuzz` passes tests/fuzz/regress, so that every crash found is
# kept.  One line per target says what it ran and found; libFuzzer's
# own output goes to DIR/log/NAME.log.  Exit status: 0 when no target
# found anything, 1 otherwise, 2 on a usage or setup error.
cd "$(dirname "$0")/../.." || exit 2
seconds=60
found=
work=
while getopts t:a:w: opt; do
	case $opt in
	t) seconds=$OPTARG ;;
	a) found=$OPTARG ;;
	w) work=$OPTARG ;;
	*) exit 2 ;;
	esac
done
shift $((OPTIND - 1))
if [ $# -lt 2 ]; then
	echo "usage: run.sh [-t SECONDS] [-a FOUND] [-w WORK] DIR NAME..." >&2
	exit 2
fi
dir=$1
shift
found=${found:-$dir/found}
work=${work:-$dir/corpus}
mkdir -p "$dir/log" || exit 2

# The largest input worth trying, and the tokens that help, per target.
options() {
	case $1 in
	parse|log)	echo "-max_len=8192 -dict=tests/fuzz/strace.dict" ;;
	flags)		echo "-max_len=256" ;;
	decode)		echo "-max_len=4096" ;;
	*)		echo "-max_len=2048" ;;
	esac
}

# "stat::name: value" from libFuzzer's final statistics.
stat() {
	sed -n "s/^stat::$1: *//p" "$2" | tail -n 1
}

status=0
for name in "$@"; do
	bin=$dir/fuzz_$name
	log=$dir/log/$name.log
	if [ ! -x "$bin" ]; then
		echo "fuzz $name: $bin missing (make tests builds it)"
		status=2
		continue
	fi
	# every kept input once: a regression must stay fixed
	kept=$(find "tests/fuzz/regress/$name" "tests/fuzz/corpus/$name" \
	    -type f 2>/dev/null | sort)
	nkept=$(printf '%s' "$kept" | grep -c .)
	: > "$log"
	if [ "$nkept" -gt 0 ]; then
		# shellcheck disable=SC2086
		if ! "$bin" $kept >> "$log" 2>&1; then
			echo "fuzz $name: FAIL: a kept input crashes; see $log:"
			grep -E '^(Running:|SUMMARY|fuzz_)' "$log" | tail -n 5
			status=1
			continue
		fi
	fi
	if [ "$seconds" -eq 0 ]; then
		echo "fuzz $name: $nkept kept inputs replayed, no crash"
		continue
	fi
	mkdir -p "$work/$name" "$found/$name" || exit 2
	seeds=
	for d in "tests/fuzz/corpus/$name" "tests/fuzz/regress/$name"; do
		[ -d "$d" ] && seeds="$seeds $d"
	done
	# shellcheck disable=SC2046,SC2086
	"$bin" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
	    -print_final_stats=1 -artifact_prefix="$found/$name/" \
	    $(options "$name") "$work/$name" $seeds >> "$log" 2>&1
	rc=$?
	runs=$(stat number_of_executed_units "$log")
	rate=$(stat average_exec_per_sec "$log")
	if [ $rc -eq 0 ]; then
		echo "fuzz $name: $nkept kept inputs replayed; ${runs:-?}" \
		    "executions in ${seconds} s (${rate:-?} exec/s)," \
		    "nothing found"
	else
		status=1
		echo "fuzz $name: FAIL: found a crash after ${runs:-?}" \
		    "executions (${rate:-?} exec/s); see $log:"
		grep -E '^(SUMMARY|fuzz_|==[0-9]+==ERROR)|Test unit written' \
		    "$log" | tail -n 5
	fi
done
exit $status
