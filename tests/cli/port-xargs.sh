#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-xargs: the same command lines, output and status as GNU xargs
# (-n, -0, -t, -P, quoting, an empty input, failing and missing
# commands); exactly the flags its tamed half needs (tame-audit --check:
# stdio and proc); opening a file after taming is a violation.
# Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME=xargs
. tests/ports/lib.sh

printf "a b\nc  d\te\n'x y' \"z w\" q\\\\ r\n" > "$T/stdin"
for opts in "" "-n 1" "-n 2" "-n 3 echo pre" "-t -n 2 echo" "-P 3 -n 1 true"
do
	# shellcheck disable=SC2086
	ref xargs $opts
	# shellcheck disable=SC2086
	port $opts
	cmp -s "$T/ref.err" "$T/port.err" || fail "-t trace differs: $opts"
done
printf 'a\0b c\0\0d\0' > "$T/stdin"
ref xargs -0 -n 1 echo
port -0 -n 1 echo
: > "$T/stdin"
ref xargs
port
ref xargs echo nothing
port echo nothing
# statuses: 123 for a failing command, 127 for a missing one
printf '0\n1\n0\n' > "$T/stdin"
ref xargs -n 1 sh -c 'exit $0'
port -n 1 sh -c 'exit $0'
printf '255\n' > "$T/stdin"
ref xargs -n 1 sh -c 'exit $0'
port -n 1 sh -c 'exit $0'
printf 'x\n' > "$T/stdin"
ref xargs no-such-command-here
port no-such-command-here
printf "'x\n" > "$T/stdin"
ref xargs
port
# items from a file (-a), opened before taming
seq 1 30 > "$T/items"
ref xargs -a "$T/items" -n 4 echo
port -a "$T/items" -n 4 echo
ref xargs -a "$T/missing" echo
port -a "$T/missing" echo
# the commands read /dev/null, not the input
printf 'one\ntwo\n' > "$T/stdin"
ref xargs -n 1 sh -c 'cat; echo $0'
port -n 1 sh -c 'cat; echo $0'

# exactly the flags its tamed half needs
seq 1 50 > "$T/stdin"
check_clean -n 7 -P 2 echo
check_clean -n 7 true
check_clean -a "$T/items" -n 4 echo
# after taming, the input splitter cannot touch the filesystem
check_hook openat rpath -n 5 echo
exit 0
