#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-audit's promises (--promises-only, the pledge line) hold as its
# flags do: tame-exec -p with them runs each command to the same output,
# and without any one of them (stdio aside) it does not.  Exit 0 when
# every check holds.
B=${B:-build}
A=$B/tame-audit
X=$B/tame-exec
dir=$(mktemp -d /var/tmp/audit-pledge.XXXXXX)
rep=$(mktemp /var/tmp/audit-pledge-report.XXXXXX)
trap 'rm -rf "$dir" "$rep"' EXIT
fail=0
no() { echo "audit-pledge.sh: $*"; fail=1; }

printf 'b\na\nc\n' > "$dir/in"
for cmd in "cat $dir/in" "sort $dir/in" "wc -l $dir/in" "head -n 1 $dir/in" \
    "ls -l $dir" "cp $dir/in $dir/out" "sha256sum $dir/in"; do
	rm -f "$dir/out"
	# shellcheck disable=SC2086
	$A --promises-only -o "$rep" -- $cmd >/dev/null 2>&1
	p=$(cat "$rep")
	case $p in stdio*) ;; *) no "$cmd: promises '$p'"; continue ;; esac
	rm -f "$dir/out"
	# shellcheck disable=SC2086
	want=$($cmd 2>&1; echo "status $?"; cat "$dir/out" 2>/dev/null)
	rm -f "$dir/out"
	# shellcheck disable=SC2086
	got=$($X -p "$p" -- $cmd 2>&1; echo "status $?"; cat "$dir/out" 2>/dev/null)
	[ "$got" = "$want" ] || no "$cmd under -p '$p': '$got', want '$want'"
	for drop in $p; do
		[ "$drop" = stdio ] && continue
		less=$(printf '%s\n' $p | grep -vx "$drop" | tr '\n' ' ')
		rm -f "$dir/out"
		# shellcheck disable=SC2086
		got=$($X -p "$less" -- $cmd 2>&1; echo "status $?"; cat "$dir/out" 2>/dev/null)
		[ "$got" = "$want" ] && no "$cmd: '$p' less $drop still works"
	done
	echo "ok: $cmd -> $p"
done
# the text report's line, and JSON's key
$A -- cat "$dir/in" 2>&1 >/dev/null | grep -q '    pledge("stdio rpath", NULL);' ||
    no "the text report has no pledge line"
$A --json -- cat "$dir/in" 2>&1 >/dev/null | grep -q '"pledge": "stdio rpath"' ||
    no "the JSON report has no pledge key"
$A --json --flags-only -- true >/dev/null 2>&1
[ $? -eq 2 ] || no "--json with --flags-only is not a usage error"
$A --promises-only --flags-only -- true >/dev/null 2>&1
[ $? -eq 2 ] || no "--promises-only with --flags-only is not a usage error"
exit $fail
