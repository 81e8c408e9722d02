#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-tee: the same bytes on stdout, in the files and the same status
# as the system tee (GNU): new and existing files, -a, the same file
# twice, "-" (a file of that name), no file, the mode of new files under
# a umask, a file that cannot be opened, one that cannot be written
# (/dev/full), a full stdout, -i against SIGINT, a bad option; exactly
# the flags it needs (tame-audit --check): wpath and cpath to open,
# stdio after; removing a file after taming is a violation.
# Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=tee
. tests/ports/lib.sh

case $PORT in
/*)	abs_port=$PORT ;;
*)	abs_port=$PWD/$PORT ;;
esac

# same FILE...: the system tee's files ($T/r.NAME) and the port's
# ($T/p.NAME) have the same bytes
same() {
	for f in "$@"; do
		cmp -s "$T/r.$f" "$T/p.$f" ||
		    fail "tame-tee: $T/p.$f differs from what tee wrote"
	done
}

printf 'one\ntwo\n\tthree\n' > "$T/in"
head -c 300000 /dev/urandom > "$T/random"
cat "$T/in" "$T/random" "$T/in" > "$T/stdin"

# new files; the same again over them (truncated), then appended
ref tee "$T/r.a" "$T/r.b"
port "$T/p.a" "$T/p.b"
same a b
cmp -s "$T/stdin" "$T/p.a" || fail "tame-tee: the file is not the input"
cp "$T/in" "$T/stdin"
ref tee "$T/r.a" "$T/r.b"
port "$T/p.a" "$T/p.b"
same a b
ref tee -a "$T/r.a" "$T/r.c" "$T/r.a"
port -a "$T/p.a" "$T/p.c" "$T/p.a"
same a c
ref tee -ai "$T/r.b"
port -ai "$T/p.b"
same b
# no file: a copy to stdout only; an empty input
ref tee
port
rm "$T/stdin"
ref tee "$T/r.a"
port "$T/p.a"
same a
cp "$T/in" "$T/stdin"
# "-" is a file named "-", not stdout
mkdir "$T/r" "$T/p"
(cd "$T/r" && tee - > ../r.out) < "$T/in"
(cd "$T/p" && "$abs_port" - > ../p.out) < "$T/in"
cmp -s "$T/r/-" "$T/p/-" && cmp -s "$T/r.out" "$T/p.out" ||
    fail "tame-tee -: not as tee does it"

# new files get 0666 less the umask; an existing file keeps its mode
(
	umask 027
	ref tee "$T/r.m"
	port "$T/p.m"
	[ "$(stat -c %a "$T/p.m")" = "$(stat -c %a "$T/r.m")" ] ||
	    fail "tame-tee under umask 027: mode $(stat -c %a "$T/p.m")"
	chmod 600 "$T/p.m"
	port "$T/p.m"
	[ "$(stat -c %a "$T/p.m")" = 600 ] ||
	    fail "tame-tee changed the mode of an existing file"
) || exit 1

# a file that cannot be opened, one that cannot be written: a message,
# status 1, the others still written
ref tee "$T/r.a" "$T/nodir/x" "$T/r.b"
port "$T/p.a" "$T/nodir/x" "$T/p.b"
same a b
grep -q "nodir" "$T/port.err" || fail "no message for a file not opened"
ref tee "$T/r.a" /dev/full "$T/r.b"
port "$T/p.a" /dev/full "$T/p.b"
same a b
grep -q "/dev/full" "$T/port.err" || fail "no message for a failed write"
ref tee -x "$T/r.new"
port -x "$T/p.new"
[ -e "$T/p.new" ] && fail "tame-tee -x created a file"
# stdout full: the same status, the files still written
tee "$T/r.a" < "$T/in" > /dev/full 2> /dev/null
echo $? > "$T/ref.status"
"$PORT" "$T/p.a" < "$T/in" > /dev/full 2> /dev/null
echo $? > "$T/port.status"
cmp -s "$T/ref.status" "$T/port.status" ||
    fail "tame-tee > /dev/full: status $(cat "$T/port.status")"
same a

# -i: SIGINT during the copy kills tee, but not tee -i.  The input is a
# FIFO this shell holds open; "first" in the file shows that the copy
# has started.  (A background job of a script ignores SIGINT: undo it.)
# intr TAG CMD...: the status of CMD FILE after a SIGINT into $T/TAG.
# Each wait ends with its event, or at once if CMD dies first; a CMD
# stuck for two minutes is killed and the test fails.
intr() {
	tag=$1
	shift
	rm -f "$T/fifo" "$T/$tag.i"
	mkfifo "$T/fifo" || fail "mkfifo"
	# read and write: opening does not wait for a reader
	exec 3<> "$T/fifo"
	env --default-signal=INT "$@" "$T/$tag.i" < "$T/fifo" > /dev/null \
	    2>&1 3>&- &
	pid=$!
	echo first >&3
	await $pid grep -q first "$T/$tag.i" ||
	    stuck "$*: \"first\" never reached the file"
	kill -INT $pid
	echo second >&3
	exec 3>&-
	await $pid gone $pid ||
	    stuck "$*: still running after SIGINT and the end of its input"
	wait $pid
	echo $? > "$T/$tag.status"
}

gone() {
	! kill -0 "$1" 2> /dev/null
}

# stuck WHAT: CMD did not get there; kill it and fail
stuck() {
	kill -9 $pid 2> /dev/null
	exec 3>&-
	fail "$1: $awaited"
}
intr r tee -i
intr p "$PORT" -i
cmp -s "$T/r.status" "$T/p.status" && cmp -s "$T/r.i" "$T/p.i" ||
    fail "tame-tee -i: status $(cat "$T/p.status") after SIGINT"
[ "$(cat "$T/p.status")" = 0 ] || fail "tame-tee -i was interrupted"
intr r tee
intr p "$PORT"
cmp -s "$T/r.status" "$T/p.status" ||
    fail "tame-tee: status $(cat "$T/p.status") after SIGINT, tee gave $(cat "$T/r.status")"

# exactly the flags it needs: new files, existing ones (O_CREAT still
# needs cpath), -a, none, one that fails
check_clean "$T/new1" "$T/new2"
check_clean "$T/new1" "$T/new2"
check_clean -a "$T/new1" "$T/new3"
check_clean
check_clean "$T/nodir/x"

# tame(STDIO|WPATH|CPATH) before the opens, tame(STDIO) after the last;
# no file: tame(STDIO) at once
command -v strace > /dev/null || fail "strace not installed"
strace -f -o "$T/trace" -e trace=write,openat "$PORT" "$T/p.a" "$T/p.b" \
    > /dev/null 2>&1 < "$T/in" || fail "under strace: status $?"
awk '/tame:0x1b"/ { s = 1 } s == 1 && /openat.*\/p\.[ab]"/ { n++ }
    /tame:0x3"/ { if (n == 2) ok = 1 } END { exit !ok }' "$T/trace" ||
    fail "not tame:0x1b, two opens, then tame:0x3: $(grep -E 'tame:|openat' "$T/trace")"
strace -f -o "$T/trace" -e trace=write "$PORT" < "$T/in" > /dev/null 2>&1 ||
    fail "under strace: status $?"
grep -q 'tame:0x1b' "$T/trace" && fail "no file, yet tame:0x1b"
grep -q 'tame:0x3' "$T/trace" || fail "no file, no tame:0x3"

# a tee that removes a file dies, and says why
check_hook unlink cpath "$T/p.a"
check_hook unlink cpath

# the untamed build is not tamed
strace -f -o "$T/trace" -e trace=write "$B/ports/tee-untamed" "$T/p.a" \
    > /dev/null 2>&1 < "$T/in" || fail "untamed under strace: status $?"
grep -q 'tame:0x' "$T/trace" && fail "tee-untamed is tamed"
exit 0
