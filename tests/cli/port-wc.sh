#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-wc: the same bytes and status as the system wc (GNU) with every
# option, in the C locale and in UTF-8, on files, "-", a regular file,
# /dev/null and a pipe as stdin (GNU's column widths depend on which),
# a missing file, a directory, a bad option; exactly the flags it needs
# (tame-audit --check), narrowing after the last open; opening a file
# after taming is a violation.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=wc
. tests/ports/lib.sh

# pipe CMD...: the bytes of $T/in through a pipe into the system wc and
# into the port, with the same arguments, must give the same output
pipe() {
	cat "$T/in" | wc "$@" > "$T/pref.out" 2> /dev/null
	cat "$T/in" | "$PORT" "$@" > "$T/pport.out" 2> /dev/null
	cmp -s "$T/pref.out" "$T/pport.out" ||
	    fail "... | tame-wc $*: output differs from wc:
$(diff "$T/pref.out" "$T/pport.out" | head -n 10)"
}

printf 'one two\tthree\n\n  four\v\f\rfive \001 \177six\nseven\000eight  ' \
    > "$T/in"
# UTF-8: accents, a wide space, no-break spaces (GNU ends words there),
# a zero-width space (printable), a control (U+0085), bytes that do not
# decode and a character cut by the end of the file
printf 'caf\303\251 \342\202\254 na\303\257ve\342\200\203x\302\240y\n' \
    > "$T/utf8"
printf 'a\342\200\257b a\342\201\240b \342\200\213 \302\205 \377z\300\n' \
    >> "$T/utf8"
# U+2028 and U+2029 are spaces but not printable: GNU wc takes them for
# neither a word nor a separator (random input found this once)
printf 'a\342\200\250b c\342\200\251\032\231d\n' >> "$T/utf8"
printf 'tail \360\237\230\200 \360\237\230' >> "$T/utf8"
# random bytes, long enough that characters straddle reads
head -c 200000 /dev/urandom > "$T/random"
cp "$T/in" "$T/stdin"

locales=C
locale -a 2> /dev/null | grep -qi '^c\.utf-*8$' && locales="C C.UTF-8"
for loc in $locales; do
	export LC_ALL="$loc"
	for opts in "" -l -w -c -m -lw -lc -wm -cm -lwc -lwmc; do
		# shellcheck disable=SC2086
		ref wc $opts "$T/in" - "$T/utf8" "$T/random"
		# shellcheck disable=SC2086
		port $opts "$T/in" - "$T/utf8" "$T/random"
		# one file, stdin: regular, then a pipe
		# shellcheck disable=SC2086
		ref wc $opts "$T/utf8"
		# shellcheck disable=SC2086
		port $opts "$T/utf8"
		# shellcheck disable=SC2086
		ref wc $opts
		# shellcheck disable=SC2086
		port $opts
		# shellcheck disable=SC2086
		pipe $opts
		# shellcheck disable=SC2086
		pipe $opts - "$T/utf8"
	done
	POSIXLY_CORRECT=1 && export POSIXLY_CORRECT
	ref wc "$T/utf8"
	port "$T/utf8"
	unset POSIXLY_CORRECT
done
unset LC_ALL

# stdin is /dev/null, not a regular file: the widest columns
rm "$T/stdin"
ref wc
port
ref wc -
port -
ref wc -c "$T/random"
port -c "$T/random"
# a missing file: a message, status 1, the others still counted
ref wc "$T/in" "$T/missing" "$T/random"
port "$T/in" "$T/missing" "$T/random"
grep -q "missing" "$T/port.err" || fail "no message for a missing file"
ref wc -l "$T/missing"
port -l "$T/missing"
# a directory opens, then fails to read: its zeros are printed
ref wc "$T" "$T/in"
port "$T" "$T/in"
ref wc -k "$T/in"
port -k "$T/in"

# exactly the flags it needs, on files and on stdin
check_clean "$T/in" "$T/random"
check_clean -l "$T/in" "$T/missing"
cp "$T/in" "$T/stdin"
check_clean
check_clean -m -
check_clean - "$T/in" -
rm "$T/stdin"

# tame(STDIO|RPATH) while files remain, tame(STDIO) after the last open;
# stdin alone: tame(STDIO) at once
check_narrows "$T/in"

# a wc that reads what it was not given dies, and says why
check_hook openat rpath "$T/in"
cp "$T/in" "$T/stdin"
check_hook openat rpath

# the untamed build is not tamed
check_untamed "$T/in"
exit 0
