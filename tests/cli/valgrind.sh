#!/bin/sh
# SPDX-License-Identifier: ISC
# The tools that run on the host untamed, under valgrind's memcheck: no
# invalid access, no use of uninitialised memory and no definite leak on
# their main paths or their failure paths.  tame-audit on kept logs and
# live (valgrind follows the auditor alone: strace and the command it
# runs are children, and no --trace-children), tame-policy's outputs, and
# tame-exec's argument errors.  Exit 0 = pass.
#
# tame-exec is static (musl): valgrind runs it, but cannot replace the
# allocator of a static binary, so there it sees invalid and
# uninitialised accesses and no leaks (tame-exec allocates nothing).
# Under make check SANITIZE=1, tame-audit and tame-policy carry ASan and
# valgrind cannot run them (the two claim the same address space): the
# same commands then run without valgrind, and ASan, UBSan and the leak
# check, on in both tools, are the checker.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
fail() {
	echo "valgrind.sh: FAIL: $*" >&2
	exit 1
}
command -v valgrind > /dev/null ||
    fail "valgrind not installed (make deps installs it)"
command -v strace > /dev/null || fail "strace not installed"
for f in tame-audit tame-policy tame-exec; do
	[ -x "$B/$f" ] || fail "$B/$f not built: run make"
done
W=$(mktemp -d "${TAME_CORPUS_DIR:-/var/tmp}/tame-valgrind.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT

# valgrind reports on standard error: a log file open for writing,
# inherited, would make each audit one run (tame-audit(1), HERMETIC RUNS)
VG="valgrind -q --error-exitcode=99 --leak-check=full
    --errors-for-leak-kinds=definite --log-fd=2"
if [ "${SANITIZE:-}" = 1 ]; then
	HOSTVG="env ASAN_OPTIONS=exitcode=99:detect_leaks=1
	    UBSAN_OPTIONS=exitcode=99"
	echo "valgrind.sh: SANITIZE=1: tame-audit and tame-policy checked" \
	    "by ASan and LSan, tame-exec by valgrind"
else
	HOSTVG=$VG
fi

# check WANT CHECKER CMD...: CMD's status is WANT and the checker found
# nothing (its own status 99, or a report in its log)
check() {
	want=$1
	shift
	"$@" > "$W/out" 2> "$W/err" < /dev/null
	st=$?
	if [ "$st" -eq 99 ] ||
	    grep -q '^==[0-9]*== \|Sanitizer\|runtime error:' "$W/err"; then
		cat "$W/err" >&2
		fail "memory errors in: $*"
	fi
	grep -q 'one run only' "$W/err" &&
	    fail "$*: no view under valgrind: $(head -c 300 "$W/err")"
	[ "$st" -eq "$want" ] ||
	    fail "$*: status $st, want $want: $(head -c 500 "$W/err")"
}

# tame-audit: kept logs of every kind in tests/audit/, every output
for log in clone scm_rights signals strings resumed many_lives; do
	check 0 $HOSTVG "$B/tame-audit" --from-log "tests/audit/$log.log"
	grep -q 'suggested flags' "$W/err" ||
	    fail "tame-audit --from-log $log: no report: $(head -c 300 "$W/err")"
done
check 0 $HOSTVG "$B/tame-audit" --json --from-log tests/audit/tmp.log
check 5 $HOSTVG "$B/tame-audit" --from-log tests/audit/killed_early.log
check 0 $HOSTVG "$B/tame-audit" --flags-only --from-log tests/audit/cut.log
check 0 $HOSTVG "$B/tame-audit" --merge tests/audit/clone.log \
    tests/audit/soft.log
# live: strace runs as the auditor's child, outside valgrind
printf 'hello\n' > "$W/in"
check 0 $HOSTVG "$B/tame-audit" -- cat "$W/in"
grep -q 'tame-exec -f stdio,rpath -- cat' "$W/err" ||
    fail "tame-audit live on cat: $(head -c 300 "$W/err")"
check 0 $HOSTVG "$B/tame-audit" --json -- /bin/true
check 0 $HOSTVG "$B/tame-audit" --verify --report-fd 3 -- cat "$W/in" 3> /dev/null
check 0 $HOSTVG "$B/tame-audit" -- id -un
check 5 $HOSTVG "$B/tame-audit" -- sh -c 'cat /dev/null'
# its failure paths
check 2 $HOSTVG "$B/tame-audit"
check 2 $HOSTVG "$B/tame-audit" --check -f stdio,bogus -- true
check 1 $HOSTVG "$B/tame-audit" --from-log /etc/passwd
check 1 $HOSTVG "$B/tame-audit" --from-log "$W/none.log"
check 1 $HOSTVG "$B/tame-audit" -- no-such-command
check 1 $HOSTVG "$B/tame-audit" --check -- true

# tame-policy: both outputs, and its usage
check 0 $HOSTVG "$B/tame-policy" --mdoc
check 0 $HOSTVG "$B/tame-policy" --tsv
check 2 $HOSTVG "$B/tame-policy" --bogus

# tame-exec: the argument errors, each before anything is executed
check 2 $VG "$B/tame-exec"
check 2 $VG "$B/tame-exec" -f
check 2 $VG "$B/tame-exec" -f stdio,bogus -- true
check 2 $VG "$B/tame-exec" -f stdio
check 127 $VG "$B/tame-exec" -f stdio -- no-such-command
check 126 $VG "$B/tame-exec" -f stdio -- tests/audit/clone.log
check 1 $VG "$B/tame-exec" -f stdio -- "$B/tame-exec"
check 0 $VG "$B/tame-exec" --dump-bpf stdio,rpath
check 0 $VG "$B/tame-exec" -V
exit 0
