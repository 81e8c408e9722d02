#!/bin/sh
# SPDX-License-Identifier: ISC
# The red-team suite (tests/redteam/, issue 46): every case, each a way
# out of the sandbox tried by code running inside a pledged process, as
# root and, when root, again as an unprivileged user (65534).  One line
# per case and user:
#	redteam: NAME (USER): held
#	redteam: NAME (USER): ESCAPED: what got out
#	redteam: NAME (USER): n/a: the feature or privilege it lacks
# (BROKEN: the sandbox refused what it must allow; CRASHED: the case
# itself failed).  Exit 0 when every case held or was n/a.  The cases
# are built by make (tests/redteam/redteam.mk), not here.
# REDTEAM_CASES="a b" runs some; REDTEAM_VERBOSE=1 shows their stderr.
B=${B:-build}
case $B in /*) bdir=$B ;; *) bdir=$(pwd -P)/$B ;; esac
dir=$(mktemp -d /var/tmp/redteam.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"
fail=0
held=0 escaped=0 na=0 other=0

cases=${REDTEAM_CASES:-$(for f in tests/redteam/*.c; do
	f=${f##*/}; f=${f%.c}; [ "$f" = redteam ] || echo "$f"; done)}

# join the lines of $1 that start with "$2: " (the tag dropped) by " | "
lines() {
	printf '%s\n' "$1" | sed -n "s|^$2: ||p" | awk '
	    { s = s (NR > 1 ? " | " : "") $0 } END { print s }'
}

# run every case as $1 (a label), with the command prefix after it
run_as() {
	who=$1
	shift
	scratch=$dir/$who
	mkdir -p "$scratch"
	[ "$who" = nobody ] && chown 65534:65534 "$scratch"
	for c in $cases; do
		bin=$bdir/tests/redteam/$c
		if [ ! -x "$bin" ]; then
			echo "redteam: $c ($who): CRASHED: $bin is not built"
			other=$((other + 1))
			fail=1
			continue
		fi
		out=$("$@" env HOME="$scratch" REDTEAM_TMP="$scratch" \
		    "$bin" 2>"$dir/$c.$who.err")
		st=$?
		case $st in
		0)	parts=$(lines "$out" n/a)
			echo "redteam: $c ($who): held${parts:+; n/a: $parts}"
			held=$((held + 1)) ;;
		1)	what=$(lines "$out" escaped)
			if [ -z "$what" ]; then
				# no case's verdict: a sanitizer's or exit(1)
				echo "redteam: $c ($who): CRASHED: status 1" \
				    "without an escaped line"
				sed 's/^/    /' "$dir/$c.$who.err" | tail -n 5
				other=$((other + 1))
			else
				echo "redteam: $c ($who): ESCAPED: $what"
				escaped=$((escaped + 1))
			fi
			fail=1 ;;
		2)	echo "redteam: $c ($who): BROKEN: $(lines "$out" broken)"
			other=$((other + 1))
			fail=1 ;;
		77)	echo "redteam: $c ($who): n/a: $(lines "$out" n/a)"
			na=$((na + 1)) ;;
		*)	echo "redteam: $c ($who): CRASHED: status $st:" \
			    "$(printf '%s\n' "$out" | tail -n 3 | tr '\n' ' ')"
			sed 's/^/    /' "$dir/$c.$who.err" | tail -n 5
			other=$((other + 1))
			fail=1 ;;
		esac
		[ -n "$REDTEAM_VERBOSE" ] && sed 's/^/    /' "$dir/$c.$who.err"
	done
}

if [ "$(id -u)" -ne 0 ]; then
	run_as "$(id -un 2>/dev/null || id -u)"
	echo "n/a: the second, unprivileged run (not root: the cases ran" \
	    "once, as $(id -un 2>/dev/null || id -u))"
elif command -v setpriv >/dev/null 2>&1; then
	run_as root
	run_as nobody setpriv --reuid=65534 --regid=65534 --clear-groups \
	    --inh-caps=-all
elif command -v runuser >/dev/null 2>&1; then
	run_as root
	run_as nobody runuser -u nobody --
else
	run_as root
	echo "n/a: the unprivileged run (neither setpriv nor runuser)"
fi
echo "redteam: $held held, $escaped escaped, $na n/a, $other broken or crashed"
exit $fail
