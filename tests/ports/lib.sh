# SPDX-License-Identifier: ISC
# lib.sh: what every port's test (tests/cli/port-NAME.sh) does; sourced
# after setting NAME, from the top of the tree (B: the build directory).
# Each check fails the whole test with a message.
#
#	ref CMD ARG...		run the system tool (or any command): its
#				output and status are what the port must give
#	port ARG...		run tame-NAME ARG...: same bytes on stdout
#				and same exit status as the last ref
#	check_clean ARG...	tame-audit --check on tame-NAME ARG... finds
#				no violation and no flag nothing needed
#	check_hook CALL FLAG ARG...
#				NAME-hook ARG... with TAME_TEST_HOOK=1 dies
#				of SIGSYS after one line naming CALL and FLAG
#				(FLAG "-": a call no flag allows)
#	check_narrows FILE	tame-NAME FILE FILE tames to stdio|rpath,
#				opens both, then tames to stdio; reading
#				stdin alone it tames to stdio at once
#	check_untamed ARG...	NAME-untamed ARG... never calls tame()
#	await PID CMD...	wait until CMD succeeds, which process PID
#				is to bring about; 1 and the reason in
#				$awaited if PID ends first, or after two
#				minutes (a hang: never a busy machine)
#
# Standard input is $T/stdin when that file exists, else /dev/null.
B=${B:-build}
PORT=$B/ports/tame-$NAME
HOOK=$B/ports/$NAME-hook
AUDIT=$B/tame-audit
T=$(mktemp -d "${TMPDIR_PORTS:-/var/tmp}/port-$NAME.XXXXXX") || exit 1
trap 'rm -rf "$T"' EXIT

fail() {
	echo "port-$NAME.sh: $*" >&2
	exit 1
}

[ -x "$PORT" ] && [ -x "$HOOK" ] && [ -x "$B/ports/$NAME-untamed" ] ||
    fail "$PORT, or its -hook or -untamed build, is missing: run make"

# run_into TAG CMD...: stdout, stderr and status into $T/TAG.*
run_into() {
	tag=$1
	shift
	in=/dev/null
	[ -f "$T/stdin" ] && in=$T/stdin
	# (the subshell, not us, reports a death by signal)
	("$@" > "$T/$tag.out" 2> "$T/$tag.err" < "$in"
	    echo $? > "$T/$tag.status") 2> /dev/null
}

ref() {
	ref_cmd=$*
	run_into ref "$@"
}

port() {
	run_into port "$PORT" "$@"
	cmp -s "$T/ref.out" "$T/port.out" ||
	    fail "tame-$NAME $*: output differs from $ref_cmd:
$(diff "$T/ref.out" "$T/port.out" | head -n 10)"
	cmp -s "$T/ref.status" "$T/port.status" ||
	    fail "tame-$NAME $*: status $(cat "$T/port.status"), $ref_cmd gave $(cat "$T/ref.status"): $(head -c 300 "$T/port.err")"
}

check_clean() {
	in=/dev/null
	[ -f "$T/stdin" ] && in=$T/stdin
	"$AUDIT" --check $CHECK_ONCE -o "$T/check" -- "$PORT" "$@" > /dev/null \
	    2> "$T/check.err" < "$in"
	st=$?
	[ "$st" -eq 0 ] || fail "tame-audit --check -- tame-$NAME $*: status $st:
$(cat "$T/check" "$T/check.err" 2> /dev/null | head -n 30)"
}

check_hook() {
	call=$1 flag=$2
	shift 2
	in=/dev/null
	[ -f "$T/stdin" ] && in=$T/stdin
	(TAME_TEST_HOOK=1 "$HOOK" "$@" > /dev/null 2> "$T/hook.err" < "$in"
	    echo $? > "$T/hook.status") 2> /dev/null
	[ "$(cat "$T/hook.status")" -eq 159 ] ||
	    fail "$NAME-hook $*: status $(cat "$T/hook.status"), want 159 (SIGSYS): $(cat "$T/hook.err")"
	want="needs .*$flag"
	[ "$flag" = - ] && want="is not allowed after tame()"
	grep -q "^$NAME-hook\[[0-9]*\]: tame: $call.* $want" "$T/hook.err" ||
	    fail "$NAME-hook $*: the line should name $call and $flag: $(cat "$T/hook.err")"
}

check_narrows() {
	command -v strace > /dev/null || fail "strace not installed"
	strace -f -o "$T/trace" -e trace=write,openat "$PORT" "$1" "$1" \
	    > /dev/null 2>&1 || fail "under strace: status $?"
	awk -v f="$1" '/tame:0x7"/ { s = 1 }
	    s == 1 && /openat/ && index($0, "\"" f "\"") { n++ }
	    /tame:0x3"/ { if (n == 2) ok = 1 } END { exit !ok }' "$T/trace" ||
	    fail "not tame:0x7, two opens, then tame:0x3: $(grep -E 'tame:|openat' "$T/trace")"
	strace -f -o "$T/trace" -e trace=write "$PORT" < "$1" > /dev/null \
	    2>&1 || fail "stdin under strace: status $?"
	grep -q 'tame:0x7' "$T/trace" && fail "stdin only, yet tame:0x7"
	grep -q 'tame:0x3' "$T/trace" || fail "stdin only, no tame:0x3"
}

check_untamed() {
	command -v strace > /dev/null || fail "strace not installed"
	strace -f -o "$T/trace" -e trace=write "$B/ports/$NAME-untamed" "$@" \
	    > /dev/null 2>&1 < /dev/null
	grep -q 'tame:0x' "$T/trace" && fail "$NAME-untamed is tamed"
	return 0
}

# No outcome may depend on how busy the machine is: CMD is tried every
# tenth of a second for as long as PID lives, and the two minutes only
# end a wait that would never end.
await() {
	await_pid=$1
	shift
	await_n=0
	until "$@" 2> /dev/null; do
		if ! kill -0 "$await_pid" 2> /dev/null; then
			"$@" 2> /dev/null && return 0
			awaited="process $await_pid ended first"
			return 1
		fi
		await_n=$((await_n + 1))
		if [ "$await_n" -ge 1200 ]; then
			awaited="not after two minutes"
			return 1
		fi
		sleep 0.1
	done
}
