#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-exec runs real, unmodified programs tamed.  Exit 0 when every
# check holds; each failure prints what was expected.
B=${B:-build}
X=$B/tame-exec
dir=$(mktemp -d /var/tmp/tame-exec-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "tame-exec.sh: $*"; fail=1; }

printf 'hello, tamed world\n' > "$dir/in"

# stdio,rpath is enough for cat, and the bytes come through unchanged
out=$($X -f stdio,rpath -- cat "$dir/in") || no "cat under stdio,rpath failed"
[ "$out" = "hello, tamed world" ] || no "cat output was '$out'"

# the flag list takes every documented spelling
$X -f 'TAME_STDIO|TAME_RPATH' -- cat "$dir/in" >/dev/null ||
    no "TAME_ prefix and | separator not accepted"
$X -f ' Stdio  RPATH ' -- cat "$dir/in" >/dev/null ||
    no "spaces and capitals not accepted"

# without rpath the open is a violation: SIGSYS (159) after one line
# naming the call, the path and the flag, whatever the locale
for lang in C C.UTF-8; do
	err=$(LC_ALL=$lang $X -f stdio -- cat /etc/hostname 2>&1 >/dev/null)
	status=$?
	[ $status -eq 159 ] ||
	    no "cat under stdio ($lang): status $status, expected 159"
	case $err in *'cat['*']: tame: openat "/etc/hostname" '*'needs rpath') ;;
	    *) no "cat under stdio ($lang) said '$err'" ;; esac
done

# a violation with every signal blocked still says its line: dash blocks
# them all around its fork, a #!/bin/sh script and python's os.system
# (glibc's posix_spawn) too
printf '#!/bin/sh\nls\n' > "$dir/script"
chmod +x "$dir/script"
for cmd in "sh -c 'ls; true'" "$dir/script" \
    "/usr/bin/python3 -c 'import os; os.system(\"true\")'"; do
	err=$(eval "$X -f stdio,rpath -- $cmd" 2>&1 >/dev/null)
	status=$?
	[ $status -eq 159 ] || no "$cmd under stdio,rpath: status $status"
	case $err in *"]: tame: "*" needs proc"*) ;;
	    *) no "$cmd with signals blocked said '$err'" ;; esac
done

# the line names the arguments that decided (the nscd probe's socket)
err=$($X -f stdio,rpath -- ls -l "$dir/in" 2>&1 >/dev/null)
status=$?
[ $status -eq 159 ] || no "ls -l under stdio,rpath: status $status, expected 159"
case $err in *"ls["*"]: tame: socket AF_UNIX "*" needs "*getpw*) ;;
    *) no "violation line was '$err'" ;; esac
# and with the flag it names, the same command works
$X -f stdio,rpath,getpw -- ls -l "$dir/in" >/dev/null ||
    no "ls -l under stdio,rpath,getpw failed"

# bad input: unknown flag (usage, 2), missing command (127),
# static binary (1), nothing to run (2)
err=$($X -f stdio,bogus -- true 2>&1); status=$?
[ $status -eq 2 ] || no "unknown flag: status $status, expected 2"
case $err in *'unknown flag name "bogus"'*) ;; *) no "unknown flag said '$err'" ;; esac
$X -f stdio -- /nonexistent/cmd 2>/dev/null; status=$?
[ $status -eq 127 ] || no "missing command: status $status, expected 127"
err=$($X -f stdio -- "$X" 2>&1); status=$?
[ $status -eq 1 ] || no "static binary: status $status, expected 1"
case $err in *"statically linked"*) ;; *) no "static binary said '$err'" ;; esac
$X -f stdio 2>/dev/null; status=$?
[ $status -eq 2 ] || no "no command: status $status, expected 2"

# the command's own exit status comes through
$X -f stdio,rpath -- sh -c 'exit 3' 2>/dev/null; status=$?
[ $status -eq 3 ] || no "exit status: $status, expected 3"

# no TAME_EXEC_* comes from the caller's environment (issue 46): the
# shim hears only this command line.  A TAME_EXEC_PLEDGE there once
# replaced -f stdio (cp copied a file), TAME_EXEC_TREE=1 switched the
# shim to tame-audit's tree, TAME_EXEC_UNVEIL hid paths, and the command
# saw them all in its environment
printf 'secret\n' > "$dir/secret"
TAME_EXEC_PLEDGE="stdio rpath wpath cpath" $X -f stdio -- \
    cp "$dir/secret" "$dir/stolen" 2>/dev/null
status=$?
[ $status -eq 159 ] ||
    no "-f stdio beside a caller's TAME_EXEC_PLEDGE: status $status, expected 159"
[ -e "$dir/stolen" ] &&
    no "a caller's TAME_EXEC_PLEDGE replaced -f stdio: cp copied the file"
out=$(TAME_EXEC_PLEDGE=stdio TAME_EXEC_TREE=1 TAME_EXEC_UNVEIL=r:/nonexistent \
    TAME_EXEC_LOAD=/nonexistent.so TAME_EXEC_PROFILE=relative \
    TAME_EXEC_FLAGS=0 TAME_EXEC_OTHER=1 $X -f stdio,rpath -- cat "$dir/in" 2>&1)
[ "$out" = "hello, tamed world" ] ||
    no "cat beside the caller's TAME_EXEC_* variables said '$out'"
out=$(TAME_EXEC_TREE=1 TAME_EXEC_OTHER=1 $X -f stdio -- env 2>&1)
case $out in *TAME_EXEC_*|*LD_PRELOAD=*)
	no "the command's environment kept '$(printf '%s\n' "$out" |
	    grep 'TAME_EXEC_\|LD_PRELOAD=')'" ;;
esac

# --check reports Landlock on this kernel: its ABI, or (a kernel before
# 5.13) that the handler's openat2 confines the paths instead, and that
# /proc/PID/mem of other processes is open to rpath and wpath there
check=$($X --check)
case $check in
*"Landlock: ABI "[1-9]*)
	echo "$check" | grep -q '/proc/PID/mem' &&
	    no "--check names /proc/PID/mem with Landlock: $check" ;;
*"Landlock: missing: "*openat2*)
	echo "n/a: Landlock (5.13): --check's Landlock ABI"
	echo "$check" | grep -q '^rpath, wpath: .*/proc/PID/mem' ||
	    no "--check without Landlock does not name /proc/PID/mem: $check" ;;
*)	no "--check shows neither Landlock nor openat2: $check" ;;
esac
# the path-gated flags at work on this kernel, however it confines them
# (issue 19: on 5.10 they once did not): id -un reads the passwd file,
# mktemp makes its file with mkstemp beneath /tmp
out=$($X -f stdio,getpw -- id -un 2>&1)
[ "$out" = "$(id -un)" ] || no "id -un under stdio,getpw said '$out'"
out=$($X -f stdio,tmppath -- mktemp 2>&1)
case $out in /tmp/tmp.*) rm -f "$out" ;;
    *) no "mktemp under stdio,tmppath said '$out'" ;;
esac
dump=$($X --dump-bpf stdio)
want=$(printf '%s\n' "$dump" | sed -n '1s/.*: \([0-9]*\) instructions$/\1/p')
n=$(printf '%s\n' "$dump" | grep -c '^[0-9]\{4\}: ')
[ -n "$want" ] && [ "$n" -eq "$want" ] ||
	no "--dump-bpf printed $n instructions, its header says '$want'"
for ret in 'ret ALLOW' 'ret KILL_PROCESS' 'ret TRAP(0)'; do
	printf '%s\n' "$dump" | grep -q "$ret" || no "--dump-bpf has no $ret"
done

# unprivileged, where no_new_privs is what makes seccomp possible at all
if [ "$(id -u)" -eq 0 ] && command -v setpriv >/dev/null; then
	chmod 755 "$dir"
	chmod 644 "$dir/in"
	out=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$X" -f stdio,rpath -- cat "$dir/in" 2>&1) ||
	    no "unprivileged cat under stdio,rpath failed: $out"
	err=$(setpriv --reuid=nobody --regid=nogroup --clear-groups \
	    "$X" -f stdio,rpath -- ls -l "$dir/in" 2>&1 >/dev/null)
	case $err in *"tame: socket AF_UNIX"*) ;;
	    *) no "unprivileged violation said '$err'" ;; esac
fi

# --check with -f: exit 1 when a flag asked for cannot be confined as
# documented (as on a kernel without Landlock and openat2, before 5.6),
# and say which; without Landlock alone the handler confines them
NL="$B/tests/tools/refuse landlock=ENOSYS --"
NLO="$B/tests/tools/refuse landlock=ENOSYS openat2=ENOSYS --"
if [ -x "$B/tests/tools/refuse" ]; then
	out=$($NLO "$X" -f stdio,getpw --check) &&
	    no "--check -f getpw without Landlock and openat2 exited 0"
	echo "$out" | grep -q '^getpw: cannot be confined here' ||
	    no "--check without Landlock and openat2 did not name getpw: $out"
	echo "$out" | grep -q '^tmppath:' &&
	    no "--check named tmppath, which was not asked for: $out"
	$NLO "$X" -f stdio,rpath --check >/dev/null ||
	    no "--check -f stdio,rpath without Landlock should pass"
	out=$($NL "$X" -f stdio,getpw,tmppath,dnspath --check) ||
	    no "--check -f getpw,tmppath,dnspath without Landlock failed: $out"
	echo "$out" | grep -q '^Landlock: missing: .*openat2' ||
	    no "--check without Landlock did not name openat2: $out"
	echo "$out" | grep -q '^rpath, wpath: .*/proc/PID/mem' &&
	    no "--check named /proc/PID/mem without rpath or wpath: $out"
	out=$($NL "$X" -f stdio,rpath --check)
	echo "$out" | grep -q '^rpath, wpath: .*/proc/PID/mem' ||
	    no "--check -f stdio,rpath without Landlock did not name /proc/PID/mem: $out"
	$X -f stdio,getpw,tmppath,dnspath --check >/dev/null ||
	    no "--check -f getpw,tmppath,dnspath fails with Landlock"
	# the flags at work without Landlock: id -un, a file made in /tmp
	me=$(id -un)
	out=$($NL "$X" -f stdio,getpw -- id -un 2>&1)
	[ "$out" = "$me" ] ||
	    no "id -un under stdio,getpw without Landlock said '$out'"
	out=$($NL "$X" -f stdio,tmppath -- mktemp 2>&1)
	case $out in /tmp/tmp.*) rm -f "$out" ;;
	    *) no "mktemp under stdio,tmppath without Landlock said '$out'" ;;
	esac
	# and without openat2 as well: getpw grants nothing, id dies of it
	out=$($NLO "$X" -f stdio,getpw -- id -un 2>&1)
	[ $? -eq 159 ] || no "id -un without Landlock and openat2 did not die"
	case $out in *"tame: "*"needs rpath"*) ;;
	    *) no "id -un without openat2 said '$out'" ;; esac
else
	no "$B/tests/tools/refuse not built"
fi

# set-ID and file-capability programs would run without their
# privileges (no_new_privs): refused with a reason, never run
cp /bin/true "$dir/suid"
chmod 4755 "$dir/suid"
err=$($X -- "$dir/suid" 2>&1)
[ $? -eq 126 ] || no "a set-user-ID program was not refused with 126"
case $err in *"is set-user-ID"*) ;; *) no "set-user-ID: '$err'" ;; esac
if command -v setcap >/dev/null; then
	cp /bin/true "$dir/cap"
	setcap cap_net_raw+ep "$dir/cap" 2>/dev/null &&
	err=$($X -- "$dir/cap" 2>&1)
	[ $? -eq 126 ] || no "a file-capability program was not refused"
	case $err in *"has file capabilities"*) ;;
	    *) no "file capabilities: '$err'" ;; esac
else
	no "setcap missing (libcap2-bin)"
fi

# -l: a module the command loads on demand, loaded before tame(): iconv
# to UTF-16 fails without it (its converter's executable mapping is
# refused, EPERM) and converts as untamed with it; a module that is no
# path, no file or no shared object is refused before the command runs
G=$(dirname "$(find /usr/lib -name UTF-16.so -path '*gconv*' | head -1)")
printf 'h\303\251\n' > "$dir/u8"
iconv -f UTF-8 -t UTF-16LE "$dir/u8" > "$dir/plain16"
$X -f stdio,rpath -- iconv -f UTF-8 -t UTF-16LE "$dir/u8" >/dev/null 2>&1 &&
    no "iconv without -l converted: its converter was loaded after tame()"
$X -f stdio,rpath -l "$G/UTF-16.so" -- iconv -f UTF-8 -t UTF-16LE "$dir/u8" \
    > "$dir/tamed16" || no "iconv with -l: status $?"
cmp -s "$dir/plain16" "$dir/tamed16" || no "iconv with -l: other bytes"
$X -f stdio -l UTF-16.so -- true 2>/dev/null
[ $? -eq 2 ] || no "-l with a relative path: not a usage error"
$X -f stdio -l "$dir/nosuch.so" -- touch "$dir/ran" 2>/dev/null
[ $? -eq 1 ] || no "-l with a missing file: status not 1"
err=$($X -f stdio -l /etc/passwd -- touch "$dir/ran" 2>&1)
[ $? -eq 126 ] || no "-l with no shared object: status not 126"
case $err in *"cannot load /etc/passwd"*) ;; *) no "-l /etc/passwd: '$err'" ;; esac
[ -e "$dir/ran" ] && no "the command ran although -l failed"

exit $fail
