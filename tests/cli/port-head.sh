#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-head: the same bytes and status as the system head (GNU) with
# -n, -c, their multipliers, -q, -v, -z, on files, "-" and stdin, the
# headers and blank lines between files, a missing file, a directory,
# bad numbers and a bad option; the offset it leaves a shared seekable
# stdin at; exactly the flags it needs (tame-audit --check), narrowing
# after the last open; creating a file after taming is a violation.
# Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=head
. tests/ports/lib.sh

i=1
while [ $i -le 40 ]; do
	printf 'line %d\tof the input\n' $i
	i=$((i + 1))
done > "$T/in"
printf 'no newline at the end' >> "$T/in"
printf 'a\0b\0c\nd\0e' > "$T/nul"
head -c 300000 /dev/urandom > "$T/random"
cp "$T/in" "$T/stdin"
for opts in "" "-n 3" "-n 0" "-n 1" "-n 41" "-n 1000" "-c 5" "-c 0" \
    "-c 70000" "-n 2K" "-c 1b" "-c 1kB" "-c 1KiB" "-n +2" "-q" "-v" \
    "-qv" "-vq" "-v -n 2" "-q -c 9" "-c 3 -n 2" "-n 2 -c 3" "-z" \
    "-z -n 2"; do
	# shellcheck disable=SC2086
	ref head $opts "$T/in" - "$T/nul" "$T/random" "$T/in"
	# shellcheck disable=SC2086
	port $opts "$T/in" - "$T/nul" "$T/random" "$T/in"
	# shellcheck disable=SC2086
	ref head $opts
	# shellcheck disable=SC2086
	port $opts
	# shellcheck disable=SC2086
	ref head $opts "$T/nul"
	# shellcheck disable=SC2086
	port $opts "$T/nul"
done

# numbers: multipliers alone, overflow, garbage
for num in K b 1k 1m 1MiB 1mB 15E 0Z 00 " 7" 18446744073709551615 \
    16E 1Z 18446744073709551616 1B 1bB Ki 1e3 "" + " K" -x; do
	ref head -c "$num" "$T/random"
	port -c "$num" "$T/random"
	ref head -n "$num" "$T/in"
	port -n "$num" "$T/in"
done
ref head -y "$T/in"
port -y "$T/in"

# a missing file: a message, status 1, no header for it, the others
# still copied; a directory: its header, then the error
rm "$T/stdin"
ref head "$T/in" "$T/missing" "$T/in"
port "$T/in" "$T/missing" "$T/in"
grep -q "missing" "$T/port.err" || fail "no message for a missing file"
ref head -n 1 "$T/missing" "$T/nul"
port -n 1 "$T/missing" "$T/nul"
ref head -n 2 "$T/in" "$T" "$T/in"
port -n 2 "$T/in" "$T" "$T/in"
ref head -c 2 "$T/missing"
port -c 2 "$T/missing"

# a seekable stdin is left just after what was copied, for the next
# reader; a pipe reads no more than it must with -c
for opts in "-n 3" "-n 1000" "-c 7" "-n 0"; do
	# shellcheck disable=SC2086
	(head $opts; cat) < "$T/in" > "$T/ref.out" 2>&1
	# shellcheck disable=SC2086
	("$PORT" $opts; cat) < "$T/in" > "$T/port.out" 2>&1
	cmp -s "$T/ref.out" "$T/port.out" ||
	    fail "(tame-head $opts; cat) < file: not as head leaves it"
done
("$PORT" -c 100; cat) < "$T/random" | cmp -s - "$T/random" ||
    fail "tame-head -c 100, then cat, does not give the file back"
cat "$T/in" | ("$PORT" -c 100; cat) | cmp -s - "$T/in" ||
    fail "tame-head -c 100, then cat, on a pipe: bytes lost"

# exactly the flags it needs, on files and on stdin
check_clean "$T/in" "$T/random"
check_clean -c 10 "$T/missing" "$T/in"
cp "$T/in" "$T/stdin"
check_clean -n 3
check_clean -c 4 -
check_clean - "$T/in" -
rm "$T/stdin"

# tame(STDIO|RPATH) while files remain, tame(STDIO) after the last open;
# stdin alone: tame(STDIO) at once
check_narrows "$T/in"

# a head that creates a file dies, and says why
check_hook openat cpath "$T/in"
cp "$T/in" "$T/stdin"
check_hook openat cpath

# the untamed build is not tamed
check_untamed "$T/in"
exit 0
