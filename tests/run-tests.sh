#!/bin/sh
# SPDX-License-Identifier: ISC
# Run every test program given, then the CLI tests, and close with the
# one line CI reads: "N passed, N failed".
passed=0
failed=0
# Each suite's seconds after it, for planning CI's time (.ci/run).
for t in "$@"; do
	echo "== $t"
	t0=$(date +%s)
	out=$("$t" 2>&1)
	status=$?
	echo "-- $t: $(($(date +%s) - t0)) s"
	printf '%s\n' "$out" | grep -v '^RESULT '
	line=$(printf '%s\n' "$out" | sed -n 's/^RESULT \([0-9]*\) passed, \([0-9]*\) failed$/\1 \2/p')
	if [ -z "$line" ]; then
		echo "$t: ended without a result (status $status)"
		failed=$((failed + 1))
		continue
	fi
	passed=$((passed + ${line% *}))
	failed=$((failed + ${line#* }))
done
for t in tests/cli/*.sh; do
	[ -e "$t" ] || continue
	echo "== $t"
	t0=$(date +%s)
	sh "$t"
	status=$?
	echo "-- $t: $(($(date +%s) - t0)) s"
	if [ "$status" -eq 0 ]; then
		passed=$((passed + 1))
	else
		echo "FAIL: $t"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
