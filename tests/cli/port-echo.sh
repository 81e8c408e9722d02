#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-echo: 100 KB of random bytes, an empty input and a text come back
# unchanged through the client and the server, over 127.0.0.1 and ::1
# (skipped, saying why, where ::1 is unavailable); a refused connection,
# a name instead of an address and usage errors give status 1 and a
# message; exactly the flags each mode needs (tame-audit --check on the
# client, and on the server serving one and two connections); the
# server tames to stdio|inet, accepts, then to stdio; the one hook,
# after the last tame() of either mode, dies opening a socket.
# Servers listen on port 0 and say which port the kernel picked; every
# wait is for the event itself, bounded only against a hang (two
# minutes), and ends at once if the process it waits for dies.
# Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=echo
. tests/ports/lib.sh
# A client and its server talk once: each audit is one run, the real one
# (tame-audit(1), HERMETIC RUNS: a server waits for its clients again)
CHECK_ONCE=--once

# Background servers: killed at the end.  A server audited by
# check_clean, which cannot be timed out from here, is released instead
# by connecting to it as many times as it still waits for.
pids=
pending=0
cleanup() {
	while [ "$pending" -gt 0 ]; do
		timeout 5 "$PORT" 127.0.0.1 "$port" < /dev/null \
		    > /dev/null 2>&1
		pending=$((pending - 1))
	done
	for p in $pids; do
		kill "$p" 2> /dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT

# wait_port FILE PID: wait for "listening on PORT" in FILE, which
# process PID writes; set $port
wait_port() {
	await "$2" grep -q '^listening on [0-9]*$' "$1" ||
	    fail "no server listening: $awaited: $(cat "$1" 2> /dev/null)"
	port=$(sed -n 's/^listening on \([0-9]*\)$/\1/p' "$1")
}

# server TAG ARG...: tame-echo -l ARG... 0 in the background (killed
# after two minutes if it hangs); sets $spid and $port
server() {
	tag=$1
	shift
	timeout 120 "$PORT" -l "$@" 0 > "$T/$tag.sout" 2> "$T/$tag.serr" \
	    < /dev/null &
	spid=$!
	pids="$pids $spid"
	wait_port "$T/$tag.serr" "$spid"
}

# server_done TAG: the server served its connections and exited 0
server_done() {
	wait "$spid"
	st=$?
	[ "$st" -eq 0 ] || fail "server $1: status $st: $(cat "$T/$1.serr")"
	[ -s "$T/$1.sout" ] && fail "server $1 wrote to its stdout"
	[ "$(cat "$T/$1.serr")" = "listening on $port" ] ||
	    fail "server $1 complained: $(cat "$T/$1.serr")"
}

head -c 102400 /dev/urandom > "$T/random"
printf 'one line\n\n\ttwo\000three\n' > "$T/text"

# three connections, one after the other, over IPv4
server v4 -n 3
cp "$T/random" "$T/stdin"
ref cat
port 127.0.0.1 "$port"
rm "$T/stdin"
ref cat
port 127.0.0.1 "$port"
cp "$T/text" "$T/stdin"
ref cat
port -4 127.0.0.1 "$port"
server_done v4

# once the server is gone its port refuses: status 1 and a message
ref sh -c 'exit 1'
port 127.0.0.1 "$port"
grep -q "connect to 127.0.0.1 port $port: Connection refused" \
    "$T/port.err" || fail "no message for a refused connection: $(cat "$T/port.err")"

# over IPv6, where the loopback has ::1
if grep -q '^00000000000000000000000000000001 ' /proc/net/if_inet6 \
    2> /dev/null; then
	server v6 -6 -n 2
	cp "$T/random" "$T/stdin"
	ref cat
	port ::1 "$port"
	cp "$T/text" "$T/stdin"
	ref cat
	port -6 ::1 "$port"
	server_done v6
	ref sh -c 'exit 1'
	port ::1 "$port"
	grep -q "Connection refused" "$T/port.err" ||
	    fail "no message for a refused IPv6 connection"
else
	echo "port-echo.sh: ::1 is not configured here: IPv6 skipped" >&2
fi

# errors: names are not resolved, usage, a bad port or count
rm -f "$T/stdin"
ref sh -c 'exit 1'
port localhost 7
grep -q "names are not resolved" "$T/port.err" ||
    fail "no message for a name: $(cat "$T/port.err")"
port -4 ::1 7
port
port -l
port -l 1 2
port -n 2 127.0.0.1 7
port -x 127.0.0.1 7
grep -q usage "$T/port.err" || fail "no usage message for -x"
port -l 65536
port -l -n 0 0
port -l -n x 0

# exactly the flags it needs: the client, with a server
server clean1 -n 1
cp "$T/random" "$T/stdin"
check_clean 127.0.0.1 "$port"
server_done clean1

# the server, serving one connection and then two; its client checks
# the bytes came back
rm "$T/stdin"
for n in 1 2; do
	rm -f "$T/check.err"	# the last round's port is not this one's
	check_clean -l -n "$n" 0 &
	cpid=$!
	wait_port "$T/check.err" "$cpid"
	pending=$n
	while [ "$pending" -gt 0 ]; do
		pending=$((pending - 1))
		timeout 20 "$PORT" 127.0.0.1 "$port" < "$T/random" \
		    > "$T/out" 2> "$T/err" ||
		    fail "client of the audited server: $(cat "$T/err")"
		cmp -s "$T/random" "$T/out" ||
		    fail "the audited server did not echo"
	done
	wait "$cpid" || exit 1	# check_clean said why
done

# the server: tame:0x43 (stdio|inet), accept, then tame:0x3 (stdio)
command -v strace > /dev/null || fail "strace not installed"
timeout 120 strace -f -o "$T/trace" -e trace=write,accept,accept4 \
    "$PORT" -l -n 1 0 > /dev/null 2> "$T/strace.serr" < /dev/null &
spid=$!
pids="$pids $spid"
wait_port "$T/strace.serr" "$spid"
timeout 20 "$PORT" 127.0.0.1 "$port" < "$T/text" > "$T/out" ||
    fail "client of the traced server: status $?"
wait "$spid" || fail "server under strace: status $?"
awk '/tame:0x43"/ { s = 1 } s == 1 && /accept4?\(/ { a = 1 }
    /tame:0x3"/ { if (a) ok = 1 } END { exit !ok }' "$T/trace" ||
    fail "not tame:0x43, accept, then tame:0x3: $(grep -E 'tame:|accept' "$T/trace")"

# the one hook, after the last tame() of either mode: a socket
server hook1 -n 1
check_hook socket inet 127.0.0.1 "$port"
server_done hook1
(TAME_TEST_HOOK=1 timeout 120 "$HOOK" -l -n 1 0 > /dev/null \
    2> "$T/shook.err" < /dev/null; echo $? > "$T/shook.status") \
    2> /dev/null &
hpid=$!
pids="$pids $hpid"
wait_port "$T/shook.err" "$hpid"
timeout 20 "$PORT" 127.0.0.1 "$port" < "$T/text" > /dev/null 2>&1
wait "$hpid"
[ "$(cat "$T/shook.status")" -eq 159 ] ||
    fail "the hooked server: status $(cat "$T/shook.status"), want 159: $(cat "$T/shook.err")"
grep -q "^echo-hook\[[0-9]*\]: tame: socket.* needs .*inet" \
    "$T/shook.err" || fail "the hooked server's line: $(cat "$T/shook.err")"

# the untamed build is not tamed
server untamed -n 1
strace -f -o "$T/trace" -e trace=write "$B/ports/echo-untamed" \
    127.0.0.1 "$port" < "$T/text" > /dev/null 2>&1 ||
    fail "untamed under strace: status $?"
server_done untamed
grep -q 'tame:0x' "$T/trace" && fail "echo-untamed is tamed"
exit 0
