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

# --check reads pledge()'s marker: the promises a program declared, in
# pledge's words; a call they refuse, a promise nothing needed
cat > "$dir/pl.c" <<'EOF2'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "pledge.h"

int
main(int argc, char *argv[])
{
	char buf[64];
	int fd;

	if (argc < 3 || pledge(argv[1], NULL) == -1)
		return 2;
	if ((fd = open(argv[2], O_RDONLY)) == -1)
		return 1;
	return read(fd, buf, sizeof(buf)) > 0 ? 0 : 1;
}
EOF2
san=
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined $B/lib/sanitize.o"
# shellcheck disable=SC2086
cc $san -Ilib -o "$dir/pl" "$dir/pl.c" "$B/libtame.a" || no "cannot build pl"
export ASAN_OPTIONS=detect_leaks=0	# a pledged exit (pledge(3))
$A --check -o "$rep" -- "$dir/pl" "stdio rpath" "$dir/in" >/dev/null 2>&1 ||
    no "check 'stdio rpath': status $?: $(cat "$rep")"
grep -q '^    pledge("stdio rpath") by pid' "$rep" &&
    grep -q 'calls after pledge()' "$rep" &&
    grep -q '^0 violations, 0 flags or promises not needed' "$rep" ||
    no "check 'stdio rpath': $(cat "$rep")"
$A --check -o "$rep" -- "$dir/pl" "stdio rpath inet" "$dir/in" >/dev/null 2>&1
[ $? -eq 4 ] || no "check 'stdio rpath inet': want status 4: $(cat "$rep")"
grep -q '^    inet, declared by pid' "$rep" ||
    no "check 'stdio rpath inet': $(cat "$rep")"
$A --check --json -o "$rep" -- "$dir/pl" "stdio" "$dir/in" >/dev/null 2>&1
[ $? -eq 3 ] || no "check 'stdio': want status 3: $(cat "$rep")"
[ "$(jq -c '[.check.declared[0].pledge, .check.violations[0].missing]' "$rep")" = \
    '["stdio","promise rpath"]' ] || no "check 'stdio': $(jq -c .check "$rep")"
/usr/bin/python3 - audit/schema.json "$rep" <<'EOF2' || no "check 'stdio': JSON does not validate"
import json, sys, jsonschema
jsonschema.validate(json.load(open(sys.argv[2])), json.load(open(sys.argv[1])))
EOF2

# a chown that gave a file away needs chown, not fattr (which would
# fail it with EPERM): the promises answer as the run was answered
if [ "$(id -u)" -eq 0 ]; then
	cp "$dir/in" "$dir/theirs" && chown 4242:4242 "$dir/theirs"
	rm -f "$dir/out"
	$A --promises-only -o "$rep" -- cp -p "$dir/theirs" "$dir/out" \
	    >/dev/null 2>&1
	case " $(cat "$rep") " in *" chown "*) ;;
	    *) no "cp -p of another's file: promises '$(cat "$rep")'" ;; esac
fi

$A --json --flags-only -- true >/dev/null 2>&1
[ $? -eq 2 ] || no "--json with --flags-only is not a usage error"
$A --promises-only --flags-only -- true >/dev/null 2>&1
[ $? -eq 2 ] || no "--promises-only with --flags-only is not a usage error"
exit $fail
