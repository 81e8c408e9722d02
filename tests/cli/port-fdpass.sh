#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-fdpass: two files (a text and 100 KB of random bytes) passed by
# descriptor come out of the receiver as "name\ncontents" each, as cat
# prints them; a missing file is reported and skipped (status 1), and
# usage errors, a socket path that exists, one too long and a connect
# to nothing give status 1.  A receiver tamed without cmsg (tame-exec)
# gets the names but no descriptors; a sender without cmsg dies at
# sendmsg SCM_RIGHTS.  tame-audit --check: the sender and the receiver
# declare exactly what they need.  The receiver tames to
# stdio|cpath|cmsg, accepts, removes its path, then stdio|cmsg; the
# hook, after the last tame() of either mode, dies opening a file.
# Every wait is for the event itself, bounded only against a hang (two
# minutes), and ends at once if the process it waits for dies.
# Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=fdpass
. tests/ports/lib.sh

S=$T/sock
EXEC=$B/tame-exec
UNTAMED=$B/ports/fdpass-untamed
# A receiver still waiting in accept() is released by connecting to it
# (one of them runs under tame-audit, which is only bounded by its own
# --timeout); the others run under timeout(1) and are killed.
pids=
cleanup() {
	[ -S "$S" ] && timeout 5 "$PORT" send "$S" /dev/null \
	    > /dev/null 2>&1
	for p in $pids; do
		kill "$p" 2> /dev/null
	done
	rm -rf "$T"
}
trap cleanup EXIT

# receiver TAG CMD...: CMD (a receiver on $S) in the background (killed
# after two minutes if it hangs), output in $T/TAG.out and .err; returns
# once $S is listening
receiver() {
	tag=$1
	shift
	rm -f "$S"
	timeout 120 "$@" > "$T/$tag.out" 2> "$T/$tag.err" < /dev/null &
	rpid=$!
	pids="$pids $rpid"
	wait_sock "$rpid" "$T/$tag.err"
}

# wait_sock PID ERR: wait until process PID listens on $S (ERR: its
# stderr, shown if it does not)
wait_sock() {
	await "$1" test -S "$S" ||
	    fail "no receiver listening: $awaited: $(cat "$2" 2> /dev/null)"
}

# receiver_done TAG STATUS: it exited with STATUS, its path removed, and
# printed what ref printed
receiver_done() {
	wait "$rpid"
	st=$?
	[ "$st" -eq "$2" ] ||
	    fail "receiver $1: status $st, want $2: $(cat "$T/$1.err")"
	[ -e "$S" ] && fail "receiver $1 left its socket behind"
	cmp -s "$T/ref.out" "$T/$1.out" ||
	    fail "receiver $1: output differs from $ref_cmd:
$(diff "$T/ref.out" "$T/$1.out" | head -n 10)"
}

printf 'first line\n\tsecond line\nno newline' > "$T/text"
head -c 102400 /dev/urandom > "$T/random"
: > "$T/empty"
# what the receiver prints: each name, a newline, the contents
expect() {
	# shellcheck disable=SC2016
	ref sh -c 'for f; do printf "%s\n" "$f"; cat "$f"; done' sh "$@"
}

# two files, then three with an empty one, names as given
receiver two "$PORT" recv "$S"
ref true
port send "$S" "$T/text" "$T/random"
expect "$T/text" "$T/random"
receiver_done two 0
[ -s "$T/two.err" ] && fail "the receiver complained: $(cat "$T/two.err")"
# a relative socket path, from within $T
case $PORT in
/*)	abs=$PORT ;;
*)	abs=$PWD/$PORT ;;
esac
receiver three env -C "$T" "$abs" recv sock
ref true
port send "$S" "$T/random" "$T/empty" "$T/text"
expect "$T/random" "$T/empty" "$T/text"
receiver_done three 0

# a missing file: a message, status 1, the others still passed
receiver missing "$PORT" recv "$S"
ref sh -c 'exit 1'
port send "$S" "$T/text" "$T/missing" "$T/random"
grep -q "missing: No such file or directory" "$T/port.err" ||
    fail "no message for a missing file: $(cat "$T/port.err")"
expect "$T/text" "$T/random"
receiver_done missing 0

# errors, all status 1: usage, nobody listening, a path that exists,
# a path too long for a socket
ref sh -c 'exit 1'
port
grep -q usage "$T/port.err" || fail "no usage message"
port send "$S"
port recv
port recv "$S" extra
port copy "$S" "$T/text"
port -x recv "$S"
port send "$S" "$T/text"
grep -q "connect" "$T/port.err" || fail "no message for a failed connect"
port recv "$T/text"
grep -q "Address already in use" "$T/port.err" ||
    fail "no message for a path in use: $(cat "$T/port.err")"
long=$T/$(printf '%0120d' 0)
port recv "$long"
port send "$long" "$T/text"

# without cmsg, the descriptors are closed on the way in: the receiver
# (untamed, so tame-exec's flags are the only ones) gets only the names
receiver nocmsg "$EXEC" -f stdio,unix,cpath -- "$UNTAMED" recv "$S"
ref true
port send "$S" "$T/text" "$T/random"
ref true
receiver_done nocmsg 1
grep -q "descriptors were discarded" "$T/nocmsg.err" ||
    fail "no message for discarded descriptors: $(cat "$T/nocmsg.err")"
[ "$(grep -c "no descriptor came with it" "$T/nocmsg.err")" -eq 2 ] ||
    fail "not two names without descriptors: $(cat "$T/nocmsg.err")"
# and a sender without cmsg dies at its first descriptor
receiver nosend "$PORT" recv "$S"
(timeout 30 "$EXEC" -f stdio,rpath,unix -- "$UNTAMED" send "$S" \
    "$T/text" > /dev/null 2> "$T/nosend.serr"
    echo $? > "$T/nosend.status") 2> /dev/null
[ "$(cat "$T/nosend.status")" -eq 159 ] ||
    fail "a sender without cmsg: status $(cat "$T/nosend.status"), want 159"
grep -q "tame: sendmsg SCM_RIGHTS needs cmsg" "$T/nosend.serr" ||
    fail "a sender without cmsg: $(cat "$T/nosend.serr")"
ref true
receiver_done nosend 0

# exactly the flags the sender needs
receiver csend "$PORT" recv "$S"
check_clean send "$S" "$T/text" "$T/random"
expect "$T/text" "$T/random"
receiver_done csend 0

# the receiver: exactly the flags it needs (tame-audit counts the
# descriptors that arrived: without cmsg they would be closed).  One run
# only (--once): a socket bound in a hermetic view is out of reach of a
# sender outside it (tame-audit(1), HERMETIC RUNS)
rm -f "$S"
"$AUDIT" --check --once --timeout 120 -o "$T/check" -- "$PORT" recv "$S" \
    > "$T/crecv.out" 2> "$T/crecv.err" < /dev/null &
rpid=$!
pids="$pids $rpid"
wait_sock "$rpid" "$T/crecv.err"
timeout 30 "$PORT" send "$S" "$T/text" "$T/random" ||
    fail "sending to the audited receiver: status $?"
expect "$T/text" "$T/random"
wait "$rpid"
st=$?
[ "$st" -eq 0 ] ||
    fail "tame-audit --check -- tame-fdpass recv: status $st: $(cat "$T/check" "$T/crecv.err")"
cmp -s "$T/ref.out" "$T/crecv.out" || fail "the audited receiver's output"

# the receiver: tame:0x413 (stdio|cpath|cmsg), accept, unlink, then
# tame:0x403 (stdio|cmsg); unlink is unlinkat where the architecture has
# no unlink (arm64)
command -v strace > /dev/null || fail "strace not installed"
rm -f "$S"
timeout 120 strace -f -o "$T/trace" -e 'trace=write,accept4,/^unlink(at)?$' \
    "$PORT" recv "$S" > /dev/null 2> "$T/strace.err" < /dev/null &
rpid=$!
pids="$pids $rpid"
wait_sock "$rpid" "$T/strace.err"
timeout 30 "$PORT" send "$S" "$T/text" || fail "sending to strace: $?"
wait "$rpid" || fail "receiver under strace: status $?"
awk '/tame:0x413"/ { s = 1 } s == 1 && /accept4\(/ { a = 1 }
    a == 1 && /unlink(at)?\(/ { u = 1 } /tame:0x403"/ { if (u) ok = 1 }
    END { exit !ok }' "$T/trace" ||
    fail "not tame:0x413, accept, unlink, then tame:0x403: $(grep -E 'tame:|accept|unlink' "$T/trace")"

# the one hook, after the last tame() of either mode: opening a file
receiver hook1 "$PORT" recv "$S"
check_hook openat rpath send "$S" "$T/text"
# it died before connecting: the receiver still waits
timeout 30 "$PORT" send "$S" "$T/empty" || fail "release: status $?"
expect "$T/empty"
receiver_done hook1 0
rm -f "$S"
(TAME_TEST_HOOK=1 timeout 120 "$HOOK" recv "$S" > /dev/null \
    2> "$T/rhook.err" < /dev/null; echo $? > "$T/rhook.status") \
    2> /dev/null &
rpid=$!
pids="$pids $rpid"
wait_sock "$rpid" "$T/rhook.err"
timeout 30 "$PORT" send "$S" "$T/text" > /dev/null 2>&1
wait "$rpid"
[ "$(cat "$T/rhook.status")" -eq 159 ] ||
    fail "the hooked receiver: status $(cat "$T/rhook.status"), want 159: $(cat "$T/rhook.err")"
grep -q '^fdpass-hook\[[0-9]*\]: tame: openat "/etc/hostname".* needs .*rpath' \
    "$T/rhook.err" || fail "the hooked receiver's line: $(cat "$T/rhook.err")"

# the untamed build is not tamed
receiver untamed "$PORT" recv "$S"
strace -f -o "$T/trace" -e trace=write "$UNTAMED" send "$S" "$T/text" \
    > /dev/null 2>&1 || fail "untamed under strace: status $?"
expect "$T/text"
receiver_done untamed 0
grep -q 'tame:0x' "$T/trace" && fail "fdpass-untamed is tamed"
exit 0
