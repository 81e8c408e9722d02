#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-stty: the same bytes and status as GNU stty for "size" and -g on
# a pseudo-terminal (made by python3's pty module and held open for the
# test), as the standard input and with -F, before and after GNU stty
# resizes it and changes its modes; -g output GNU stty takes back; the
# errors: a standard input or device that is not a terminal, a missing
# device, bad operands and options; the flags it needs (tame-audit
# --check); TIOCSTI after taming is a violation.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME="stty"
. tests/ports/lib.sh

PY=/usr/bin/python3
[ -x "$PY" ] || PY=$(command -v python3) || fail "python3 not installed"
command -v strace > /dev/null || fail "strace not installed"

# a terminal of 30 rows and 100 columns, held for as long as this test
# runs (its holder dies with it); its name comes through a FIFO, read
# once the holder has written it
mkfifo "$T/pts" || fail "mkfifo"
"$PY" -c '
import ctypes, fcntl, os, signal, struct, sys, termios
ctypes.CDLL(None).prctl(1, signal.SIGTERM)	# PR_SET_PDEATHSIG
if os.getppid() != int(sys.argv[1]):
    sys.exit("the test is gone")
m, s = os.openpty()
fcntl.ioctl(s, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
print(os.ttyname(s), flush=True)
while True:
    signal.pause()
' "$$" > "$T/pts" &
holder=$!
trap 'kill "$holder" 2> /dev/null; rm -rf "$T"' EXIT
read -r PTS < "$T/pts"
[ -c "$PTS" ] || fail "no pseudo-terminal: '$PTS'"

# on_tty ARG...: stty ARG... < the terminal, as GNU stty does it
on_tty() {
	stty "$@" < "$PTS" > "$T/ref.out" 2> "$T/ref.err"
	echo $? > "$T/ref.status"
	"$PORT" "$@" < "$PTS" > "$T/port.out" 2> "$T/port.err"
	echo $? > "$T/port.status"
	cmp -s "$T/ref.out" "$T/port.out" &&
	    cmp -s "$T/ref.status" "$T/port.status" ||
	    fail "tame-stty $* < $PTS: $(cat "$T/port.out" "$T/port.status" \
		"$T/port.err"), GNU stty: $(cat "$T/ref.out" "$T/ref.status")"
}

for want in "30 100" "41 123"; do
	ref stty -F "$PTS" size
	port -F "$PTS" size
	[ "$(cat "$T/port.out")" = "$want" ] ||
	    fail "size: $(cat "$T/port.out"), want $want"
	ref stty -F "$PTS" -g
	port -F "$PTS" -g
	on_tty size
	on_tty -g
	on_tty -g -g
	# resized and with other modes, by GNU stty
	stty -F "$PTS" rows 41 cols 123 -echo raw || fail "GNU stty failed"
done
# what -g prints, GNU stty sets again
"$PORT" -F "$PTS" -g > "$T/saved" || fail "-g: status $?"
stty -F "$PTS" sane echo || fail "GNU stty sane failed"
stty -F "$PTS" "$(cat "$T/saved")" || fail "GNU stty cannot take -g back"
[ "$(stty -F "$PTS" -g)" = "$(cat "$T/saved")" ] ||
    fail "-g did not come back: $(stty -F "$PTS" -g)"

# errors: not a terminal (stdin, -F), a missing device, usage
ref stty size
port size
grep -q "'standard input': Inappropriate ioctl for device" "$T/port.err" ||
    fail "no message for a standard input that is no terminal: $(cat "$T/port.err")"
ref stty -g
port -g
ref stty -F /dev/null size
port -F /dev/null size
ref stty -F "$T/missing" size
port -F "$T/missing" size
for args in "-F $PTS size -g" "-F $PTS -g size" "-F $PTS bogus" \
    "-F $PTS size size" -x -F; do
	# shellcheck disable=SC2086
	ref stty $args
	# shellcheck disable=SC2086
	port $args
done

# exactly the flags it needs: without ioctl, TIOCGWINSZ and TCGETS would
# fail softly (ENOTTY) and stty with them, so tame-audit --check must
# count ioctl as needed; and strace shows the tamed calls succeed
check_ioctl() {
	"$AUDIT" --check -o "$T/check" -- "$PORT" "$@" > /dev/null \
	    2> "$T/check.err" < "$PTS"
	st=$?
	[ "$st" -eq 0 ] || fail "tame-audit --check -- tame-$NAME $*: status $st:
$(cat "$T/check" "$T/check.err" 2> /dev/null | head -n 30)"
}
check_ioctl -F "$PTS" size
check_ioctl size
check_ioctl -F "$PTS" -g
strace -o "$T/trace" -e trace=write,ioctl "$PORT" -F "$PTS" size \
    > /dev/null 2>&1 || fail "under strace: status $?"
awk '/"tame:0x803"/ { s = 1 }
    s && /ioctl\(3, TIOCGWINSZ, \{ws_row=41, ws_col=123/ && / = 0$/ { ok = 1 }
    END { exit !ok }' "$T/trace" ||
    fail "not tame:0x803, then TIOCGWINSZ answered: $(grep -E 'tame:|ioctl' "$T/trace")"
strace -o "$T/trace" -e trace=write,ioctl "$PORT" -g < "$PTS" \
    > /dev/null 2>&1 || fail "under strace: status $?"
awk '/"tame:0x803"/ { s = 1 } s && /ioctl\(0, TCGETS, / && / = 0$/ { ok = 1 }
    END { exit !ok }' "$T/trace" ||
    fail "not tame:0x803, then TCGETS answered: $(grep -E 'tame:|ioctl' "$T/trace")"

# an stty that types into the terminal dies, and says why
check_hook ioctl - -F "$PTS" size
check_hook ioctl - size

# the untamed build is not tamed
strace -o "$T/trace" -e trace=write "$B/ports/stty-untamed" -F "$PTS" size \
    > /dev/null 2>&1 || fail "untamed under strace: status $?"
grep -q 'tame:0x' "$T/trace" && fail "stty-untamed is tamed"
exit 0
