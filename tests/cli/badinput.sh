#!/bin/sh
# SPDX-License-Identifier: ISC
# Malformed input at every command-line entry point: tame-exec and
# tame-audit flag lists and commands, tame-audit logs broken every way
# strace and a disk can break them, tame-policy's options and each
# port's.  Every case asserts its documented exit status and a clear
# message, and that nothing crashed (status under 128 unless a signal
# is the point), nothing hung (each runs under timeout 20) and nothing
# was left in the working directory or in TMPDIR (where tame-audit puts
# its log).  Cases tame-exec.sh and audit.sh already cover are not
# repeated here; the C API's are tests/t_badinput.c.  Exit 0 = pass.
B=${B:-build}
case $B in /*) ;; *) B=$PWD/$B ;; esac
X=$B/tame-exec
A=$B/tame-audit
W=$(mktemp -d /var/tmp/tame-badinput.XXXXXX) || exit 1
trap 'chmod -R u+rwx "$W" 2>/dev/null; rm -rf "$W"' EXIT
fail=0
cases=0
no() { printf 'FAIL badinput.sh: %s\n' "$*"; fail=1; }

for f in "$X" "$A" "$B/tame-policy"; do
	[ -x "$f" ] || { echo "FAIL badinput.sh: $f not built"; exit 1; }
done
command -v strace >/dev/null || { echo "FAIL badinput.sh: no strace"; exit 1; }

# Every case runs in an empty directory, with TMPDIR another one.
mkdir "$W/cwd" "$W/tmp" "$W/data"
export TMPDIR="$W/tmp"
cd "$W/cwd" || exit 1
D=$W/data
printf 'hello\n' > "$D/in"

# run WHAT STATUS PATTERN command...: the status and a line on stderr
# matching PATTERN (a grep pattern; "" for none wanted).
run() {
	what=$1 want=$2 pat=$3
	shift 3
	cases=$((cases + 1))
	timeout 20 "$@" > "$W/out" 2> "$W/err" < /dev/null
	st=$?
	if [ "$st" -eq 124 ]; then
		no "$what: hung (killed after 20 s)"
		return
	fi
	if [ "$st" -ge 128 ] && [ "$st" -ne "$want" ]; then
		no "$what: crashed, status $st: $(head -c 300 "$W/err")"
		return
	fi
	[ "$st" -eq "$want" ] ||
	    no "$what: status $st, want $want: $(head -c 300 "$W/err")"
	[ -z "$pat" ] || grep -q -- "$pat" "$W/err" ||
	    no "$what: no \"$pat\" on stderr: $(head -c 300 "$W/err")"
	left=$(ls -A "$W/cwd" "$W/tmp" | grep -v '^/\|^$')
	if [ -n "$left" ]; then
		no "$what: left behind: $left"
		rm -rf "$W/cwd"/* "$W/tmp"/*
	fi
	printf 'ok: %s (status %s)\n' "$what" "$st"
}

# n copies of the string s; n copies of the character c, fast
repeat() {
	awk -v n="$1" -v s="$2" 'BEGIN { while (n-- > 0) printf "%s", s }'
}
fill() {
	head -c "$1" /dev/zero | tr '\0' "$2"
}

# ---- tame-exec and tame-audit --check: flag lists ----

# the same name twice is the same set: accepted, not an error
run "tame-exec -f stdio,rpath,rpath" 0 "" \
    "$X" -f stdio,rpath,rpath -- cat "$D/in"
grep -qx hello "$W/out" || no "tame-exec -f stdio,rpath,rpath: cat said nothing"
run "tame-audit --check -f stdio,rpath,rpath" 0 "" \
    "$A" --check -f stdio,rpath,rpath -o /dev/null -- cat "$D/in"
# empty lists tame with no flags at all: the open is a violation, and
# with no flags there is no stderr to name it on (tame(3))
for f in "" "," " | "; do
	run "tame-exec -f \"$f\" (no flags): true exits" 0 "" \
	    "$X" -f "$f" -- true
	run "tame-exec -f \"$f\" (no flags): cat dies of SIGSYS" 159 "" \
	    "$X" -f "$f" -- cat "$D/in"
	run "tame-audit --check -f \"$f\" -- cat" 3 "" \
	    "$A" --check -f "$f" -o /dev/null -- cat "$D/in"
done
# the prefix in any case; the prefix alone is no name
run "tame-exec -f TaMe_StDiO,tame_RPATH" 0 "" \
    "$X" -f TaMe_StDiO,tame_RPATH -- cat "$D/in"
run "tame-audit --check -f TaMe_StDiO,tame_RPATH" 0 "" \
    "$A" --check -f TaMe_StDiO,tame_RPATH -o /dev/null -- cat "$D/in"
for f in TAME_ TAME_TAME_STDIO "stdio;rpath" "stdio,r"; do
	run "tame-exec -f \"$f\": unknown" 2 "unknown flag name" \
	    "$X" -f "$f" -- true
	run "tame-audit --check -f \"$f\": unknown" 2 "unknown flag name" \
	    "$A" --check -f "$f" -- true
done
# a flag list of 100 kB (one argument may hold 128 KiB)
huge=$(repeat 16000 'stdio,')rpath
run "tame-exec -f <100 kB list>" 0 "" "$X" -f "$huge" -- cat "$D/in"
run "tame-audit --check -f <100 kB list>" 0 "" \
    "$A" --check -f "$huge" -o /dev/null -- cat "$D/in"
run "tame-exec -f <100 kB list, last name unknown>" 2 \
    'unknown flag name "bogus"' "$X" -f "${huge},bogus" -- true
run "tame-audit --check -f <100 kB list, last name unknown>" 2 \
    'unknown flag name "bogus"' "$A" --check -f "${huge},bogus" -- true
unset huge

# ---- tame-exec: options and commands ----

run "tame-exec -f without its value" 2 "usage:" "$X" -f
run "tame-exec with an unknown option" 2 "--bogus: unknown option" \
    "$X" --bogus -- true
run "tame-exec -f twice" 2 "-f given twice" "$X" -f stdio -f rpath -- true
run "tame-exec --help" 0 "" "$X" --help
grep -q "^usage: tame-exec" "$W/out" && grep -q -- "--profile file" "$W/out" ||
    no "tame-exec --help: $(head -c 300 "$W/out")"
run "tame-exec --version" 0 "" "$X" --version
grep -q "^tame-exec [0-9]" "$W/out" || no "tame-exec --version: $(cat "$W/out")"
run "tame-audit --help" 0 "" "$A" --help
grep -q "^usage: tame-audit" "$W/out" && grep -q -- "--flags-only" "$W/out" ||
    no "tame-audit --help: $(head -c 300 "$W/out")"
run "tame-exec --dump-bpf with an unknown flag" 2 'unknown flag name' \
    "$X" --dump-bpf stdio,bogus
run "tame-exec --dump-bpf without flags" 2 "usage:" "$X" --dump-bpf
run "tame-exec: a command not in PATH" 127 "no-such-command-here: No such" \
    "$X" -f stdio -- no-such-command-here
run "tame-exec: an empty command name" 127 "No such file" "$X" -f stdio -- ""
run "tame-exec: a directory as command" 126 "not an ELF executable" \
    "$X" -f stdio -- /
printf '#!/bin/sh\ntrue\n' > "$D/mode644"
chmod 644 "$D/mode644"
run "tame-exec: a command without execute permission (126, as sh)" 126 \
    "Permission denied" "$X" -f stdio -- "$D/mode644"
mkdir -p "$D/bin/dironly"
run "tame-exec: a directory in PATH by the command's name" 127 \
    "dironly: No such file" env PATH="$D/bin:/usr/bin:/bin" \
    "$X" -f stdio -- dironly
printf 'not a program\n' > "$D/text"
chmod 755 "$D/text"
run "tame-exec: an executable text file" 126 "not an ELF executable" \
    "$X" -f stdio -- "$D/text"
run "tame-exec: an LD_PRELOAD longer than a path" 1 "LD_PRELOAD is too long" \
    env LD_PRELOAD="$(fill 9000 x)" "$X" -f stdio -- true
# the caller's TAME_EXEC_* are none of tame-exec's (issue 46): malformed
# ones change nothing (a bad TAME_EXEC_PLEDGE once ended the command)
run "tame-exec: malformed TAME_EXEC_* in the caller's environment" 0 "" \
    env TAME_EXEC_PLEDGE="stdio bogus" TAME_EXEC_UNVEIL=nonsense \
    TAME_EXEC_FLAGS=zz TAME_EXEC_TREE=yes TAME_EXEC_PROFILE=relative \
    TAME_EXEC_LOAD=: "$X" -f stdio,rpath -- cat "$D/in"
grep -qx hello "$W/out" ||
    no "tame-exec beside malformed TAME_EXEC_*: cat said $(cat "$W/out")"
run "tame-exec --tree with -p" 2 "--tree .*cannot go with -p" \
    "$X" --tree -p stdio -- true
run "tame-exec --tree with --profile" 2 "cannot go with --profile" \
    "$X" --tree --profile "$D/in" -- true

# 100000 arguments come through to the command, all of them
set -- $(seq 100000)
run "tame-exec: 100000 arguments" 0 "" \
    "$X" -f stdio,rpath -- sh -c 'echo $#' sh "$@"
[ "$(cat "$W/out")" = 100000 ] || no "100000 arguments: got $(cat "$W/out")"
set --

# An argument list that fits tame-exec's own exec but not, with the
# preload added to the environment, the command's: a clear E2BIG from
# tame-exec (126), not a crash.  Found by bisection on the length of the
# arguments (in 100000-byte pieces, as one may hold 128 KiB at most).
e2big_run() {		# total length: runs tame-exec, sets $W/err
	n=$(($1 / 100000)) r=$(($1 % 100000))
	set --
	while [ "$n" -gt 0 ]; do
		set -- "$@" "$piece"
		n=$((n - 1))
	done
	set -- "$@" "$(fill "$r" y)"
	cd "$B" && ./tame-exec -f stdio -- /bin/true "$@" 2> "$W/err" \
	    < /dev/null
	st=$?
	cd "$W/cwd"
	return $st
}
piece=$(fill 100000 x)
lo=0 hi=16777216	# tame-exec itself starts with lo bytes, not with hi
while [ $((hi - lo)) -gt 1 ]; do
	mid=$(((lo + hi) / 2))
	e2big_run "$mid"
	if grep -q "tame-exec: Argument list too long" "$W/err"; then
		hi=$mid		# the shell's exec of tame-exec failed
	else
		lo=$mid
	fi
done
cases=$((cases + 1))
e2big_run "$lo"
st=$?
if [ "$st" -eq 126 ] && grep -q "^tame-exec: /bin/true: Argument list too long" "$W/err"; then
	printf 'ok: %s (status 126)\n' \
	    "tame-exec: arguments of $lo bytes, too many for the command"
else
	no "arguments of $lo bytes: status $st: $(head -c 300 "$W/err")"
fi
unset piece

# ---- tame-audit: options and commands ----

run "tame-audit --from-log without its value" 2 "usage:" "$A" --from-log
run "tame-audit with an unknown option" 2 "usage:" "$A" --bogus -- true
run "tame-audit --merge without logs" 2 "usage:" "$A" --merge
run "tame-audit --where with a log" 2 "apply to a command run" \
    "$A" --where --from-log "$D/in"
run "tame-audit --json with --flags-only" 2 "give one" \
    "$A" --json --flags-only -- true
run "tame-audit --report-fd 1" 2 "one of the command's standard descriptors" \
    "$A" --report-fd 1 -- true
run "tame-audit --from-log with a command" 2 "audits a log, not a command" \
    "$A" --from-log "$D/in" -- true
run "tame-audit: a directory as command" 1 "/: Is a directory" "$A" -- /
run "tame-audit: an empty command name" 1 "command not found" "$A" -- ""
run "tame-audit -o into a missing directory" 1 "No such file" \
    "$A" -o "$D/none/report" -- true
run "tame-audit -o a directory" 1 "Is a directory" "$A" -o "$D" -- true
run "tame-audit --timeout: the command killed, its report cut short, no log left" \
    5 "timeout sleep did not finish within 1 s and was killed" \
    "$A" --timeout 1 -- sleep 30

# ---- tame-audit --from-log: broken logs ----

# A real log of `true`: the marker, then what true does (stdio alone).
"$A" --keep-log "$D/true.log" -o /dev/null -- true ||
    no "cannot make a log of true"
pid=$(sed -n '1s/ .*//p' "$D/true.log")
grep -q 'write(-1, "tame:0x' "$D/true.log" || no "true.log has no marker"
# audited WHAT STATUS LOG [PATTERN ...]: the report has each pattern
audited() {
	what=$1 want=$2 log=$3
	shift 3
	run "--from-log $what" "$want" "" "$A" --from-log "$log" -o "$D/report"
	for pat; do
		grep -q -- "$pat" "$D/report" 2>/dev/null ||
		    no "--from-log $what: report lacks \"$pat\":" \
		    "$(head -c 400 "$D/report" 2>/dev/null)"
	done
	rm -f "$D/report"
}
# true.log with the lines read from stdin just after its marker
after_marker() {
	m=$(grep -n 'tame:0x' "$D/true.log" | head -n 1 | cut -d: -f1)
	head -n "$m" "$D/true.log"
	cat
	tail -n +"$((m + 1))" "$D/true.log"
}

# Lines not understood may hide calls: each such log cannot be tamed as
# run (status 5, blocker "log"), and the report still says what the lines
# understood need.
# binary garbage (a piece of an ELF file) before and after the marker:
# the real lines still count
{ head -c 3000 "$X"; echo; } > "$D/noise"
{ cat "$D/noise"; after_marker < "$D/noise"; } > "$D/garbage.log"
audited "with binary garbage between the lines" 5 "$D/garbage.log" \
    "cannot be tamed as run: log" "the rest of this run needs stdio;" \
    "not understood"
# NUL bytes inside lines: those lines are not understood, the rest is
awk '/tame:0x/ { print; next } NR % 3 == 0 { sub(/\(/, "\001(") } { print }' \
    "$D/true.log" | tr '\001' '\000' > "$D/nul.log"
audited "with NUL bytes inside lines" 5 "$D/nul.log" "not understood"
head -c 65536 /dev/zero > "$D/nulonly.log"
run "--from-log of NUL bytes only" 1 "not an strace log" \
    "$A" --from-log "$D/nulonly.log"
# the last line cut in the middle, no newline
head -c $(($(wc -c < "$D/true.log") - 20)) "$D/true.log" > "$D/cut.log"
audited "with its last line cut off" 5 "$D/cut.log" \
    "the rest of this run needs stdio"
# lines of several MiB: an open of a 6 MiB path after the marker (read:
# it needs rpath), and a last line of 8 MiB that is no call at all
{
	printf '%s  openat(AT_FDCWD, "/' "$pid"
	fill 6291456 A
	printf '", O_RDONLY) = 3\n'
} | after_marker > "$D/long.log"
fill 8388608 z >> "$D/long.log"
audited "with lines of 6 and 8 MiB" 5 "$D/long.log" \
    "the rest of this run needs stdio,rpath;" "not understood"
# interleaved pids, unfinished calls and resumptions of pids never seen
printf '%s\n' "$pid  read(0,  <unfinished ...>" \
    '77777 <... read resumed>"x", 1) = 1' \
    '88888 openat(AT_FDCWD, "/etc/passwd", O_RDONLY <unfinished ...>' \
    "$pid  <... read resumed>\"\", 1) = 0" \
    '99999 <... nosuchcall resumed>) = 0' | after_marker > "$D/pids.log"
audited "with unfinished and resumed calls of unknown pids" 5 \
    "$D/pids.log" "not understood"
# a resumption with nothing unfinished before it
printf '%s  <... openat resumed>) = 3\n' "$pid" |
    after_marker > "$D/resumed.log"
audited "with a call resumed that never began" 5 "$D/resumed.log" \
    "a call resumed that never began"
# a path with a newline and quotes, escaped as strace escapes them:
# understood, so the open needs rpath
printf '%s  openat(AT_FDCWD, "%s%s", O_RDONLY) = 3\n' "$pid" "$D" \
    '/a\nb\"c\\d' | after_marker > "$D/escapes.log"
audited "with a newline and a quote escaped in a path" 0 \
    "$D/escapes.log" "suggested flags: stdio,rpath"
# escapes strace never writes, and a string that never closes
printf '%s  openat(AT_FDCWD, "%s", O_RDONLY) = -1 ENOENT (No such file)\n' \
    "$pid" '/tmp/\q\x\9\777\' | after_marker > "$D/badesc.log"
printf '%s  openat(AT_FDCWD, "/never/closed, O_RDONLY) = 3\n' "$pid" \
    >> "$D/badesc.log"
audited "with invalid escapes and an unclosed string" 5 "$D/badesc.log"
# numbers out of range: a pid, a result past 2^64, a huge fd, a marker,
# an exit status and signal names that fit nothing
{
	printf '99999999999  openat(AT_FDCWD, "/etc/passwd", O_RDONLY) = 3\n'
	printf '%s  read(3, "", 1) = 99999999999999999999999\n' "$pid"
	printf '%s  read(99999999999999999999, "", 18446744073709551617) = ' "$pid"
	printf -- '-18446744073709551617 ENOENT (No such file or directory)\n'
	printf '%s  write(-1, "tame:0xffffffffffffffffff", 25) = -1 EBADF\n' "$pid"
	printf '%s  +++ exited with 99999999999 +++\n' "$pid"
	printf '%s  +++ killed by SIG%s +++\n' "$pid" "$(fill 200 X)"
	printf '%s  --- SIG%s {si_signo=1} ---\n' "$pid" "$(fill 200 X)"
	printf '%s  %s(1) = 0\n' "$pid" "$(fill 300 c)"
} | after_marker > "$D/range.log"
audited "with numbers out of range" 5 "$D/range.log" "not understood"
# not a file of lines at all
run "--from-log of a directory" 1 "not an strace log file but a directory" \
    "$A" --from-log "$D"
mkfifo "$D/fifo"
run "--from-log of a FIFO with no writer (no hang)" 1 "pipe or FIFO" \
    "$A" --from-log "$D/fifo"
run "--from-log of /dev/zero (no endless read)" 1 "character device" \
    "$A" --from-log /dev/zero
: > "$D/empty.log"
run "--from-log of an empty log" 1 "it is empty" "$A" --from-log "$D/empty.log"
# unreadable: root reads anything, so read it as nobody
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	cp "$D/true.log" "$D/secret.log"
	chmod 000 "$D/secret.log"
	chmod 755 "$W" "$D"
	run "--from-log of an unreadable log" 1 "secret.log: Permission denied" \
	    setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$A" --from-log "$D/secret.log"
else
	echo "skip: unreadable log (needs root and setpriv to become nobody)"
fi
run "--merge of a good log and a directory" 1 "a directory" \
    "$A" --merge "$D/true.log" "$D"

# ---- tame-policy ----

run "tame-policy without arguments" 2 "usage: tame-policy" "$B/tame-policy"
run "tame-policy with an unknown option" 2 "usage: tame-policy" \
    "$B/tame-policy" --bogus
run "tame-policy with two options" 2 "usage: tame-policy" \
    "$B/tame-policy" --mdoc --tsv
run "tame-policy --tsv to a full disk" 1 "stdout: No space left" \
    sh -c '"$1" --tsv > /dev/full' sh "$B/tame-policy"

# ---- the ports ----

# port, status for an unknown option, then a missing input and its
# status and message ("-" where the port reads no input file).  Where
# the GNU program is installed its statuses must be the same.
while read -r port gnu ustatus mstatus margs; do
	p=$B/ports/tame-$port
	if [ ! -x "$p" ]; then
		no "$p not built"
		continue
	fi
	run "tame-$port with an unknown option" "$ustatus" "usage:" \
	    "$p" --no-such-option
	if [ "$gnu" != - ] && command -v "$gnu" >/dev/null; then
		"$gnu" --no-such-option < /dev/null > /dev/null 2>&1
		st=$?
		[ "$st" -eq "$ustatus" ] ||
		    no "$gnu exits $st on an unknown option, tame-$port $ustatus"
	fi
	[ "$margs" = - ] && continue
	# shellcheck disable=SC2086
	run "tame-$port $margs (missing)" "$mstatus" "No such file or directory" \
	    "$p" $margs
	if [ "$gnu" != - ] && command -v "$gnu" >/dev/null; then
		# shellcheck disable=SC2086
		"$gnu" $margs < /dev/null > /dev/null 2>&1
		st=$?
		[ "$st" -eq "$mstatus" ] ||
		    no "$gnu $margs exits $st, tame-$port $mstatus"
	fi
done <<EOF
cat	cat	1	1	/nonexistent/file
head	head	1	1	/nonexistent/file
sort	sort	2	2	/nonexistent/file
tee	tee	1	1	/nonexistent/dir/file
wc	wc	1	1	/nonexistent/file
xargs	xargs	1	1	-a /nonexistent/file echo
stty	stty	1	1	-F /nonexistent/tty size
id	id	1	-	-
ping	ping	2	-	-
host	-	1	-	-
echo	-	1	-	-
fdpass	-	1	1	send /nonexistent/socket /nonexistent/file
EOF
run "tame-id of a user that does not exist" 1 "no such user" \
    "$B/ports/tame-id" no-such-user-here

echo "badinput.sh: $cases cases"
exit $fail
