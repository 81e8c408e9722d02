#!/bin/sh
# SPDX-License-Identifier: ISC
# make census, small: census/census.py on a directory made here, of
# badly behaved programs (tests/census/misfits.c: one that never exits,
# one that removes its working directory, one that opens /dev/tty, one
# whose child leaves its session and outlives it, one killed by a
# signal, one that prints its pid, ...), copies and a symlink of real
# programs, and files that are not eligible (a script, a static binary,
# set-user-ID, capabilities, not executable, one in the skip list).
# Each gets its outcome; the report is whole; nothing is left running
# and nothing in /tmp.  Then the bad input: an empty directory, one of
# scripts only, one that does not exist, bad options.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
dir=$(mktemp -d /var/tmp/tame-census-test.XXXXXX) || exit 1
trap 'rm -rf "$dir"' EXIT
chmod 755 "$dir"	# as root the programs run as nobody: they must reach it
fail=0
no() { echo "census.sh: $*"; fail=1; }
census() { /usr/bin/python3 -B census/census.py --tools "$B" "$@"; }
[ -x "$B/tame-audit" ] && [ -x "$B/tame-exec" ] || { no "build first"; exit 1; }

P=$dir/programs
mkdir "$P"
cc -O2 -o "$dir/misfits" tests/census/misfits.c || { no "cc failed"; exit 1; }
for name in never rmcwd tty linger killself pid seccomp execs; do
	cp "$dir/misfits" "$P/$name"
done
for name in true cat ls sha256sum; do
	cp "/usr/bin/$name" "$P/$name"
done
ln -s ls "$P/ls-alias"		# the same file: run once, as ls
cp /usr/bin/true "$P/dangerous"	# in the skip list given below
printf '#!/bin/sh\necho a script\n' > "$P/script"
chmod 755 "$P/script"
printf 'not a program\n' > "$P/README"
expect_static=0
if printf 'int main(void) { return 0; }\n' > "$dir/static.c" &&
    cc -static -o "$P/static" "$dir/static.c" 2>/dev/null; then
	expect_static=1
fi
expect_setid=0
if [ "$(id -u)" -eq 0 ]; then
	cp /usr/bin/true "$P/setuid" && chmod 4755 "$P/setuid" && expect_setid=1
fi
expect_caps=0
if command -v setcap >/dev/null && cp /usr/bin/true "$P/caps" &&
    setcap cap_net_raw+ep "$P/caps" 2>/dev/null; then
	expect_caps=1
else
	rm -f "$P/caps"
fi
printf '# the test skip list\ndangerous\tmust never run\n' > "$dir/skip.txt"

touch "$dir/start"
census -j 4 --timeout 2 --audit-timeout 4 -d "$P" -o "$dir/out" \
    -w "$dir/work" --skip-list "$dir/skip.txt" > "$dir/log" 2>&1
status=$?
[ $status -eq 0 ] || { cat "$dir/log"; no "census exited $status"; }
J=$dir/out/census.json
for f in census.md census.svg census.json; do
	[ -s "$dir/out/$f" ] || no "no $f"
done
tail -c 20 "$dir/out/census.svg" | grep -q '</svg>' || no "census.svg is cut"
jq -e . "$J" > /dev/null || no "census.json is not JSON"

# outcome PROGRAM ARG OUTCOME...: the item's outcome is one of those given
outcome() {
	prog=$1 arg=$2
	shift 2
	got=$(jq -r --arg p "$prog" --arg a "$arg" \
	    '.results[] | select(.program == $p and .arg == $a) | .outcome' "$J")
	for want in "$@"; do
		[ "$got" = "$want" ] && return
	done
	no "$prog $arg: '$got', expected $*"
}
reason() {	# reason PROGRAM ARG PATTERN
	jq -r --arg p "$1" --arg a "$2" '.results[] |
	    select(.program == $p and .arg == $a) | .reason' "$J" |
	    grep -q "$3" || no "$1 $2: the reason does not say '$3'"
}
for arg in --version --help; do
	outcome never "$arg" skipped
	reason never "$arg" 'timed out'
	outcome rmcwd "$arg" reproduced
	outcome tty "$arg" reproduced
	# its child is killed after each run (and counted); strace -f
	# waits for it, so the audit times out
	outcome linger "$arg" "audit error"
	reason linger "$arg" 'did not finish within 4 s'
	jq -e --arg a "$arg" '.results[] | select(.program == "linger" and
	    .arg == $a) | .bare[0].leftovers >= 1' "$J" > /dev/null ||
	    no "linger $arg: its child was not counted as left behind"
	outcome killself "$arg" skipped
	reason killself "$arg" 'SIGTERM'
	outcome pid "$arg" skipped
	reason pid "$arg" 'nondeterministic'
	outcome seccomp "$arg" differs
	reason seccomp "$arg" "'Seccomp:.*0' -> 'Seccomp:.*2'"
	# an exec: killed by today's auditor's suggestion, or declared
	outcome execs "$arg" killed "not tameable"
	for p in true cat ls sha256sum; do
		outcome $p "$arg" reproduced
	done
done
jq -e '.results[] | select(.outcome == "killed") |
    .tamed.stderr_last | test("execve")' "$J" > /dev/null ||
    [ "$(jq '[.results[] | select(.outcome == "killed")] | length' "$J")" -eq 0 ] ||
    no "the killed item's violation line is not recorded"
n=$(jq '.results | length' "$J")
[ "$n" -eq 24 ] || no "$n items, expected 24 (12 programs, 2 arguments)"
jq -e '.aliases["ls-alias"] == "ls"' "$J" > /dev/null ||
    no "ls-alias is not recorded as another name of ls"
# ineligible NAME REASON
ineligible() {
	jq -e --arg n "$1" --arg r "$2" \
	    'any(.ineligible[]; .name == $n and .reason == $r)' "$J" > /dev/null ||
	    no "$1 is not 'not eligible: $2'"
}
ineligible script "not ELF"
ineligible README "not executable"
[ $expect_static -eq 1 ] && ineligible static "statically linked"
[ $expect_setid -eq 1 ] && ineligible setuid "set-user-ID"
[ $expect_caps -eq 1 ] && ineligible caps "file capabilities"
jq -e 'any(.skipped_by_list[]; .name == "dangerous")' "$J" > /dev/null ||
    no "dangerous was not skipped by the list"
md=$dir/out/census.md
killed=$(jq '[.results[] | select(.outcome == "killed")] | length' "$J")
grep -q "^Target: killed 0 and differs 0. This run: \*\*killed $killed and differs 2\*\*" \
    "$md" || no "census.md has no target line"
grep -qF '![outcomes and suggested flag sets](census.svg)' "$md" ||
    no "census.md does not show the plot"
grep -qF '`seccomp --help`' "$md" || no "census.md does not list the differs case"
grep -q '^\[[0-9]*/24\] never --help: skipped' "$dir/log" ||
    no "no progress line for never --help"

# nothing left: no process of the programs, nothing in /tmp, and the
# scratch directories gone.  What the census killed may take a moment
# to be gone: only one still there after two minutes was left running.
i=0
while left=$(pgrep -d, -f "$P") && [ $i -lt 1200 ]; do
	sleep 0.1
	i=$((i + 1))
done
[ -z "$left" ] || no "left running: $(ps -o pid,args -p "$left")"
# In /tmp: what the programs made (as nobody, where we are root), and
# the log of an audit of theirs (it names them).  Other runs of
# tame-audit on this machine may have logs there meanwhile.
new=$( {
	find /tmp -maxdepth 1 -newer "$dir/start" -user nobody \
	    ! -name 'tame-audit.*'
	find /tmp -maxdepth 1 -newer "$dir/start" -name 'tame-audit.*' \
	    -exec grep -l -F "$P" {} +
} 2>/dev/null | head -3)
[ -z "$new" ] || no "left in /tmp: $new"
[ -e "$dir/work/scratch" ] && [ -n "$(ls -A "$dir/work/scratch")" ] &&
    no "scratch directories left: $(ls "$dir/work/scratch" | head -3)"

# resumed: nothing runs again
census -j 4 -d "$P" -o "$dir/out" -w "$dir/work" \
    --skip-list "$dir/skip.txt" > "$dir/log2" 2>&1 || no "the rerun failed"
grep -q '^census: 24 of 24 items done earlier' "$dir/log2" ||
    no "the rerun did not resume: $(head -1 "$dir/log2")"
# --only, with CENSUS_DIR from the environment
CENSUS_DIR=$P census -j 2 --only true -o "$dir/only" -w "$dir/work2" \
    > "$dir/log3" 2>&1 || no "--only failed: $(tail -1 "$dir/log3")"
[ "$(jq '.results | length' "$dir/only/census.json")" -eq 2 ] ||
    no "--only true ran other programs"

# --- bad input -----------------------------------------------------------
mkdir "$dir/empty" "$dir/scripts"
cp "$P/script" "$dir/scripts/a"
cp "$P/README" "$dir/scripts/b"
for d in empty scripts; do
	census -d "$dir/$d" -o "$dir/out-$d" -w "$dir/work-$d" > "$dir/log-$d" 2>&1 ||
	    no "census of $d exited $?"
	grep -q '^\*\*No eligible programs\*\*' "$dir/out-$d/census.md" ||
	    no "the report of $d does not say there is nothing to run"
	[ -s "$dir/out-$d/census.svg" ] || no "no census.svg for $d"
done
err=$(census -d "$dir/nonexistent" -o "$dir/o" -w "$dir/w" 2>&1)
status=$?
[ $status -eq 1 ] || no "nonexistent directory: status $status"
[ "$err" = "census: $dir/nonexistent: No such file or directory" ] ||
    no "nonexistent directory said: $err"
for bad in "-j x" "-j 0" "--bogus" "--timeout" "--only"; do
	# shellcheck disable=SC2086
	err=$(census $bad 2>&1)
	status=$?
	[ $status -eq 2 ] || no "census $bad: status $status, expected 2"
	printf '%s\n' "$err" | grep -q '^usage: census ' || no "census $bad: no usage"
done
err=$(census -d "$P" --only nosuch -o "$dir/o" -w "$dir/w" 2>&1)
[ "$err" = "census: nosuch: not in $P" ] || no "--only nosuch said: $err"
exit $fail
