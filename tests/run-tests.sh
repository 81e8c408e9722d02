#!/bin/sh
# SPDX-License-Identifier: ISC
# Run every test program given, then the CLI tests, and close with the
# one line CI reads: "N passed, N failed".
passed=0
failed=0
for t in "$@"; do
	echo "== $t"
	out=$("$t" 2>&1)
	status=$?
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
	if sh "$t"; then
		passed=$((passed + 1))
	else
		echo "FAIL: $t"
		failed=$((failed + 1))
	fi
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
