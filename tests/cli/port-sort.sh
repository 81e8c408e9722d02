#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-sort: the same bytes and status as GNU sort under LC_ALL=C with
# -n, -r, -u and their mixes, in memory and as an external merge sort
# through temporary files (-S 64K on 1 MB, -S 1K for many runs), files,
# "-" and stdin, -o (also onto an input), -T; a missing file, a bad
# option and a bad -S; temporary files made in /tmp (or -T dir) and
# unlinked; exactly the flags it needs (tame-audit --check), narrowing
# from the opens to tmppath to stdio; creating a file outside /tmp
# after taming is a violation.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
NAME="sort"
. tests/ports/lib.sh

# about 1 MB of numbers in no order, and 300 KB of lines that test -n:
# signs, fractions, zeros, blanks, text, NUL and high bytes, duplicates
awk 'BEGIN { srand(1); for (i = 0; i < 150000; i++)
    printf "%d\n", int(rand() * 1000000) }' > "$T/big"
awk 'BEGIN { srand(2)
    n = split("0|-0|00|0.0|.5|-.5|-|.|1|01|1.0|1.50|1.5|-1|-01|-1.5|10|9|" \
	"99999999999999999999999|-99999999999999999999999|1e5|+1|abc||" \
	"  3|\t4| -2|3x|3.x|1.2.3|0x10|\351t\351|Zeta|zeta|a\001b|1,000|" \
	"5 b|5 a", tok, "|")
    m = split("| x| y|a|\t", suf, "|")
    for (i = 0; i < 20000; i++) {
	t = tok[int(rand() * n) + 1]
	if (rand() < 0.5)
		t = t suf[int(rand() * m) + 1] int(rand() * 50)
	printf "%s\n", t
    }
    printf "no newline" }' > "$T/mix"
printf 'a\0c\nb\n\na\0b\n' > "$T/nul"
[ "$(wc -c < "$T/big")" -gt 900000 ] || fail "the big input is too small"

for opts in "" -r -n -u -nr -nu -ru -nru; do
	# shellcheck disable=SC2086
	ref env LC_ALL=C sort $opts -S 64K "$T/big"
	# shellcheck disable=SC2086
	port $opts -S 64K "$T/big"
	for size in "" "-S 1K"; do
		# shellcheck disable=SC2086
		ref env LC_ALL=C sort $opts $size "$T/mix" "$T/nul"
		# shellcheck disable=SC2086
		port $opts $size "$T/mix" "$T/nul"
	done
done

# stdin, alone, as "-" among files, and spilling
cp "$T/mix" "$T/stdin"
ref env LC_ALL=C sort -n
port -n
ref env LC_ALL=C sort -r "$T/nul" - "$T/nul"
port -r "$T/nul" - "$T/nul"
cp "$T/big" "$T/stdin"
ref env LC_ALL=C sort -S 64K -u
port -S 64K -u
rm "$T/stdin"
ref env LC_ALL=C sort
port

# -o: to a new file, then onto its own input (read in full first)
LC_ALL=C sort -n -S 64K "$T/big" > "$T/want"
"$PORT" -n -S 64K -o "$T/sorted" "$T/big" || fail "-o: status $?"
cmp -s "$T/want" "$T/sorted" || fail "-o: wrong output"
cp "$T/big" "$T/inplace"
"$PORT" -n -S 64K -o "$T/inplace" "$T/inplace" || fail "-o onto input: $?"
cmp -s "$T/want" "$T/inplace" || fail "-o onto its input: wrong output"
cp "$T/mix" "$T/inplace"
LC_ALL=C sort -u -o "$T/want" "$T/mix"
"$PORT" -u -o "$T/inplace" "$T/inplace" || fail "-o onto input: $?"
cmp -s "$T/want" "$T/inplace" || fail "-o onto its input, in memory"

# -T elsewhere than /tmp: runs there, none left behind
mkdir "$T/tmpdir"
ref env LC_ALL=C sort -r -S 64K "$T/big"
port -r -S 64K -T "$T/tmpdir/" "$T/big"
[ -z "$(ls -A "$T/tmpdir")" ] || fail "-T: temporary files left behind"

# errors: a missing file (status 2, no output file), options
ref env LC_ALL=C sort "$T/mix" "$T/missing"
port "$T/mix" "$T/missing"
grep -q "cannot read: $T/missing" "$T/port.err" ||
    fail "no message for a missing file: $(cat "$T/port.err")"
port -o "$T/created" "$T/mix" "$T/missing"
[ -e "$T/created" ] && fail "-o created despite a missing input"
ref env LC_ALL=C sort -q "$T/mix"
port -q "$T/mix"
ref env LC_ALL=C sort -S 12x "$T/mix"
port -S 12x "$T/mix"
ref env LC_ALL=C sort "$T"
port "$T"
ref env LC_ALL=C sort -T "$T/none" -S 1K "$T/mix"
port -T "$T/none" -S 1K "$T/mix"

# exactly the flags it needs: in memory, spilling to /tmp, to -T dir,
# with -o, from stdin
check_clean "$T/mix"
check_clean -S 64K "$T/big"
check_clean -n -S 64K -o "$T/out" "$T/mix" "$T/big"
check_clean -S 64K -T "$T/tmpdir" "$T/big"
check_clean -o "$T/out" -T "$T/tmpdir" "$T/mix"
cp "$T/big" "$T/stdin"
check_clean -S 64K
check_clean -r
rm "$T/stdin"

# temporary files: made in /tmp with mkstemp, unlinked, under the
# flags tame(stdio|rpath|tmppath), tame(stdio|tmppath), tame(stdio);
# unlink is unlinkat where the architecture has no unlink (arm64)
command -v strace > /dev/null || fail "strace not installed"
strace -f -o "$T/trace" -e 'trace=write,openat,/^unlink(at)?$' "$PORT" -S 64K \
    "$T/big" > /dev/null 2>&1 || fail "under strace: status $?"
awk '/"tame:0x27"/ { s = 1 } /"tame:0x23"/ && s == 1 { s = 2 }
    s == 2 && /openat\(AT_FDCWD, "\/tmp\/sort[^"]*", O_RDWR\|O_CREAT\|O_EXCL/ {
	split($0, a, "\""); made[a[2]] = 1 }
    s == 2 && /unlink(at)?\((AT_FDCWD, )?"\/tmp\/sort/ {
	split($0, a, "\""); if (a[2] in made) gone++ }
    /"tame:0x3"/ && s == 2 { s = 3 }
    END { exit !(s == 3 && gone >= 10) }' "$T/trace" ||
    fail "not tame:0x27, tame:0x23, 10 temporary files made and unlinked, tame:0x3: $(grep -E 'tame:|/tmp/sort' "$T/trace" | head -n 20)"
for f in $(sed -En 's/.*unlink(at)?\((AT_FDCWD, )?"(\/tmp\/sort[^"]*)".*/\3/p' \
    "$T/trace"); do
	[ -e "$f" ] && fail "$f left behind"
done
# a sort that fits in memory never holds tmppath
strace -f -o "$T/trace" -e trace=write "$PORT" "$T/mix" > /dev/null 2>&1 ||
    fail "under strace: status $?"
grep -c '"tame:0x' "$T/trace" | grep -qx 2 &&
    grep -q '"tame:0x7"' "$T/trace" && grep -q '"tame:0x3"' "$T/trace" ||
    fail "in memory: not tame:0x7, tame:0x3: $(grep tame: "$T/trace")"

# tmppath creates nothing outside /tmp: while runs are still to be
# made, once in memory, and after the runs in -T dir (cpath dropped)
check_hook openat cpath -S 64K "$T/big"
check_hook openat cpath "$T/mix"
check_hook openat cpath -S 64K -T "$T/tmpdir" "$T/big"
[ -e sort-hook.out ] && { rm -f sort-hook.out; fail "the hook made a file"; }

# the untamed build is not tamed
strace -f -o "$T/trace" -e trace=write "$B/ports/sort-untamed" "$T/mix" \
    > /dev/null 2>&1 || fail "untamed under strace: status $?"
grep -q 'tame:0x' "$T/trace" && fail "sort-untamed is tamed"
exit 0
