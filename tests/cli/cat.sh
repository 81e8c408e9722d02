#!/bin/sh
# tame-cat: copies files and stdin byte for byte, reports a missing file
# with status 1 and a message, and really is tamed (the audit marker and
# the seccomp call show in a trace).  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
CAT=build/ports/tame-cat
T=$(mktemp -d) || exit 1
trap 'rm -rf "$T"' EXIT
fail() {
	echo "cat.sh: $*" >&2
	exit 1
}

[ -x "$CAT" ] || fail "$CAT not built"
head -c 100000 /dev/urandom > "$T/in" || fail "no input"
printf 'second\n' > "$T/in2"

"$CAT" "$T/in" > "$T/out" || fail "copy: status $?"
cmp -s "$T/in" "$T/out" || fail "copy differs"

cat "$T/in" "$T/in2" > "$T/want"
"$CAT" "$T/in" "$T/in2" > "$T/out" || fail "two files: status $?"
cmp -s "$T/want" "$T/out" || fail "two files differ"

"$CAT" < "$T/in" > "$T/out" || fail "stdin: status $?"
cmp -s "$T/in" "$T/out" || fail "stdin differs"

"$CAT" "$T/missing" "$T/in2" > "$T/out" 2> "$T/err"
status=$?
[ "$status" -eq 1 ] || fail "missing file: status $status, want 1"
grep -q "missing" "$T/err" || fail "missing file: no message"
cmp -s "$T/in2" "$T/out" || fail "missing file: later file not copied"

# Tamed: the marker write(-1, "tame:0x...") and the filter itself.
command -v strace > /dev/null || fail "strace not installed"
strace -f -o "$T/trace" -e trace=seccomp,write "$CAT" "$T/in2" \
    > /dev/null 2>&1 || fail "under strace: status $?"
# STDIO|RPATH (0x7) with files named, STDIO (0x3) for stdin alone.
grep -q 'write(-1, "tame:0x7"' "$T/trace" || fail "no tame:0x7 marker"
grep -q 'seccomp(SECCOMP_SET_MODE_FILTER' "$T/trace" ||
    fail "no seccomp filter in trace"

strace -f -o "$T/trace" -e trace=write "$CAT" < "$T/in2" > /dev/null 2>&1 ||
    fail "stdin under strace: status $?"
grep -q 'write(-1, "tame:0x3"' "$T/trace" || fail "no tame:0x3 marker"

# The untamed build must not be.
strace -f -o "$T/trace" -e trace=seccomp,write build/ports/cat-untamed \
    "$T/in2" > /dev/null 2>&1 || fail "untamed under strace: status $?"
grep -q 'tame:0x' "$T/trace" && fail "cat-untamed is tamed"
exit 0
