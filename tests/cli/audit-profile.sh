#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-audit on process trees: each program's answer in the report and
# the JSON, launchers and unreached programs named, and --profile
# writing a profile that grows with each run (the least flags over every
# run recorded), keeps lines written by hand, and refuses a broken one.
# Outside /tmp, or every file made would look like tmppath's.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
A=$PWD/$B/tame-audit
TX=$PWD/$B/tame-exec
PATH=/usr/bin:/bin
export PATH
W=$(mktemp -d /var/tmp/tame-audit-profile.XXXXXX) || exit 1
trap 'rm -rf "$W"' EXIT
fail=0
no() { echo "audit-profile.sh: $*"; fail=1; }
cd "$W" || exit 1
printf 'b\na\nb\n' > in.txt
CAT=$(readlink -f "$(command -v cat)")
SORT=$(readlink -f "$(command -v sort)")
SH=$(readlink -f /bin/sh)

# the tree in the report: the shell a launcher, sort and uniq tameable
"$A" -o report.txt -- sh -c 'sort in.txt | uniq -c' > out.txt 2>&1
[ $? -eq 5 ] || no "a pipeline as a whole is not tameable (exec): status 5"
grep -q "^programs of the tree (3, 2 tameable)" report.txt ||
    no "no tree in the report: $(tail -5 report.txt)"
# (the programs it starts in the order their marks came: the scheduler's)
grep "^    $SH, 3 processes: a launcher: it starts " report.txt |
    grep -q "$SORT" || no "the shell is not named a launcher starting sort"
grep -q "^        $SORT, 1 process: stdio,rpath$" report.txt ||
    no "sort's own answer is not stdio,rpath"

# the JSON's programs
"$A" --json -o report.json -- sh -c 'sort in.txt | uniq -c' > /dev/null 2>&1
jq -e --arg s "$SORT" --arg sh "$SH" '.programs | any(.exe == $s and
    .tameable and .flags == ["stdio", "rpath"] and .started_by == $sh)' \
    report.json > /dev/null || no "programs[] has no sort: $(jq -c .programs report.json)"
jq -e --arg sh "$SH" '.programs | any(.exe == $sh and .launcher and
    (.tameable | not) and .flags == null)' report.json > /dev/null ||
    no "programs[] has no launcher shell"

# an unreached program: a static one the shim cannot be in
if [ -x /bin/busybox ] && file -L /bin/busybox | grep -q static; then
	BB=$(readlink -f /bin/busybox)
	"$A" --json -o bb.json -- sh -c '/bin/busybox true; cat in.txt' \
	    > /dev/null 2>&1
	jq -e --arg b "$BB" '.programs | any(.exe == $b and
	    (.tameable | not) and any(.blockers[]; .kind == "unreached" and
	    (.todo | test("statically linked"))))' bb.json > /dev/null ||
	    no "busybox is not unreached (static): $(jq -c .programs bb.json)"
fi

# A pid handed out again is a new process: true's pid, once true has
# died, goes to the shell's next child (the run's own PID namespace's
# ns_last_pid set back), which execs env: true is no launcher, env is
"$A" --json --keep-log reuse.log -o reuse.json -- sh -c '/usr/bin/true &
    p=$!; wait $p; echo $((p - 1)) > /proc/sys/kernel/ns_last_pid 2>/dev/null
    /usr/bin/env /usr/bin/cat in.txt' > /dev/null 2>&1
t=$(sed -n 's/^\([0-9]*\) *execve("\/usr\/bin\/true".*/\1/p' reuse.log)
e=$(sed -n 's/^\([0-9]*\) *execve("\/usr\/bin\/env".*/\1/p' reuse.log)
if [ -n "$t" ] && [ "$t" = "$e" ]; then
	TRUE=$(readlink -f /usr/bin/true)
	ENV=$(readlink -f /usr/bin/env)
	jq -e --arg t "$TRUE" --arg e "$ENV" '.programs |
	    any(.exe == $t and .tameable and (.launcher | not) and
	    .flags == ["stdio"]) and any(.exe == $e and .launcher)' \
	    reuse.json > /dev/null ||
	    no "pid $t used twice: $(jq -c '.programs | map([.exe, .launcher, .flags])' reuse.json)"
else
	echo "n/a: a pid handed out again: this run's ns_last_pid could not be set (true $t, env $e; jq .hermetic: $(jq .hermetic reuse.json))"
fi

# ... and the other way, collect2's: xargs's child execs, dies, and its
# pid goes to the next child of the shell (cat), another parent's: the
# exec stays xargs's, so xargs is a launcher and the profile leaves it
# out (before, the later clone took the pid's parent, xargs was listed,
# and tamed it could not start its child)
XARGS=$(readlink -f /usr/bin/xargs)
"$A" --json --profile launch.prof --keep-log launch.log -o launch.json -- \
    sh -c 'echo x | /usr/bin/xargs /bin/sh -c "echo \$\$ > c.pid"
    read c < c.pid; echo $((c - 1)) > /proc/sys/kernel/ns_last_pid 2>/dev/null
    /usr/bin/cat in.txt' > /dev/null 2>&1
x=$(sed -n 's/^\([0-9]*\) *execve("\/bin\/sh".*/\1/p' launch.log)
c=$(sed -n 's/^\([0-9]*\) *execve("\/usr\/bin\/cat".*/\1/p' launch.log)
if [ -n "$x" ] && [ "$x" = "$c" ]; then
	jq -e --arg x "$XARGS" --arg c "$CAT" '.programs |
	    any(.exe == $x and .launcher and (.tameable | not)) and
	    any(.exe == $c and .tameable)' launch.json > /dev/null ||
	    no "xargs's child's pid used again: $(jq -c '.programs | map([.exe, .launcher, .flags])' launch.json)"
	grep -q "^$XARGS " launch.prof && no "xargs, a launcher, listed: $(cat launch.prof)"
	grep -q "^# $XARGS: a launcher" launch.prof ||
	    no "xargs not left out as a launcher: $(cat launch.prof)"
else
	echo "n/a: a launcher's child's pid handed out again: this run's ns_last_pid could not be set (xargs's child $x, cat $c)"
fi

# --profile: written, then grown by a second run
"$A" --profile p.prof -o r1.txt -- sh -c 'cat < in.txt; sort in.txt' \
    > /dev/null 2>&1 || no "--profile: status $? (0 when written)"
grep -qx "$CAT stdio" p.prof || no "first run: cat is not stdio: $(cat p.prof)"
grep -qx "$SORT stdio,rpath" p.prof || no "first run: no sort line"
grep -q "^# $SH: a launcher" p.prof || no "the launcher has no comment line"
# the report's last line says what was written, and how to run it
tail -1 r1.txt | grep -q "^wrote p.prof: 2 programs listed, 1 left out .*tame-exec --profile p.prof -- COMMAND$" ||
    no "the report's last line: $(tail -1 r1.txt)"
echo '/opt/by-hand/tool stdio,inet' >> p.prof
# the user's own comments: a whole line, and one after a program's line
echo '# reviewed by alice, 2026-12' >> p.prof
sed -i "s|^$SORT stdio,rpath\$|& # sorts the input files|" p.prof
"$A" --profile p.prof -o r2.txt -- sh -c 'cat in.txt' > /dev/null 2>&1 ||
    no "--profile, second run: status $?"
grep -qx '# reviewed by alice, 2026-12' p.prof ||
    no "the user's comment line was lost: $(cat p.prof)"
grep -qx "$SORT stdio,rpath  # sorts the input files" p.prof ||
    no "the comment on sort's line was lost: $(cat p.prof)"
[ "$(grep -c '^# tame-exec --profile' p.prof)" -eq 1 ] ||
    no "the header was kept as a comment: $(cat p.prof)"
grep -qx "$CAT stdio,rpath" p.prof ||
    no "merged: cat is not the least over both runs: $(cat p.prof)"
grep -q "^$SORT stdio,rpath" p.prof || no "merged: sort's line was lost"
grep -qx '/opt/by-hand/tool stdio,inet' p.prof ||
    no "the line written by hand was not kept"
grep -q '^# tame-exec --profile: .* over 2 runs' p.prof ||
    no "the header does not count 2 runs"
[ "$(ls p.prof.runs | wc -l)" -eq 2 ] || no "not 2 runs kept: $(ls p.prof.runs)"

# a profile deleted starts anew: the runs of the old one are not merged
rm p.prof
"$A" --profile p.prof -o r4.txt -- cat in.txt > /dev/null 2> err.txt ||
    no "--profile after rm: status $?"
grep -q "p.prof does not exist: it starts anew with this run; the 2 runs" \
    err.txt || no "the old runs' removal is not said: $(cat err.txt)"
grep -q "$SORT" p.prof && no "a deleted profile came back: $(cat p.prof)"
grep -q '^# tame-exec --profile: .* over 1 run' p.prof ||
    no "the new profile does not count 1 run: $(cat p.prof)"

# A tree's program that used the name service is judged warmed, as a
# single program is: id gets what tame-audit gives id alone (no rpath
# for /etc/passwd, which tame()'s warming reads before its filter), and
# the warmed runs are kept beside the audit's own and merged with them.
ID=$(readlink -f "$(command -v id)")
GETENT=$(readlink -f "$(command -v getent)")
alone=$("$A" --flags-only -- id -un 2>&1 >/dev/null)
"$A" --profile ns.prof -o r5.txt -- sh -c 'id -un; getent passwd root' \
    > /dev/null 2>&1 || no "--profile of id and getent: status $?"
grep -qx "$ID $alone" ns.prof ||
    no "id's line is not its own audit's ($alone): $(cat ns.prof)"
grep -q "^$ID .*rpath" ns.prof && no "id was judged cold: $(cat ns.prof)"
[ -e ns.prof.runs/0001.warm-getpw.log.gz ] ||
    no "the warmed run is not kept: $(ls ns.prof.runs)"
"$A" --profile ns.prof -o r6.txt -- sh -c 'id -un; getent hosts localhost' \
    > /dev/null 2>&1 || no "a second --profile run: status $?"
grep -qx "$ID $alone" ns.prof ||
    no "id's line after a merge is not $alone: $(cat ns.prof)"
line=$(grep "^$GETENT " ns.prof)
case $line in
*getpw*dnspath*|*dnspath*getpw*) ;;
*) no "getent over both runs does not hold getpw and dnspath: $line" ;;
esac
case $line in *rpath*) no "getent was judged cold: $line" ;; esac
out=$("$TX" --profile ns.prof -- sh -c 'id -un; getent passwd root; \
    getent hosts localhost' 2>&1) || no "tame-exec --profile ns.prof: $out"
"$A" --once --profile once.prof -o r8.txt -- sh -c 'id -un' > /dev/null 2>&1
grep -q "the programs of the tree that used the name service ($ID) were judged as one run saw them" r8.txt ||
    no "--once does not say id was judged cold: $(cat r8.txt)"
rm ns.prof
"$A" --profile ns.prof -o r7.txt -- true > /dev/null 2> err.txt
grep -q "the 2 runs an earlier profile" err.txt ||
    no "the warmed runs were counted as runs: $(cat err.txt)"

# A program of the tree that loads code on demand (iconv's converter) is
# listed with its module, load= on its line, after a run under a profile
# loading it first ended as the command does; tame-exec --profile runs
# the tree to the same bytes.  With --once no run decides: left out.
ICONV=$(readlink -f "$(command -v iconv)")
G=$(dirname "$(find /usr/lib -name UTF-16.so -path '*gconv*' | head -1)")
printf 'h\303\251\n' > u8.txt
sh -c 'iconv -f UTF-8 -t UTF-16LE u8.txt; cat in.txt' > plain.out
"$A" --profile ld.prof -o r9.txt -- sh -c \
    'iconv -f UTF-8 -t UTF-16LE u8.txt; cat in.txt' > /dev/null 2>&1 ||
    no "--profile of iconv: status $?"
grep -qx "$ICONV stdio,rpath load=$G/UTF-16.so" ld.prof ||
    no "iconv's line does not load its converter: $(cat ld.prof)"
"$TX" --profile ld.prof -- sh -c \
    'iconv -f UTF-8 -t UTF-16LE u8.txt; cat in.txt' > tamed.out ||
    no "tame-exec --profile ld.prof: status $?"
cmp -s plain.out tamed.out || no "iconv under its profile: other bytes"
"$A" --once --profile ld1.prof -o r10.txt -- sh -c \
    'iconv -f UTF-8 -t UTF-16LE u8.txt; true' > /dev/null 2>&1
grep -q "^$ICONV " ld1.prof && no "--once listed iconv: $(cat ld1.prof)"
grep -q "load code on demand ($ICONV) could be tamed with it loaded first, but a run must decide that" r10.txt ||
    no "--once does not say why iconv is left out: $(cat r10.txt)"

# The same where the command varies by itself from run to run (a file
# and a line of random bytes, as a suite's log names a random port): a
# second plain run shows what varies, and only the rest decides.
"$A" --profile ld2.prof -o r11.txt -- sh -c \
    'iconv -f UTF-8 -t UTF-16LE u8.txt; od -An -N8 -tx8 /dev/urandom;
    od -An -N8 -tx8 /dev/urandom > noise.txt' > /dev/null 2>&1 ||
    no "--profile of iconv beside random bytes: status $?"
grep -qx "$ICONV stdio,rpath load=$G/UTF-16.so" ld2.prof ||
    no "random bytes beside iconv left it out: $(cat ld2.prof; cat r11.txt)"

# a broken profile is named before anything runs, and left as it was
printf '/usr/bin/cat stdio,nosuchflag\n' > bad.prof
cp bad.prof bad.before
"$A" --profile bad.prof -o r3.txt -- sh -c 'touch ran; cat in.txt' \
    > /dev/null 2> err.txt
[ $? -eq 1 ] || no "a broken profile: status $? (want 1)"
grep -q 'bad.prof:1: unknown flag "nosuchflag"' err.txt ||
    no "the broken line is not named: $(cat err.txt)"
cmp -s bad.prof bad.before || no "a broken profile was changed"
[ -e ran ] && no "the command ran although the profile is broken"
[ -e bad.prof.runs ] && no "a run was recorded for a broken profile"
"$A" --profile x.prof --check -- cat in.txt > /dev/null 2>&1
[ $? -eq 2 ] || no "--profile with --check is not a usage error"

[ $fail -eq 0 ] && echo "audit-profile.sh: ok"
exit $fail
