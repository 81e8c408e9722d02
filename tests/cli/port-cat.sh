#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-cat: the same bytes and status as the system cat with every
# option, files, "-" and stdin, a missing file; exactly the flags it
# needs (tame-audit --check), narrowing after the last open; a socket
# after taming is a violation.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=cat
. tests/ports/lib.sh

printf 'a\tb\n\n\n\nc\001\177\303\251 \n\n\nlast' > "$T/in"
head -c 100000 /dev/urandom > "$T/random"
cp "$T/in" "$T/stdin"
for opts in "" -n -b -s -v -e -t -u -bs -ns -be -et -nbestuv; do
	# shellcheck disable=SC2086
	ref cat $opts "$T/in" - "$T/random" "$T/in"
	# shellcheck disable=SC2086
	port $opts "$T/in" - "$T/random" "$T/in"
done
rm "$T/stdin"
ref cat "$T/random"
port "$T/random"
ref cat
port
# a missing file: a message, status 1, the others still copied
ref cat "$T/in" "$T/missing" "$T/in"
port "$T/in" "$T/missing" "$T/in"
grep -q "missing" "$T/port.err" || fail "no message for a missing file"
ref cat -n "$T/missing"
port -n "$T/missing"

# exactly the flags it needs, reading files and reading stdin
check_clean "$T/in" "$T/random"
cp "$T/in" "$T/stdin"
check_clean -n
check_clean -
rm "$T/stdin"

# tame(STDIO|RPATH) while files remain, tame(STDIO) after the last open;
# stdin alone: tame(STDIO) at once
check_narrows "$T/in"

# a cat that reaches for the network dies, and says why
check_hook socket inet "$T/in"
cp "$T/in" "$T/stdin"
check_hook socket inet

# the untamed build is not tamed
check_untamed "$T/in"
exit 0
