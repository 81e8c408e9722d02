#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-audit as a user meets it: the report for cat, --json against its
# schema, --where on a program built with -g, --check on a port and on
# wrong flags, several runs merged, and bad input of every kind, each
# with its message and exit status.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
TOP=$PWD
B=${B:-build}
AUDIT=$TOP/$B/tame-audit
TAME_EXEC=$TOP/$B/tame-exec
W=$(mktemp -d "${TAME_CORPUS_DIR:-/var/tmp}/tame-audit-test.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
fail() {
	echo "audit.sh: $*" >&2
	exit 1
}
[ -x "$AUDIT" ] || fail "build first"
command -v strace > /dev/null || fail "strace not installed"
printf 'hello\n' > "$W/in.txt"

# The report for cat: the flags, the reason, ready-made lines.
"$AUDIT" -o "$W/report" -- cat "$W/in.txt" > "$W/out" || fail "cat: status $?"
cmp -s "$W/out" "$W/in.txt" || fail "cat's own output changed"
grep -q '^suggested flags: stdio,rpath$' "$W/report" ||
    fail "cat: no stdio,rpath suggestion: $(cat "$W/report")"
grep -q "rpath .*openat \"$W/in.txt\" O_RDONLY" "$W/report" ||
    fail "cat: rpath's evidence is not the open"
grep -q "tame-exec -f stdio,rpath -- cat $W/in.txt" "$W/report" ||
    fail "cat: no tame-exec line"
grep -q 'tame(TAME_STDIO | TAME_RPATH);' "$W/report" || fail "cat: no C line"
# The command's output is its own: the report goes to stderr after it
"$AUDIT" --flags-only -- cat "$W/in.txt" > "$W/out" 2> "$W/err" ||
    fail "flags-only"
cmp -s "$W/out" "$W/in.txt" || fail "flags-only: stdout $(cat "$W/out")"
[ "$(tail -n 1 "$W/err")" = stdio,rpath ] || fail "flags-only: $(cat "$W/err")"
"$AUDIT" --json -- cat "$W/in.txt" > "$W/out" 2> "$W/err.json" ||
    fail "json to stderr"
cmp -s "$W/out" "$W/in.txt" || fail "json: stdout $(cat "$W/out")"
jq -e '.tameable == true' "$W/err.json" > /dev/null || fail "json: stderr"
# the documented pipe: the report on descriptor 3, the command's output
# where it was going
flags=$("$AUDIT" --flags-only --report-fd 3 -- cat "$W/in.txt" 3>&1 \
    > "$W/out") || fail "report-fd: status $?"
[ "$flags" = stdio,rpath ] || fail "report-fd: \"$flags\""
cmp -s "$W/out" "$W/in.txt" || fail "report-fd: stdout $(cat "$W/out")"
"$AUDIT" --json --report-fd 3 -- cat "$W/in.txt" 3>&1 > "$W/out" |
    /usr/bin/python3 -m json.tool > "$W/piped.json" || fail "json piped"
[ "$(jq -c .flags "$W/piped.json")" = '["stdio","rpath"]' ] ||
    fail "json piped: $(cat "$W/piped.json")"
# the command never sees the report's descriptor
"$AUDIT" --flags-only --report-fd 3 -- sh -c 'echo x >&3' 3> "$W/fd3" \
    2> "$W/err" || fail "report-fd: status $?"
grep -qx x "$W/fd3" && fail "report-fd leaked: $(cat "$W/fd3")"
grep -q "Bad file descriptor\|bad file descriptor" "$W/err" ||
    fail "report-fd: $(cat "$W/err")"

# Not tameable as run: no flags, no command line, status 5, the blockers
mkdir "$W/mk"
printf 'all:\n\t@echo made\n' > "$W/mk/Makefile"
"$AUDIT" --flags-only -- make -C "$W/mk" > "$W/out" 2> "$W/err"
[ $? -eq 5 ] || fail "make: status not 5: $(cat "$W/err")"
grep -q made "$W/out" && [ "$(grep -cv '^make' "$W/out")" -eq 1 ] ||
    fail "make: stdout $(cat "$W/out")"
grep -q 'cannot be tamed as run' "$W/err" && grep -q 'exec: execve' "$W/err" ||
    fail "make: blockers $(cat "$W/err")"
grep -q 'tame-exec' "$W/err" && fail "make: a command line: $(cat "$W/err")"
printf 'h\303\251\n' > "$W/u8.txt"
# one run (--once): no run under the suggestion decides the code loaded
"$AUDIT" --once -o "$W/r" -- iconv -f UTF-8 -t UTF-16LE "$W/u8.txt" > /dev/null
[ $? -eq 5 ] || fail "iconv: status not 5"
grep -q '^cannot be tamed as run: code' "$W/r" &&
    grep -q 'code .*gconv/UTF-16.so' "$W/r" || fail "iconv: $(cat "$W/r")"
grep -q 'tame-exec -f\|tame(TAME' "$W/r" && fail "iconv: a ready line"
"$AUDIT" --once --json -o "$W/i.json" -- iconv -f UTF-8 -t UTF-16LE \
    "$W/u8.txt" > /dev/null
# no set handed out where the report gives none: the rest of the run's
# needs under their own name
jq -e '.tameable == false and .tame_exec == null and .c == null and
    .flags == null and .flags_exact == null and .also_minimal == [] and
    .flags_beside_blockers == ["stdio", "rpath"] and
    (.blockers[0] | .kind == "code" and (.detail | test("gconv")))' \
    "$W/i.json" > /dev/null || fail "iconv json: $(cat "$W/i.json")"
# Code loaded on demand from a file (iconv's converter): the run under
# the suggestion, with the module loaded before tame() (tame-exec -l),
# ends as the command does, so that is the suggestion, and it runs
G=$(dirname "$(find /usr/lib -name UTF-16.so -path '*gconv*' | head -1)")
"$AUDIT" --json -o "$W/i.json" -- iconv -f UTF-8 -t UTF-16LE "$W/u8.txt" \
    > /dev/null || fail "iconv, decided: status $?"
jq -e --arg m "$G/UTF-16.so" '.tameable == true and
    .flags == ["stdio", "rpath"] and .load == [$m] and
    (.tame_exec | contains("-l " + $m + " --"))' "$W/i.json" > /dev/null ||
    fail "iconv's module: $(cat "$W/i.json")"
iconv -f UTF-8 -t UTF-16LE "$W/u8.txt" > "$W/plain.out"
"$TAME_EXEC" -f stdio,rpath -l "$G/UTF-16.so" -- iconv -f UTF-8 -t UTF-16LE \
    "$W/u8.txt" > "$W/tamed.out" || fail "iconv with -l: status $?"
cmp -s "$W/plain.out" "$W/tamed.out" || fail "iconv with -l: other output"
"$AUDIT" --flags-only -- iconv -f UTF-8 -t UTF-16LE "$W/u8.txt" \
    2> "$W/err" > /dev/null
grep -q "give it -l $G/UTF-16.so too" "$W/err" ||
    fail "--flags-only does not say the module: $(cat "$W/err")"
# A second charset, another module: Greek text to ISO-8859-7, converted
# under the suggestion as untamed
printf 'alpha \316\261 beta \316\262\n' > "$W/el.txt"
"$AUDIT" --json -o "$W/i7.json" -- iconv -f UTF-8 -t ISO-8859-7 \
    "$W/el.txt" > /dev/null || fail "iconv to ISO-8859-7: status $?"
jq -e --arg m "$G/ISO8859-7.so" '.tameable and .load == [$m]' \
    "$W/i7.json" > /dev/null || fail "iconv to ISO-8859-7: $(cat "$W/i7.json")"
iconv -f UTF-8 -t ISO-8859-7 "$W/el.txt" > "$W/el.plain"
"$TAME_EXEC" -f "$(jq -r '.flags | join(",")' "$W/i7.json")" \
    -l "$G/ISO8859-7.so" -- iconv -f UTF-8 -t ISO-8859-7 "$W/el.txt" \
    > "$W/el.tamed" && cmp -s "$W/el.plain" "$W/el.tamed" ||
    fail "iconv to ISO-8859-7 with -l: other output or status"
# head in an EUC-JP locale (built here: Debian ships the definitions, not
# the locale) converts its message about a missing file from the
# catalog's UTF-8, which loads EUC-JP.so and libJIS.so after its start:
# the suggestion loads them first, and under it head says what it says
# untamed; under the same flags without them it does not
if mkdir "$W/loc" && localedef -i ja_JP -f EUC-JP "$W/loc/ja_JP.EUC-JP" \
    > /dev/null 2>&1; then
	printf 'abc\n' > "$W/e.txt"
	ja() {
		(cd "$W" && LOCPATH=$W/loc LC_ALL=ja_JP.EUC-JP "$@" \
		    head -n 1 e.txt nosuch)
	}
	ja > "$W/ja.out" 2> "$W/ja.err"
	ja "$AUDIT" --json -o "$W/ja.json" -- > /dev/null 2>&1
	jq -e --arg m "$G/EUC-JP.so" '.tameable and .flags == ["stdio",
	    "rpath"] and (.load | index($m))' "$W/ja.json" > /dev/null ||
	    fail "head, EUC-JP: $(jq -c '[.tameable, .flags, .load, .blockers]' "$W/ja.json")"
	set -- $(jq -r '.load[] | "-l", .' "$W/ja.json")
	ja "$TAME_EXEC" -f stdio,rpath "$@" -- > "$W/jat.out" 2> "$W/jat.err"
	cmp -s "$W/ja.out" "$W/jat.out" && cmp -s "$W/ja.err" "$W/jat.err" ||
	    fail "head, EUC-JP, with -l: $(cat "$W/jat.err")"
	ja "$TAME_EXEC" -f stdio,rpath -- > /dev/null 2> "$W/jan.err"
	cmp -s "$W/ja.err" "$W/jan.err" &&
	    fail "head, EUC-JP: the same without its modules"
	set --
else
	echo "n/a: head in an EUC-JP locale: localedef cannot build ja_JP.EUC-JP here (Debian's package locales)"
fi

# The name service: a real tame(GETPW) loads it first, and so does the
# second run the suggestion comes from
[ "$("$AUDIT" --flags-only -- id -un 2>&1 > /dev/null)" = stdio,getpw ] ||
    fail "id -un: $("$AUDIT" -- id -un 2>&1)"
got=$("$AUDIT" --flags-only -- getent hosts localhost 2>&1 > /dev/null)
[ "$got" = stdio,dnspath ] || fail "getent hosts: $got, not stdio,dnspath"
# ... but a plugin's libraries, which the loader reads (ar's dlopen()),
# are no use of it: getpw and dnspath grant the loader's files only so
# that a module loaded late fails gently (the table's loader entries)
mkdir "$W/ar" && printf 'x\n' > "$W/ar/f.o"
got=$(cd "$W/ar" && "$AUDIT" --flags-only -- ar rc lib.a f.o 2>&1 >/dev/null)
case $got in
*getpw*|*dnspath*) fail "ar rc: $got, a name service it does not use" ;;
esac
# ... and that second run starts from the files the first started from
# (HERMETIC RUNS): cp makes the copy again, with O_CREAT, so the warmed
# run is used, and the copy is made once, by the first run
mkdir "$W/cp" && printf 'copied\n' > "$W/cp/in"
(cd "$W/cp" && "$AUDIT" -o "$W/r" -- cp in copy) || fail "cp: status $?"
grep -qx 'suggested flags: stdio,rpath,wpath,cpath' "$W/r" ||
    fail "cp: $(cat "$W/r")"
grep -q 'went another way\|ended otherwise' "$W/r" &&
    fail "cp: the warmed run saw the first run's copy: $(cat "$W/r")"
[ "$(cat "$W/cp/copy")" = copied ] || fail "cp: the copy is not the file"
# and ls -l warms the passwd files alone: one run more, not three
# (each run counts itself on descriptor 3, a pipe out of the runs' views:
# a file open for writing there would make the audit one run)
mkdir "$W/bin" && printf '#!/bin/sh\necho run >&3\nexec %s "$@" 3>&-\n' \
    "$(command -v strace)" > "$W/bin/strace" && chmod +x "$W/bin/strace"
mkfifo "$W/runs.fifo"
cat "$W/runs.fifo" > "$W/runs" &
PATH="$W/bin:$PATH" "$AUDIT" --flags-only -o "$W/r" -- ls -l "$W" > /dev/null \
    3> "$W/runs.fifo"
wait
[ "$(cat "$W/r")" = stdio,rpath,getpw ] || fail "ls -l: $(cat "$W/r")"
[ "$(wc -l < "$W/runs")" -eq 2 ] ||
    fail "ls -l: $(wc -l < "$W/runs") runs under strace, not 2"

# --json: one object, valid against audit/schema.json
"$AUDIT" --json -o "$W/r.json" -- ls -l "$W" > /dev/null || fail "json: $?"
# every flag of the suggestion has its evidence, the warmed one too
[ "$(jq -c '[.evidence[].flag]' "$W/r.json")" = '["rpath","getpw"]' ] ||
    fail "json evidence: $(jq -c .evidence "$W/r.json")"
"$AUDIT" -o "$W/id.txt" -- id -un > /dev/null || fail "id -un: status $?"
sed -n '/^why each flag/,/^$/p' "$W/id.txt" | grep -q '^    getpw  ' ||
    fail "id -un: getpw without its evidence: $(cat "$W/id.txt")"
[ "$(jq -c .flags "$W/r.json")" = '["stdio","rpath","getpw"]' ] ||
    fail "json flags: $(jq -c .flags "$W/r.json")"
/usr/bin/python3 -c 'import jsonschema' 2> /dev/null ||
    fail "python3-jsonschema missing (make deps installs it)"
validate() {
	/usr/bin/python3 - "$TOP/audit/schema.json" "$1" <<'EOF' || fail "$1 does not validate"
import json, sys, jsonschema
schema = json.load(open(sys.argv[1]))
jsonschema.Draft202012Validator.check_schema(schema)
jsonschema.validate(json.load(open(sys.argv[2])), schema)
EOF
}
validate "$W/r.json"
validate "$W/i.json"

# A soft denial no flag avoids (libtame keeps SIGSYS: a new handler for
# it gets EINVAL): whether the program goes on the same way only a run
# tells, and a run tells by default (HERMETIC RUNS): a program that does
# not care is tameable, one whose output changes is not; with --once no
# run is made, so not tameable, kind soft, and the report says a run
# would decide.
cat > "$W/sigsys.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <string.h>

static void on_sig(int s) { (void)s; }

int
main(int argc, char *argv[])
{
	struct sigaction sa;
	int r;

	(void)argv;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sig;
	r = sigaction(SIGSYS, &sa, NULL);	/* as ps does for every signal */
	printf("%s\n", argc > 1 && r == -1 ? "refused" : "hello");
	return 0;
}
EOF
cc -o "$W/sigsys" "$W/sigsys.c" || fail "cc sigsys"
"$AUDIT" --json -o "$W/s.json" -- "$W/sigsys" > "$W/out" ||
    fail "sigsys: status $?"
[ "$(cat "$W/out")" = hello ] || fail "sigsys: output $(cat "$W/out")"
jq -e '.tameable and .verified and .hermetic and .flags == ["stdio"]' \
    "$W/s.json" > /dev/null || fail "sigsys: $(cat "$W/s.json")"
validate "$W/s.json"
"$AUDIT" --once --json -o "$W/s.json" -- "$W/sigsys" > /dev/null
[ $? -eq 5 ] || fail "sigsys --once: status not 5"
jq -e '(.blockers | map(.kind) == ["soft"]) and (.hermetic | not) and
    (.warnings | any(test("would decide this: audit without --once")))' \
    "$W/s.json" > /dev/null || fail "sigsys --once: $(cat "$W/s.json")"
"$AUDIT" --json -o "$W/s.json" -- "$W/sigsys" care > /dev/null
[ $? -eq 5 ] || fail "sigsys care: status not 5"
jq -e '(.blockers | map(.kind) == ["soft", "verify"])' "$W/s.json" \
    > /dev/null || fail "sigsys care: $(jq -c .blockers "$W/s.json")"
"$AUDIT" --verify --json -o "$W/v.json" -- "$W/sigsys" > "$W/out" ||
    fail "sigsys --verify: status $?"
[ "$(cat "$W/out")" = hello ] || fail "sigsys --verify: output $(cat "$W/out")"
jq -e '.tameable and .verified and .flags == ["stdio"]' "$W/v.json" \
    > /dev/null || fail "sigsys --verify: $(cat "$W/v.json")"
"$AUDIT" --verify --json -o "$W/v.json" -- "$W/sigsys" care > /dev/null
[ $? -eq 5 ] || fail "sigsys care --verify: status not 5"
jq -e '(.blockers | map(.kind) == ["soft", "verify"]) and
    (.blockers[1].detail | test("standard output differs"))' "$W/v.json" \
    > /dev/null || fail "sigsys care --verify: $(jq -c .blockers "$W/v.json")"
validate "$W/v.json"
# a pipe is recorded in the first run and given again to the second
printf 'piped\n' | "$AUDIT" --verify --json -o "$W/v.json" -- cat > "$W/out" ||
    fail "--verify with a pipe: status $?"
[ "$(cat "$W/out")" = piped ] || fail "--verify with a pipe: $(cat "$W/out")"
jq -e '.verified and .flags == ["stdio"]' "$W/v.json" > /dev/null ||
    fail "--verify with a pipe: $(cat "$W/v.json")"
"$AUDIT" --verify --once -- true 2> "$W/err"
[ $? -eq 2 ] && grep -q "give one" "$W/err" ||
    fail "--verify --once: $(cat "$W/err")"


# A set-ID program gets no shim (the loader's secure mode): not an error,
# a blocker that says why, as a static program's does
if [ -u /usr/bin/mount ] && [ "$(id -u)" = 0 ] && command -v setpriv \
    > /dev/null; then
	chmod 711 "$W" && mkdir "$W/setid" && chown 4242:4242 "$W/setid"
	(cd "$W/setid" && setpriv --reuid=4242 --regid=4242 --clear-groups \
	    "$AUDIT" --json -o "$W/setid/r.json" -- /usr/bin/mount --version \
	    > /dev/null 2>&1)
	st=$?
	[ $st -eq 5 ] && jq -e '.blockers | map(.kind) == ["unreached"] and
	    (.[0].todo | test("set-ID"))' "$W/setid/r.json" > /dev/null ||
	    fail "set-ID mount: status $st, $(cat "$W/setid/r.json")"
	validate "$W/setid/r.json"
	# the program never ran: no set named, no claim about what it did
	(cd "$W/setid" && setpriv --reuid=4242 --regid=4242 --clear-groups \
	    "$AUDIT" -o "$W/setid/r.txt" -- /usr/bin/mount --version \
	    > /dev/null 2>&1)
	grep -q "no call of the program was seen after tame()" \
	    "$W/setid/r.txt" && grep -q "without running the program" \
	    "$W/setid/r.txt" && ! grep -q "needs stdio\|covers what it did\|\
did not end as the audited" "$W/setid/r.txt" ||
	    fail "set-ID mount, the text report: $(cat "$W/setid/r.txt")"
else
	echo "n/a: a set-ID program audited unprivileged: needs root, setpriv and a set-ID /usr/bin/mount"
fi

# --where: the source line of a program built with -g
cat > "$W/prog.c" <<'EOF'
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

static int
load(const char *path)
{
	char buf[64];
	int fd = open(path, O_RDONLY);
	ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf)) : -1;

	if (fd >= 0)
		close(fd);
	return (int)n;
}

int
main(int argc, char *argv[])
{
	int i, total = 0;

	for (i = 1; i < argc; i++)
		total += load(argv[i]);
	printf("%d\n", total);
	return 0;
}
EOF
# The staircase only narrows, as tame() does: id reads /etc/passwd under
# rpath early, and getpw would be the smaller set for the rest alone
"$AUDIT" --once --json -o "$W/id.json" -- id -un > /dev/null ||
    fail "id -un: status $?"
jq -e '[.staircase[].flags] as $s | $s[0] == .flags and
    all(range(1; $s | length); ($s[.] - $s[. - 1]) == [])' "$W/id.json" \
    > /dev/null || fail "id -un: the staircase widens: \
$(jq -c '[.staircase[].flags]' "$W/id.json")"
cc -g -O0 -o "$W/prog" "$W/prog.c" || fail "cannot build prog"
if strace -V | grep -q 'stack-trace='; then
"$AUDIT" --where --json -o "$W/w.json" -- "$W/prog" "$W/in.txt" > /dev/null ||
    fail "where: $?"
validate "$W/w.json"
src=$(jq -r '.evidence[] | select(.flag == "rpath") | .first.source' "$W/w.json")
case $src in
"prog.c:9 in load, from main at prog.c:23") ;;
*) fail "where: rpath's source is \"$src\"" ;;
esac
jq -e '.staircase[-1].flags == ["stdio"] and
    (.staircase[-1].after.source | startswith("prog.c:9"))' "$W/w.json" \
    > /dev/null || fail "where: staircase $(jq -c .staircase "$W/w.json")"
# optimised and fortified, open() is libc's inline wrapper from
# <bits/fcntl2.h>, inlined into load(), itself inlined into main(): the
# line is still the program's own (gzip's opens showed "fcntl2.h:59 in
# open" before addr2line -i)
cc -g -O2 -D_FORTIFY_SOURCE=2 -o "$W/prog" "$W/prog.c" ||
    fail "cannot build prog -O2"
"$AUDIT" --where --json -o "$W/w.json" -- "$W/prog" "$W/in.txt" > /dev/null ||
    fail "where -O2: $?"
src=$(jq -r '.evidence[] | select(.flag == "rpath") | .first.source' "$W/w.json")
case $src in
"prog.c:9 in load, from main at prog.c:23") ;;
*) fail "where -O2: rpath's source is \"$src\"" ;;
esac
else
	# an strace without -k (Debian's arm64 one): one line that says so
	"$AUDIT" --where -o "$W/w.json" -- "$W/prog" "$W/in.txt" > /dev/null \
	    2> "$W/err"
	st=$?
	[ $st -eq 1 ] && grep -q "built without them" "$W/err" &&
	    [ "$(wc -l < "$W/err")" -eq 1 ] ||
	    fail "where without strace -k: status $st: $(cat "$W/err")"
	echo "n/a: strace's stack traces (-k), which --where needs: this strace is built without them"
fi

# --check and the name service: tame() of dnspath loads it (the nscd
# probe, its AF_UNIX socket) before the filter, so nothing after the
# marker needs dnspath when rpath reads /etc/hosts; but without dnspath
# that loading comes under the filter (wget found it: its tame() held
# rpath for its files, which read /etc/hosts as well).  Not reported as
# unneeded; a getpw that nothing uses, warm or cold, still is.
cat > "$W/ns.c" <<'EOF'
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <string.h>
#include <tame.h>

int
main(int argc, char *argv[])
{
	struct addrinfo hints, *res;
	int flags = TAME_STDIO | TAME_RPATH | TAME_DNSPATH;

	if (argc > 1)
		flags |= TAME_GETPW;
	if (tame(flags) == -1)
		return 2;
	memset(&hints, 0, sizeof(hints));
	hints.ai_socktype = SOCK_STREAM;
	if (getaddrinfo("localhost", "80", &hints, &res) != 0)
		return 1;
	/* rpath for itself: /etc/hosts is readable under it too */
	printf("%d %d\n", res->ai_family, open(argv[0], O_RDONLY) >= 0);
	return 0;
}
EOF
# under make check SANITIZE=1 libtame.a carries ASan: the program is
# built with it, and with lib/sanitize.o as the ports are (no leak check
# at exit, which a tamed program under strace cannot make)
san=
[ "${SANITIZE:-}" = 1 ] && san="-fsanitize=address,undefined $TOP/$B/lib/sanitize.o"
# shellcheck disable=SC2086
cc $san -I"$TOP/lib" -o "$W/ns" "$W/ns.c" "$TOP/$B/libtame.a" ||
    fail "cannot build ns"
"$AUDIT" --check -o "$W/c" -- "$W/ns" > /dev/null < /dev/null ||
    fail "check ns: status $?: $(cat "$W/c")"
grep -q '0 violations, 0 flags not needed' "$W/c" || fail "check ns: $(cat "$W/c")"
"$AUDIT" --check -o "$W/c" -- "$W/ns" getpw > /dev/null < /dev/null
[ $? -eq 4 ] || fail "check ns getpw: want status 4: $(cat "$W/c")"
grep -q '^    getpw, declared' "$W/c" || fail "check ns getpw: $(cat "$W/c")"
grep -q 'dnspath, declared' "$W/c" && fail "check ns getpw: dnspath: $(cat "$W/c")"

# --check: a port that tames itself is clean; wrong flags are caught
"$AUDIT" --check -o "$W/c" -- "$B"/ports/tame-cat "$W/in.txt" > /dev/null ||
    fail "check tame-cat: status $?: $(cat "$W/c")"
grep -q '0 violations, 0 flags not needed' "$W/c" || fail "check: $(cat "$W/c")"
"$AUDIT" --check -f stdio -o "$W/c" -- cat "$W/in.txt" > /dev/null
[ $? -eq 3 ] || fail "check -f stdio: want status 3"
grep -q "openat \"$W/in.txt\" O_RDONLY needs rpath" "$W/c" ||
    fail "check -f stdio: $(cat "$W/c")"
"$AUDIT" --check -f stdio,rpath,inet --json -o "$W/c.json" -- \
    cat "$W/in.txt" > /dev/null
[ $? -eq 4 ] || fail "check -f stdio,rpath,inet: want status 4"
validate "$W/c.json"
[ "$(jq -c '.check.unneeded' "$W/c.json")" = '[{"flag":"inet","declared":0}]' ] ||
    fail "check unneeded: $(jq -c .check "$W/c.json")"

# a port built with a deliberately wrong call (cat-hook opens a socket
# after tame(STDIO)): --check names it
TAME_TEST_HOOK=1 "$AUDIT" --check -o "$W/c" -- "$B"/ports/cat-hook \
    "$W/in.txt" > /dev/null
[ $? -eq 3 ] || fail "check cat-hook: want status 3: $(cat "$W/c")"
grep -q 'socket AF_INET SOCK_STREAM 0 needs inet' "$W/c" ||
    fail "check cat-hook: $(cat "$W/c")"

# Several runs: kept logs merged, each flag counted
"$AUDIT" --keep-log "$W/1.log" -o /dev/null -- cat "$W/in.txt" > /dev/null ||
    fail "keep-log 1"
"$AUDIT" --keep-log "$W/2.log" -o /dev/null -- true || fail "keep-log 2"
[ -s "$W/1.log" ] && [ -s "$W/2.log" ] || fail "logs not kept"
"$AUDIT" --merge "$W/1.log" "$W/2.log" -o "$W/m" || fail "merge: $?"
grep -q 'rpath .*\[needed in 1 of 2 runs\]' "$W/m" || fail "merge: $(cat "$W/m")"
[ "$("$AUDIT" --flags-only --from-log "$W/1.log" 2>&1)" = stdio,rpath ] ||
    fail "from-log"

# a line of the log not understood may hide a call: not tameable
{ cat "$W/1.log"; echo '4242  read(3, "x", 1) = what'; } > "$W/bad.log"
"$AUDIT" --json -o "$W/b.json" --from-log "$W/bad.log"
[ $? -eq 5 ] || fail "a line not understood: status not 5"
jq -e '.blockers | map(.kind) == ["log"]' "$W/b.json" > /dev/null ||
    fail "a line not understood: $(jq -c .blockers "$W/b.json")"
validate "$W/b.json"

# Bad input: a clear line and a documented status, never a crash
expect() {	# status pattern command...
	want=$1 pat=$2
	shift 2
	"$@" > "$W/o" 2> "$W/e" < /dev/null
	st=$?
	[ "$st" -eq "$want" ] || fail "$*: status $st, want $want: $(cat "$W/e")"
	grep -q -- "$pat" "$W/e" || fail "$*: no \"$pat\" in: $(cat "$W/e")"
}
expect 2 "usage:" "$AUDIT"
expect 2 "usage:" "$AUDIT" --json
expect 2 "unknown flag name \"bogus\"" "$AUDIT" --check -f stdio,bogus -- true
expect 2 "with --check" "$AUDIT" -f stdio -- true
expect 2 "not a number of seconds" "$AUDIT" --timeout x -- true
expect 1 "no-such-command: command not found" "$AUDIT" -- no-such-command
chmod 644 "$W/prog"
expect 1 "prog: Permission denied" "$AUDIT" -- "$W/prog"
expect 1 "not an strace log" "$AUDIT" --from-log /etc/passwd
expect 1 "not an strace log" "$AUDIT" --from-log /dev/null
head -c 4000 /dev/urandom > "$W/random.log"
expect 1 "not an strace log" "$AUDIT" --from-log "$W/random.log"
strace -f -o "$W/plain.log" true 2> /dev/null
expect 1 "no tame() marker" "$AUDIT" --from-log "$W/plain.log"
expect 1 "No such file" "$AUDIT" --from-log "$W/none.log"
mkdir "$W/empty-path"
expect 1 "strace not found" env PATH="$W/empty-path" "$AUDIT" -- /bin/true
expect 1 "never called tame()" "$AUDIT" --check -- true
# ptrace refused, as under kernel.yama.ptrace_scope=3
expect 1 "strace could not trace" "$B"/tests/tools/refuse ptrace=EPERM -- \
    "$AUDIT" -- true
expect 5 "did not finish within 1 s and was killed" "$AUDIT" --timeout 1 -- \
    sleep 20
# a cut-off log is audited, with a warning
head -n "$(($(wc -l < "$W/1.log") - 3))" "$W/1.log" > "$W/cut.log"
"$AUDIT" --from-log "$W/cut.log" -o "$W/r" || fail "cut log: status $?"
grep -q "ends inside a call\|line.* not understood" "$W/r" ||
    grep -q "suggested flags" "$W/r" || fail "cut log: $(cat "$W/r")"
# a command that crashes is audited, and the report says so
"$AUDIT" -o "$W/r" -- sh -c 'kill -SEGV $$' 2> /dev/null ||
    fail "crashing command: status $?"
grep -q "killed by SIGSEGV" "$W/r" || fail "crash: $(cat "$W/r")"
# a command that fails: audited, with a warning
"$AUDIT" -o "$W/r" -- ls "$W/missing" 2> /dev/null || fail "failing command"
grep -q "exited with status 2" "$W/r" || fail "failing: $(cat "$W/r")"
# a static binary: audited from its exec, with the reason tame-exec cannot
if printf 'int main(void){return 0;}\n' | cc -static -x c -o "$W/static" - \
    2> /dev/null; then
	"$AUDIT" -o "$W/r" -- "$W/static"
	[ $? -eq 5 ] || fail "static: status not 5"
	grep -q "statically linked: tame-exec cannot enforce" "$W/r" ||
	    fail "static: $(cat "$W/r")"
	# its C library's start (arch_prctl) is before main(): no blocker
	grep -q "^cannot be tamed as run: static$" "$W/r" ||
	    fail "static: blockers beside static: $(cat "$W/r")"
else
	echo "audit.sh: no static libc here, static case skipped"
fi
# exec after tame() is named, with what to do
"$AUDIT" -o "$W/r" -- sh -c 'cat /dev/null'
[ $? -eq 5 ] || fail "sh -c: status not 5"
grep -q 'this program execs /usr/bin/cat\|this program execs /bin/cat' "$W/r" ||
    fail "exec not named: $(cat "$W/r")"
exit 0
