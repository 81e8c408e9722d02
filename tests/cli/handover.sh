#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-exec's launcher hands its shim the compiled first filter in a
# sealed memfd (tools/handover.h); the shim installs it only when the
# seals, the build and the process say it may, and compiles otherwise.
# tests/tools/handover plays the launcher, faithfully or not.  Exit 0
# when every check holds; each failure prints what was expected.
B=${B:-build}
H=$B/tests/tools/handover
SHIM=$(cd "$B" && pwd)/libtame-preload.so
X=$B/tame-exec
FLAGS=stdio,rpath,inet		# a set the build does not precompile
dir=$(mktemp -d /var/tmp/handover-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "handover.sh: $*"; fail=1; }

printf 'handed over\n' > "$dir/in"
untamed_fds=$(ls /proc/self/fd | wc -l)

# tame-exec itself: the program works, and neither the descriptor nor
# the variable outlives the shim
out=$($X -f $FLAGS -- cat "$dir/in") || no "tame-exec -f $FLAGS cat failed"
[ "$out" = "handed over" ] || no "tame-exec cat said '$out'"
n=$($X -f $FLAGS -- ls /proc/self/fd | wc -l)
[ "$n" = "$untamed_fds" ] ||
    no "tame-exec left a descriptor: $n in /proc/self/fd, untamed $untamed_fds"
$X -f $FLAGS -- env | grep -q '^TAME_EXEC' &&
    no "a TAME_EXEC variable reached the program"

# the shim installs what it is handed, as it is: a filter for stdio
# alone, handed over as this set's, refuses the open (so the runs above
# really used the launcher's program rather than compiling their own)
$H "$SHIM" sealed $FLAGS stdio -- cat "$dir/in" >/dev/null 2>&1
status=$?
[ $status -eq 159 ] ||
    no "a handed-over stdio filter: cat status $status, expected 159"
out=$($H "$SHIM" sealed $FLAGS $FLAGS -- cat "$dir/in") ||
    no "the launcher's own filter, handed over: cat failed"
[ "$out" = "handed over" ] || no "handed over: cat said '$out'"

# what the shim must not take: it compiles the right filter instead,
# closes a descriptor that was a handover and leaves alone one that was
# not (it is somebody's)
for how in unsealed other-build other-pid none; do
	out=$($H "$SHIM" $how $FLAGS stdio -- cat "$dir/in" 2>&1) ||
	    no "$how: the shim took the forged filter (cat: '$out')"
	[ "$out" = "handed over" ] || no "$how: cat said '$out'"
	n=$($H "$SHIM" $how $FLAGS $FLAGS -- ls /proc/self/fd | wc -l)
	want=$untamed_fds
	[ $how = unsealed ] && want=$((untamed_fds + 1))
	[ "$n" = "$want" ] ||
	    no "$how: $n descriptors in /proc/self/fd, expected $want"
done
exit $fail
