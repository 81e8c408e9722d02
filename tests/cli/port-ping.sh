#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-ping against iputils ping on 127.0.0.1 and ::1: the same lines
# once the times are normalised (each "time=N ms", the "time Nms" total,
# the numbers of the rtt and ipg/ewma lines, "pipe N"; where -w's
# deadline ends the run, the replies and counts, which the clock
# decides), and the
# same status: -c, -i (0 too, as root), -w, -s (small sizes print no
# times), -q, -n, -4 with a name looked up in reverse; no destination,
# -c 0 and bad numbers (1), an unknown host, a bad option, a family the
# address is not of (2).  tame-audit --check: exactly the flags it
# needs; tame:0x43 (stdio|inet) after the socket, the socket configured,
# tame:0x3 (stdio) before the first echo; the hook dies reading
# /etc/hosts.
# Then again in a network namespace of its own (the test runs itself
# under unshare -n), where net.ipv4.ping_group_range is opened: the
# ICMP datagram socket, as root and as nobody (who gets no raw socket,
# and without the range no socket at all: status 2), and a loopback
# that ignores echoes (no reply: status 1, the summary alone).  Parts
# that cannot run here (no root, no unshare) say "skipped" and why.
# Every ping runs under timeout 20.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=ping
. tests/ports/lib.sh

PING=$(command -v ping) || fail "iputils ping not installed"
NOBODY="setpriv --reuid=65534 --regid=65534 --clear-groups"
AS=

# Each time and number iputils prints differently from run to run (and
# "pipe N", how many echoes were out at once at -i 0, which the
# scheduler decides: a busy guest showed "pipe 2" for one of the two); in
# a run its deadline ends (clocked), also how many probes went out
# before it, and so the replies and the counts.
normalise() {
	sed -E -e 's/time=[0-9.]+ ms/time=N ms/' \
	    -e 's/, time [0-9]+ms$/, time Nms/' \
	    -e 's#^rtt min/avg/max/mdev = [0-9./]+ ms#rtt min/avg/max/mdev = N ms#' \
	    -e 's#^(rtt .* ms), pipe [0-9]+,#\1,#' \
	    -e 's#ipg/ewma [0-9./]+ ms$#ipg/ewma N ms#' "$1" |
	if [ -n "$clocked" ]; then
		sed -E -e '/^[0-9]+ bytes from /d' \
		    -e 's/^[0-9]+ packets transmitted, [1-9][0-9]* received, [0-9.]+% packet loss/N packets transmitted, N received, N% packet loss/' \
		    -e 's/^[0-9]+ packets transmitted, 0 received/N packets transmitted, 0 received/'
	else
		cat
	fi
}

# both STATUS ARG...: iputils ping (as $AS) exits STATUS, and tame-ping
# gives the same status and the same lines once normalised.
both() {
	want=$1
	shift
	# shellcheck disable=SC2086
	run_into ref timeout 20 $AS "$PING" "$@"
	# shellcheck disable=SC2086
	run_into port timeout 20 $AS "$PORT" "$@"
	[ "$(cat "$T/ref.status")" -eq "$want" ] ||
	    fail "${AS:+$AS }ping $*: status $(cat "$T/ref.status"), want $want: $(head -c 300 "$T/ref.err")"
	normalise "$T/ref.out" > "$T/ref.norm"
	normalise "$T/port.out" > "$T/port.norm"
	# Debian 12's iputils under a dual-stack /etc/hosts (localhost as
	# 127.0.0.1 and ::1, Debian's default; the arm64 guests' root) prints
	# an empty name for -4 localhost: it takes the second of glibc's two
	# 127.0.0.1 answers, which has no canonical name.  tame-ping prints
	# the first's; only there the name itself is not compared.
	if grep -q '^PING  (' "$T/ref.norm"; then
		sed -E -i -e 's/^PING [^ ]* \(/PING  (/' \
		    -e 's/^--- [^ ]* ping statistics/---  ping statistics/' \
		    "$T/port.norm"
	fi
	cmp -s "$T/ref.norm" "$T/port.norm" ||
	    fail "${AS:+$AS }tame-ping $*: output differs from ping's:
$(diff "$T/ref.norm" "$T/port.norm" | head -n 10)"
	cmp -s "$T/ref.status" "$T/port.status" ||
	    fail "${AS:+$AS }tame-ping $*: status $(cat "$T/port.status"), ping gave $want: $(head -c 300 "$T/port.err")"
	[ "$want" -ne 0 ] ||
	    grep -q '^[0-9]* packets transmitted, [1-9]' "$T/port.out" ||
	    fail "tame-ping $*: no reply: $(cat "$T/port.out")"
}

# clocked STATUS ARG...: both, for a run that its deadline (-w) ends,
# not its count: probes go out until the clock says, so their number is
# not compared (status, header and summary are; a zero received is).
clocked=
clocked() {
	clocked=1
	both "$@"
	clocked=
}

# The sequence: the socket, tame(stdio|inet), the configuration,
# tame(stdio), then nothing but descriptor I/O.  $1: socket type wanted.
check_sequence() {
	type=$1
	shift
	# shellcheck disable=SC2086
	timeout 20 strace -f -o "$T/trace" \
	    -e trace=write,socket,connect,setsockopt,sendto,recvmsg,openat \
	    $AS "$PORT" "$@" > /dev/null 2>&1 ||
	    fail "tame-ping $* under strace: status $?"
	awk -v type="$type" '
	    /^[0-9]+ +socket\(.*SOCK_RAW|^[0-9]+ +socket\(.*SOCK_DGRAM.*IPPROTO_ICMP/ {
		if (s != 0) bad = bad " socket after tame"
		if ($0 ~ type && $0 ~ /= [0-9]+$/) sock = 1
	    }
	    /tame:0x43"/ { s = 1; if (!sock) bad = bad " no " type " socket" }
	    s == 1 && /connect\(.*= 0$/ { conn = 1 }
	    /tame:0x3"/ { if (s == 1 && conn) s = 2; else bad = bad " 0x3 early" }
	    s == 2 && /connect\(|setsockopt\(|openat\(/ { bad = bad " " $2 }
	    s == 2 && /sendto\(.*NULL, 0\) = [0-9]+$/ { sent = 1 }
	    END { if (s != 2 || !sent) bad = bad " no tame:0x3 then sends"
		if (bad != "") { print bad; exit 1 } }' "$T/trace" > "$T/seq" ||
	    fail "tame-ping $*: not $type socket, tame:0x43, connect, tame:0x3, send:$(cat "$T/seq")
$(grep -E 'socket|tame:|connect' "$T/trace" | head -n 10)"
}

# In a network namespace of our own (run by the rest of the test under
# unshare -n): open ping_group_range, so that the ICMP datagram socket
# is used, by root and by nobody, who can have no other.
netns_part() {
	ip link set lo up || fail "ip link set lo up: status $?"
	if ! sysctl -qw net.ipv4.ping_group_range="0 2147483647"; then
		echo "port-ping.sh: skipped: ping_group_range cannot be" \
		    "set in a network namespace: the datagram socket part" >&2
		exit 0
	fi
	check_sequence SOCK_DGRAM -c 1 127.0.0.1
	check_sequence SOCK_DGRAM -c 1 ::1
	both 0 -c 3 -i 0.2 -W 1 127.0.0.1
	both 0 -c 3 -i 0.2 -W 1 ::1
	both 0 -q -c 20 -i 0 127.0.0.1
	check_clean -c 3 -i 0.2 127.0.0.1
	check_clean -c 3 -i 0.2 ::1

	AS=$NOBODY
	both 0 -c 3 -i 0.2 -W 1 127.0.0.1
	both 0 -c 3 -i 0.2 -W 1 ::1
	both 0 -q -c 3 -i 0.2 ::1
	both 2 -c 3 -i 0 127.0.0.1	# cannot flood
	check_sequence SOCK_DGRAM -c 1 127.0.0.1
	check_sequence SOCK_DGRAM -c 1 ::1
	for dst in 127.0.0.1 ::1; do
		# shellcheck disable=SC2086
		$NOBODY env TMPDIR=/tmp "$AUDIT" --check -- "$PORT" -c 2 \
		    -i 0.2 $dst > "$T/check" 2>&1 ||
		    fail "as nobody: tame-audit --check -- tame-ping $dst: status $?:
$(head -n 30 "$T/check")"
	done
	# nobody outside the range gets no ICMP socket at all
	sysctl -qw net.ipv4.ping_group_range="1 0" ||
	    fail "cannot close ping_group_range again"
	# shellcheck disable=SC2086
	run_into port timeout 20 $NOBODY "$PORT" -c 1 127.0.0.1
	if [ "$(cat "$T/port.status")" -ne 2 ] ||
	    ! grep -q '^tame-ping: socket: ' "$T/port.err"; then
		fail "as nobody, no ICMP socket: status $(cat "$T/port.status"), want 2: $(cat "$T/port.err")"
	fi
	AS=

	# nothing answers: the summary alone, status 1
	sysctl -qw net.ipv4.icmp_echo_ignore_all=1 ||
	    fail "cannot set icmp_echo_ignore_all"
	both 1 -c 2 -i 0.2 -W 0.5 127.0.0.1
	# (-c with -w counts replies: probes go out until the deadline)
	clocked 1 -c 2 -w 1 -i 0.3 127.0.0.1
	if sysctl -qw net.ipv6.icmp.echo_ignore_all=1 2> /dev/null; then
		both 1 -c 2 -i 0.2 -W 0.5 ::1
	else
		echo "port-ping.sh: skipped: no" \
		    "net.ipv6.icmp.echo_ignore_all: IPv6 without replies" >&2
	fi
	exit 0
}

if [ -n "$PORT_PING_NETNS" ]; then
	netns_part
fi

# The host's own network: whichever socket we get here.  (iputils may
# have a raw socket by its file capability where tame-ping has none.)
timeout 20 "$PORT" -c 1 -W 1 127.0.0.1 > /dev/null 2> "$T/probe"
probe=$?
if ! timeout 20 "$PING" -c 1 -W 1 127.0.0.1 > /dev/null 2>&1; then
	echo "port-ping.sh: skipped: ping 127.0.0.1 fails here" \
	    "(no ICMP?): the host part" >&2
elif [ "$probe" -eq 2 ] && grep -q '^tame-ping: socket: ' "$T/probe" &&
    [ "$(id -u)" -ne 0 ]; then
	echo "port-ping.sh: skipped: no ICMP socket for uid $(id -u)" \
	    "(ping_group_range: $(cat /proc/sys/net/ipv4/ping_group_range)):" \
	    "the host part" >&2
else
	both 0 -c 3 -i 0.2 -W 1 127.0.0.1
	both 0 -q -c 3 -i 0.2 -W 1 127.0.0.1
	both 0 -c 2 -i 0.2 -s 8 127.0.0.1
	both 0 -c 2 -i 0.2 -s 1000 127.0.0.1
	both 0 -c 2 -w 5 -i 0.2 127.0.0.1
	clocked 0 -w 1 -i 0.3 127.0.0.1
	both 0 -4 -c 2 -i 0.2 localhost
	both 0 -4 -n -c 2 -i 0.2 -q localhost
	if [ "$(id -u)" -eq 0 ]; then
		both 0 -c 20 -i 0 127.0.0.1
	else
		both 2 -c 20 -i 0 127.0.0.1	# cannot flood
	fi
	if timeout 20 "$PING" -c 1 -W 1 ::1 > /dev/null 2>&1; then
		both 0 -c 3 -i 0.2 -W 1 ::1
		both 0 -q -c 3 -i 0.2 ::1
		both 0 -c 2 -i 0.2 -s 0 ::1
		both 0 -6 -c 2 -i 0.2 -s 200 ::1
		[ "$(id -u)" -eq 0 ] && both 0 -q -c 20 -i 0 ::1
	else
		echo "port-ping.sh: skipped: ::1 does not answer here: IPv6" >&2
	fi

	check_clean -c 3 -i 0.2 127.0.0.1
	check_clean -c 3 -i 0.2 ::1
	check_clean -4 -q -c 2 -i 0.2 localhost
	[ "$(id -u)" -eq 0 ] && check_clean -q -c 50 -i 0 127.0.0.1
	command -v strace > /dev/null || fail "strace not installed"
	# the host's ping_group_range may or may not let us have one
	check_sequence 'SOCK_(RAW|DGRAM)' -c 1 127.0.0.1
	check_hook openat rpath -c 1 127.0.0.1
	check_hook openat rpath -c 1 ::1
fi

# errors need no network
both 2 -c 1 no.such.host.invalid
both 1 -c 0 127.0.0.1
both 1 -c abc 127.0.0.1
both 1 -s abc 127.0.0.1
both 2 -Z 127.0.0.1
both 1
both 2 -4 ::1
both 2 -6 -c 1 127.0.0.1
both 2 -4 -6 ::1

# the untamed build is not tamed
strace -f -o "$T/trace" -e trace=write "$B/ports/ping-untamed" -c 1 \
    127.0.0.1 > /dev/null 2>&1
grep -q 'tame:0x' "$T/trace" && fail "ping-untamed is tamed"

# The same again in a network namespace: the datagram socket.
if [ "$(id -u)" -ne 0 ]; then
	echo "port-ping.sh: skipped: not root: the datagram socket part" >&2
	exit 0
fi
if ! unshare -n true 2> /dev/null; then
	echo "port-ping.sh: skipped: unshare -n fails here:" \
	    "the datagram socket part" >&2
	exit 0
fi
unshare -n env B="$B" PORT_PING_NETNS=1 sh tests/cli/port-ping.sh || exit 1
exit 0
