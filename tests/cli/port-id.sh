#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-id: the same bytes and status as GNU id for the process and for
# named users (root, daemon, nobody, by name and by number, several at
# once) with -u, -g, -G, -n, -r; with real and effective ids that
# differ, supplementary groups, and ids without names (setpriv, as
# root); an unknown user and misused options; exactly the flags it
# needs (tame-audit --check): stdio and getpw when names are looked up,
# stdio alone when not; reading a file after taming is a violation.
# Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME="id"
. tests/ports/lib.sh

for opts in "" -u -g -G -un -gn -Gn -ur -gr -Gr -unr -gnr -Gnr; do
	for user in "" root daemon nobody 0 1 "root daemon nobody"; do
		# shellcheck disable=SC2086
		ref env LC_ALL=C id $opts $user
		# shellcheck disable=SC2086
		port $opts $user
	done
done

# errors: no such user (alone and among others), option conflicts
ref env LC_ALL=C id tame-no-such-user
port tame-no-such-user
grep -q "'tame-no-such-user': no such user" "$T/port.err" ||
    fail "no message for an unknown user: $(cat "$T/port.err")"
ref env LC_ALL=C id -Gn root tame-no-such-user daemon
port -Gn root tame-no-such-user daemon
for opts in -n -r -ug -gG "-u -G" -x; do
	# shellcheck disable=SC2086
	ref env LC_ALL=C id $opts
	# shellcheck disable=SC2086
	port $opts
done

# the process with other real and effective ids, supplementary groups
# and ids that have no names
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	for priv in "--reuid 1 --regid 2 --groups 3,2,1,5" \
	    "--euid 1 --egid 5 --groups 5,7" "--regid 2 --groups 3,5" \
	    "--reuid 4242 --regid 4243 --groups 4244,0"; do
		for opts in "" -u -g -G -un -gn -Gn -ur -gr -Gr -Gnr; do
			# shellcheck disable=SC2086
			ref setpriv $priv env LC_ALL=C id $opts
			# shellcheck disable=SC2086
			run_into port setpriv $priv "$PORT" $opts
			cmp -s "$T/ref.out" "$T/port.out" &&
			    cmp -s "$T/ref.status" "$T/port.status" ||
			    fail "setpriv $priv tame-id $opts: $(cat \
				"$T/port.out" "$T/port.status" "$T/port.err")
want: $(cat "$T/ref.out" "$T/ref.status")"
		done
	done
fi

# exactly the flags it needs: stdio alone when nothing is looked up
check_clean -u
check_clean -G
# stdio and getpw otherwise (libtame loads the name service inside
# tame(), and glibc then stats "/" and reads nsswitch.conf: the audit's
# permissive tame() must do the same, or it sees calls a real run never
# makes after tame(); the trace below shows a real run does not)
check_clean
check_clean -Gn
check_clean -u daemon
check_clean root daemon
# (not an unknown user: there nss-systemd, whose O_PATH lookups of "/"
# the audit lets succeed where a real run gets EACCES, goes on to read
# /etc/userdb/NAME.user, another call a real run never makes)

command -v strace > /dev/null || fail "strace not installed"
strace -f -o "$T/trace" -e trace=write,newfstatat,openat "$PORT" -Gn root \
    > /dev/null 2>&1 || fail "under strace: status $?"
awk '/"tame:0x203"/ { s = 1 } s && /newfstatat\(AT_FDCWD, "\/",/ { bad = 1 }
    s && /openat.*"\/etc\/group"/ { ok = 1 }
    END { exit !(s && ok && !bad) }' "$T/trace" ||
    fail "not tame:0x203, then /etc/group read and no stat of /: $(grep -E 'tame:|"/"|group' "$T/trace")"
strace -f -o "$T/trace" -e trace=write "$PORT" -u > /dev/null 2>&1 ||
    fail "under strace: status $?"
grep -q '"tame:0x3"' "$T/trace" || fail "id -u is not tame:0x3"

# an id that reads files dies, and says why
check_hook openat rpath
check_hook openat rpath -u
check_hook openat rpath -G -n root

# the untamed build is not tamed
strace -f -o "$T/trace" -e trace=write "$B/ports/id-untamed" \
    > /dev/null 2>&1 || fail "untamed under strace: status $?"
grep -q 'tame:0x' "$T/trace" && fail "id-untamed is tamed"
exit 0
