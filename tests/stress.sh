#!/bin/sh
# SPDX-License-Identifier: ISC
# make check-stress: the suites with every core kept busy, so that a test
# whose outcome depends on which thread or process the scheduler runs
# first shows it.  A load generator (stress-ng, one CPU worker a core)
# runs throughout; under it: make check STRESS_ROUNDS times (3), the
# Check suites that race threads, signals and children (STRESS_SUITES)
# STRESS_RACE_ROUNDS times (20) each, and make check SANITIZE=1 once.  Each
# part prints its own closing line; this script ends with the sum,
# "N passed, N failed", and the minutes it took.
#   $1...	the Check programs of make check (tests.mk passes them)
MAKE=${MAKE:-make}
B=${B:-build}
ROUNDS=${STRESS_ROUNDS:-3}
RACE_ROUNDS=${STRESS_RACE_ROUNDS:-20}
SUITES=${STRESS_SUITES:-t_bypass t_api t_proc_net t_cmsg t_fs}
LOG=${STRESS_LOG:-$B/stress}

command -v stress-ng > /dev/null ||
    { echo "check-stress: stress-ng is missing (make deps installs it)" >&2;
      exit 1; }
mkdir -p "$LOG" || exit 1
stress-ng --cpu "$(nproc)" --timeout 0 > "$LOG/stress-ng.log" 2>&1 &
load=$!
trap 'kill $load 2> /dev/null; wait $load 2> /dev/null' EXIT
trap 'exit 130' INT TERM
# Check's timeouts, and the harness's hang guard, are bounds for a hung
# test, not measures: busy cores make every test slower, so they widen.
CK_TIMEOUT_MULTIPLIER=${CK_TIMEOUT_MULTIPLIER:-4}
export CK_TIMEOUT_MULTIPLIER
start=$(date +%s)
passed=0
failed=0

# count NAME LOG: add the closing "N passed, N failed" line of LOG
count() {
	line=$(sed -n 's/^\(RESULT \)\{0,1\}\([0-9]*\) passed, \([0-9]*\) failed$/\2 \3/p' \
	    "$2" | tail -1)
	if [ -z "$line" ]; then
		echo "check-stress: $1: no closing line (see $2)"
		failed=$((failed + 1))
		return
	fi
	passed=$((passed + ${line% *}))
	failed=$((failed + ${line#* }))
	echo "check-stress: $1: ${line% *} passed, ${line#* } failed"
	[ "${line#* }" -eq 0 ] || grep -E ':[FE]:|^FAIL' "$2" | head -20
}

i=1
while [ "$i" -le "$ROUNDS" ]; do
	$MAKE --no-print-directory check > "$LOG/check-$i.log" 2>&1
	count "make check, round $i/$ROUNDS" "$LOG/check-$i.log"
	i=$((i + 1))
done
for s in $SUITES; do
	i=1
	: > "$LOG/$s.log"
	p=0
	f=0
	while [ "$i" -le "$RACE_ROUNDS" ]; do
		"$B/tests/$s" > "$LOG/$s.round" 2>&1
		cat "$LOG/$s.round" >> "$LOG/$s.log"
		line=$(sed -n 's/^RESULT \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p' \
		    "$LOG/$s.round")
		if [ -z "$line" ]; then
			f=$((f + 1))
		else
			p=$((p + ${line% *}))
			f=$((f + ${line#* }))
		fi
		i=$((i + 1))
	done
	rm -f "$LOG/$s.round"
	echo "RESULT $p passed, $f failed" >> "$LOG/$s.log"
	count "$s, $RACE_ROUNDS rounds" "$LOG/$s.log"
done
# B, which make exports, would put the sanitized build over the plain
# one: without it SANITIZE=1 builds into its own build-san/.
(unset B; $MAKE --no-print-directory check SANITIZE=1) \
    > "$LOG/check-san.log" 2>&1
count "make check SANITIZE=1" "$LOG/check-san.log"
echo "check-stress: $(( ($(date +%s) - start + 30) / 60 )) minutes under" \
    "stress-ng --cpu $(nproc); logs in $LOG/"
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
