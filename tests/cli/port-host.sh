#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-host: the addresses of localhost, of this machine's name and of
# the other names in /etc/hosts (never edited), and of numeric
# addresses, in the order getent ahosts gives them (its STREAM lines,
# where AI_ADDRCONFIG changes nothing), with -4 and -6 as getent
# ahostsv4 and ahostsv6; a name that does not exist, or has no address
# of the family asked for, gives status 1 and bind9's line, quickly
# (timeout 20, no network needed); usage errors give status 1.
# tame-audit --check: exactly the flags it needs; tame:0x103 (stdio|dnspath),
# the lookup, then tame:0x3 (stdio); the hook dies opening
# /etc/hostname.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=host
. tests/ports/lib.sh

# What getent says of NAME in database DB (ahosts, ahostsv4, ahostsv6),
# in tame-host's words: its STREAM lines, without the IPv4-mapped
# addresses that ahostsv6 falls back on (tame-host -6 asks for none).
from_getent() {
	# shellcheck disable=SC2016
	ref sh -c 'getent "$1" "$2" | awk -v n="$2" '\''
	    $2 == "STREAM" && $1 !~ /^::ffff:/ {
		printf "%s has %saddress %s\n", n, \
		    ($1 ~ /:/ ? "IPv6 " : ""), $1
	    }'\' sh "$1" "$2"
}

# getent asks with AI_ADDRCONFIG, which drops a family the machine has
# no (non-loopback) address of, and then every answer of that family:
# only where both families are configured is it the same question.
getent ahostsv4 127.0.0.1 > /dev/null 2>&1 &&
    getent ahostsv6 ::1 > /dev/null 2>&1 && same_question=1

names=localhost
if h=$(hostname 2> /dev/null) && [ -n "$h" ] &&
    getent hosts "$h" > /dev/null 2>&1; then
	names="$names $h"
else
	echo "port-host.sh: this machine's name does not resolve: skipped" >&2
fi
# the other plain names /etc/hosts has, a few
for n in $(awk '!/^[ \t]*#/ { for (i = 2; i <= NF && $i !~ /^#/; i++)
    print $i }' /etc/hosts 2> /dev/null | grep -E '^[A-Za-z0-9.-]+$' |
    sort -u | head -n 8); do
	case " $names " in
	*" $n "*) ;;
	*)	names="$names $n" ;;
	esac
done

if [ -n "$same_question" ]; then
	for n in $names 127.0.0.1 ::1; do
		from_getent ahosts "$n"
		[ -s "$T/ref.out" ] || fail "getent ahosts $n: nothing"
		port "$n"
		from_getent ahostsv4 "$n"
		if [ -s "$T/ref.out" ]; then
			port -4 "$n"
		fi
		from_getent ahostsv6 "$n"
		if [ -s "$T/ref.out" ]; then
			port -6 "$n"
		else
			# nothing but mapped addresses: none for tame-host
			timeout 20 "$PORT" -6 "$n" > "$T/out" 2> "$T/err"
			st=$?
			[ "$st" -eq 1 ] || fail "tame-host -6 $n: status $st"
			grep -qxE "(Host $n not found: [23]\((NXDOMAIN|SERVFAIL)\)|$n has no AAAA record)" \
			    "$T/out" || fail "tame-host -6 $n: $(cat "$T/out" "$T/err")"
		fi
	done
else
	echo "port-host.sh: AI_ADDRCONFIG filters getent here: only localhost's IPv4 compared" >&2
	# shellcheck disable=SC2016
	ref sh -c 'getent ahostsv4 localhost | awk '\''$2 == "STREAM" {
	    print "localhost has address " $1 }'\'
	[ -s "$T/ref.out" ] && port -4 localhost
fi

# numbers of the wrong family: status 1 and bind9's words
ref sh -c 'echo "::1 has no A record"; exit 1'
port -4 ::1
ref sh -c 'echo "127.0.0.1 has no AAAA record"; exit 1'
port -6 127.0.0.1

# a name that does not exist: status 1, bind9's line, and soon
for opt in "" -4 -6; do
	# shellcheck disable=SC2086
	timeout 20 "$PORT" $opt no-such-host.invalid > "$T/out" 2> "$T/err"
	st=$?
	[ "$st" -eq 1 ] || fail "tame-host $opt no-such-host.invalid: status $st: $(cat "$T/err")"
	grep -qxE 'Host no-such-host.invalid not found: (3\(NXDOMAIN\)|2\(SERVFAIL\))' \
	    "$T/out" || fail "tame-host $opt no-such-host.invalid: $(cat "$T/out" "$T/err")"
	[ -s "$T/err" ] && fail "tame-host $opt no-such-host.invalid: $(cat "$T/err")"
done
timeout 20 getent hosts no-such-host.invalid > /dev/null &&
    fail "getent resolves no-such-host.invalid"

# usage errors: status 1, nothing on stdout
ref sh -c 'exit 1'
port
grep -q usage "$T/port.err" || fail "no usage message"
port localhost localhost
port -x localhost
port -64

# exactly the flags it needs (tame-audit --check runs it under
# TAME_AUDIT=permissive, which loads the name service as tame() does)
audit_check() {
	check_clean "$@"
}
audit_check localhost
audit_check -4 localhost
audit_check no-such-host.invalid
[ -n "$h" ] && audit_check "$h"

# tame:0x103 (stdio|dnspath), /etc/hosts read, then tame:0x3 (stdio)
command -v strace > /dev/null || fail "strace not installed"
strace -f -o "$T/trace" -e trace=write,openat "$PORT" localhost \
    > /dev/null 2>&1 || fail "under strace: status $?"
awk '/tame:0x103"/ { s = 1 } s == 1 && /openat.*"\/etc\/hosts"/ { n++ }
    /tame:0x3"/ { if (n) ok = 1 } END { exit !ok }' "$T/trace" ||
    fail "not tame:0x103, /etc/hosts, then tame:0x3: $(grep -E 'tame:|openat' "$T/trace")"

# after the lookup no file is left to read
check_hook openat rpath localhost
check_hook openat rpath no-such-host.invalid

# the untamed build is not tamed, and says the same
strace -f -o "$T/trace" -e trace=write "$B/ports/host-untamed" localhost \
    > "$T/out" 2>&1 || fail "untamed under strace: status $?"
grep -q 'tame:0x' "$T/trace" && fail "host-untamed is tamed"
"$PORT" localhost | cmp -s - "$T/out" || fail "host-untamed differs"
exit 0
