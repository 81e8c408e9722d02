#!/bin/sh
# SPDX-License-Identifier: ISC
# long-suite.sh TEXT DIR N: a long test suite for the auditor's rows of
# bench/run.sh, the shape of a project's shell-driven `make check`: N
# cases, each a handful of short programs on a line of TEXT in a
# temporary file of DIR (mktemp, sed, grep, tr, cmp, wc, rm: about nine
# processes a case, so N = 400 is some 3,600 processes and a trace of
# tens of MB).  No case looks up a user or a host, so the auditor makes
# no warmed run: the rows measure one traced run of a long tree, its
# log read once and attributed, and the plain run the user's files get.
# Every run does the same work and leaves DIR as it found it.  Exits 1
# at the first check that fails.
set -e
text=$1 dir=$2 n=$3
case $text in
/*) ;;
*) text=$PWD/$text ;;
esac
cd "$dir"
dir=$PWD
i=0
while [ "$i" -lt "$n" ]; do
	t=$(mktemp "$dir/case.XXXXXX")
	sed -n "$((i % 500 + 1))p" "$text" > "$t"
	grep -q '[a-z]' "$t"
	tr '[:lower:]' '[:upper:]' < "$t" > "$t.up"
	if cmp -s "$t" "$t.up"; then
		echo "long-suite: case $i: tr changed nothing" >&2
		exit 1
	fi
	test "$(wc -l < "$t.up")" -eq 1
	rm -f "$t" "$t.up"
	i=$((i + 1))
done
