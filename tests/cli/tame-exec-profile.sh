#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-exec --profile: a process tree whose listed programs are tamed,
# each with its own flags, as they start; the others run as they would.
# A listed program never runs untamed without a word: a parent that
# clears the environment passes the shim on anyway, and one the shim
# cannot reach (static, set-ID, file capabilities, another machine) is
# not run; nor does the dynamic loader run as a command (ld.so PROGRAM)
# start a listed program untamed, nor does a listed program pledged with
# exec, whatever environment it gives.  And tame-audit's tree mode
# (tame-exec --tree): each program names itself in the trace before its
# tame() marker.  Exit 0 when every check holds; each failure prints
# what was expected.
B=${B:-build}
X=$PWD/$B/tame-exec
L=$PWD/$B/tests/tools/launch
dir=$(mktemp -d /var/tmp/tame-profile-test.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "tame-exec-profile.sh: $*"; fail=1; }
export LC_ALL=C

command -v strace >/dev/null || { no "strace is missing (make deps)"; exit 1; }
[ -x "$L" ] || { no "$L not built"; exit 1; }
cd "$dir" && dir=$(pwd -P) || exit 1
SORT=$(readlink -f "$(command -v sort)")
UNIQ=$(readlink -f "$(command -v uniq)")
SH=$(readlink -f /bin/sh)
case $(uname -m) in
x86_64)		LDSO=/lib64/ld-linux-x86-64.so.2 ;;
aarch64)	LDSO=/lib/ld-linux-aarch64.so.1 ;;
*)		no "no dynamic loader known for $(uname -m)"; exit 1 ;;
esac
printf 'pear\napple\npear\nfig\n' > in.txt
ALL=stdio,rpath,wpath,cpath,tmppath,inet,unix,dnspath,getpw,cmsg,ioctl,proc

# A pipeline: sort and uniq tamed, each with its own flags, the same
# output and status as untamed; sh, not listed, is not tamed (tame()
# writes its marker in the tamed pids alone: sort's stdio,rpath is 0x7,
# uniq's stdio 0x3)
printf '# a pipeline\n%s stdio,rpath\n%s\tstdio  # reads stdin\n' \
    "$SORT" "$UNIQ" > pipe.prof
want=$(sh -c 'sort in.txt | uniq -c; exit 3'); wst=$?
out=$($X --profile pipe.prof -- sh -c 'sort in.txt | uniq -c; exit 3' 2>&1)
st=$?
[ "$out" = "$want" ] || no "the pipeline said '$out', untamed '$want'"
[ $st -eq $wst ] || no "the pipeline's status $st, untamed $wst"
strace -f -qq -e trace=write -e signal=none -o marks.log \
    $X --profile pipe.prof -- sh -c 'sort in.txt | uniq -c' >/dev/null
marks=$(sed -n 's/.*write(-1, "tame:\(0x[0-9a-f]*\)".*/\1/p' marks.log |
    sort | tr '\n' ' ')
[ "$marks" = "0x3 0x7 " ] ||
    no "markers of the pipeline: '$marks', expected sort's and uniq's"

# The command itself, when listed, tamed too
out=$($X --profile pipe.prof -- sort in.txt 2>&1)
[ "$out" = "$(sort in.txt)" ] || no "sort as the command said '$out'"

# A violation: sort listed with stdio alone must not read in.txt; it
# dies of SIGSYS after its line, and its shell sees 159
printf '%s stdio\n' "$SORT" > stdio.prof
out=$($X --profile stdio.prof -- sh -c 'sort in.txt; echo "status $?"' \
    2>err)
[ "$out" = "status 159" ] || no "sort under stdio: '$out', expected status 159"
case $(cat err) in *"sort["*"]: tame: "*'"in.txt"'*"needs rpath"*) ;;
    *) no "sort under stdio said '$(cat err)'" ;; esac

# Unlisted programs run untamed: the shell still executes programs,
# cat reads and ls looks files up
out=$($X --profile stdio.prof -- sh -c 'cat in.txt >/dev/null &&
    ls in.txt && echo ok' 2>&1) || no "unlisted programs failed: '$out'"
[ "$out" = "in.txt
ok" ] || no "unlisted programs said '$out'"

# A malformed profile: named with its line, status 1, nothing runs
bad() {
	printf "$2" > bad.prof
	err=$($X --profile bad.prof -- touch ran 2>&1); st=$?
	[ $st -eq 1 ] || no "$1: status $st, expected 1"
	case $err in "tame-exec: bad.prof:$3: $4"*) ;;
	    *) no "$1 said '$err'" ;; esac
	[ -e ran ] && no "$1: the command ran"
	rm -f ran
}
bad "unknown flag" "$SORT stdio\n\n$UNIQ stdio,bogus\n" 3 \
    "unknown flag \"bogus\" for $UNIQ"
bad "relative path" "# x\nbin/sort stdio\n" 2 '"bin/sort" is not an absolute'
bad "duplicate" "$SORT stdio\n$UNIQ stdio\n$SORT stdio,rpath\n" 3 \
    "$SORT is listed again (first on line 1)"
bad "missing flags" "$SORT\n" 1 "\"$SORT\" has no flags"
bad "no stdio" "$SORT rpath\n" 1 "$SORT rpath: without stdio"
# A line that names no program's real path would tame nothing, silently:
# a symbolic link on the way (/bin is one on Debian), a script (its
# interpreter runs), a program that is not there
ln -s "$SORT" sort-link
bad "a symbolic link" "# x\n$dir/sort-link stdio\n" 2 \
    "$dir/sort-link is not a program's real path: an exec of it runs $SORT"
printf '#!/bin/sh\ntrue\n' > script.sh
chmod +x script.sh
bad "a script" "$dir/script.sh stdio\n" 1 \
    "$dir/script.sh is not a program's real path: an exec of it runs $SH (a script's interpreter)"
bad "no such program" "$SORT stdio\n/usr/bin/nosuchprog stdio\n" 2 \
    "/usr/bin/nosuchprog: No such file or directory"
err=$($X --profile missing.prof -- touch ran 2>&1); st=$?
[ $st -eq 1 ] && [ ! -e ran ] ||
    no "a missing profile: status $st, ran: $(ls ran 2>&1)"
case $err in *"missing.prof: No such file"*) ;;
    *) no "a missing profile said '$err'" ;; esac
mkfifo fifo.prof
err=$($X --profile fifo.prof -- touch ran 2>&1); st=$?
[ $st -eq 1 ] && [ ! -e ran ] || no "a FIFO as profile: status $st"
case $err in *"fifo.prof: not a regular file"*) ;;
    *) no "a FIFO as profile said '$err'" ;; esac

# -f and --profile (or --check) together: a usage error
err=$($X -f stdio --profile pipe.prof -- true 2>&1); st=$?
[ $st -eq 2 ] || no "-f with --profile: status $st, expected 2"
case $err in *"--profile"*"cannot go with -f"*usage:*) ;;
    *) no "-f with --profile said '$err'" ;; esac
err=$($X --profile pipe.prof --check 2>&1); st=$?
[ $st -eq 2 ] || no "--check with --profile: status $st, expected 2"

# A profile that goes bad after tame-exec read it: the next program
# started is not run (126), with the file and line
cp pipe.prof late.prof
out=$($X --profile late.prof -- sh -c 'echo "/x nope" >> late.prof;
    cat in.txt; echo "status $?"' 2>err)
[ "$out" = "status 126" ] || no "after the profile went bad: '$out'"
case $(cat err) in *"late.prof:4: unknown flag \"nope\" for /x; "*"cat not run"*) ;;
    *) no "after the profile went bad, said '$(cat err)'" ;; esac

# A parent that clears the environment: the listed child is tamed
# anyway, by every route of the C library (tests/tools/launch.c)
out=$($X --profile stdio.prof -- env -i /usr/bin/sort in.txt 2>&1); st=$?
[ $st -eq 159 ] || no "env -i sort: status $st, expected 159 ($out)"
routes="execve execv execl execle execvp execvpe execlp fexecve execveat
    vfork posix_spawn posix_spawnp system popen"
for r in $routes; do
	case $r in *p|*pe|posix_spawnp|system|popen) s=sort ;; *) s=$SORT ;;
	esac
	err=$($X --profile stdio.prof -- "$L" $r $s in.txt 2>&1); st=$?
	[ $st -eq 159 ] || no "sort by $r, environment cleared: status $st ($err)"
	case $err in *"tame: "*"needs rpath"*) ;;
	    *) no "sort by $r, environment cleared, said '$err'" ;; esac
done
# The dynamic loader run as a command: /proc/self/exe is the loader then,
# and sort, listed, once ran untamed (issue 46): the shim judges the
# program the loader mapped, as the command, past env -i, with the
# loader's options, by the routes that pass every argument on
for cmd in "$LDSO $SORT in.txt" "env -i $LDSO $SORT in.txt" \
    "sh -c '$LDSO --inhibit-cache --argv0 x $SORT in.txt'" \
    "$L execve $LDSO $SORT in.txt" "$L posix_spawn $LDSO $SORT in.txt" \
    "$L system $LDSO $SORT in.txt"; do
	err=$(eval "$X --profile stdio.prof -- $cmd" 2>&1); st=$?
	[ $st -eq 159 ] || no "$cmd: status $st, expected 159 ($err)"
	case $err in *"]: tame: "*'"in.txt"'*"needs rpath"*) ;;
	    *) no "$cmd said '$err'" ;; esac
done
# A listed program pledged with exec passes the shim on as a launcher
# does: a shell that clears LD_PRELOAD, or gives sort other TAME_EXEC_*
# (flags, a profile that does not list it), or runs it through the
# loader once started sort untamed (issue 46)
printf '%s pledge:stdio,rpath,proc,exec\n%s stdio\n' "$SH" "$SORT" > shell.prof
: > empty.prof
for c in "LD_PRELOAD= $SORT in.txt" "env -i $SORT in.txt" \
    "$LDSO $SORT in.txt" "TAME_EXEC_FLAGS=0x1fff $SORT in.txt" \
    "TAME_EXEC_PROFILE=$dir/empty.prof $SORT in.txt"; do
	out=$($X --profile shell.prof -- sh -c "$c; echo \"status \$?\"" 2>err)
	[ "$out" = "status 159" ] || no "a pledged shell's '$c': '$out'"
	grep -q "sort\[[0-9]*\]: tame: .*needs rpath" err ||
	    no "a pledged shell's '$c' said '$(cat err)'"
done
# and by every route of the C library, the environment cleared
LP=$(readlink -f "$L")
printf '%s pledge:stdio,rpath,proc,exec\n%s stdio\n' "$LP" "$SORT" > launch.prof
for r in $routes; do
	case $r in *p|*pe|posix_spawnp|system|popen) s=sort ;; *) s=$SORT ;;
	esac
	err=$($X --profile launch.prof -- "$LP" $r $s in.txt 2>&1); st=$?
	[ $st -eq 159 ] ||
	    no "sort by a pledged launcher's $r: status $st ($err)"
	case $err in *"sort["*"]: tame: "*"needs rpath"*) ;;
	    *) no "sort by a pledged launcher's $r said '$err'" ;; esac
done
# ... but a system call made without the C library is out of reach
# (tame-exec(1), CAVEATS): the shim passes nothing on
$X --profile stdio.prof -- "$L" syscall "$SORT" in.txt >/dev/null 2>&1 ||
    no "sort by a raw execve with no environment did not run untamed"

# Listed programs the shim cannot reach are not run: the exec fails
# with EACCES, and one line names the program, the profile and why
refused() {	# what, profile, command..., expecting "but $why"
	what=$1 prof=$2 why=$3; shift 3
	err=$($X --profile "$prof" -- "$@" 2>&1); st=$?
	[ $st -eq 126 ] || no "$what: status $st, expected 126 ($err)"
	case $err in *"tame-exec: "*" is listed in $dir/$prof but $why"*": it would run untamed; not run"*) ;;
	    *) no "$what said '$err'" ;; esac
}
if [ -x /bin/busybox ] && ! LC_ALL=C ldd /bin/busybox >/dev/null 2>&1; then
	BB=$(readlink -f /bin/busybox)
	printf '%s stdio\n' "$BB" > static.prof
	refused "a static program" static.prof "is statically linked" \
	    sh -c "$BB true"
	for r in $routes; do
		case $r in *p|*pe|posix_spawnp|system|popen) b=busybox ;;
		    *) b=$BB ;; esac
		refused "a static program by $r" static.prof \
		    "is statically linked" "$L" $r $b true
	done
	# a script whose interpreter it is
	printf '#!%s sh\necho hi\n' "$BB" > bbscript && chmod +x bbscript
	refused "a script of a static interpreter" static.prof \
	    "is statically linked" sh -c ./bbscript
	# the dynamic loader would run it without the shim (issue 46: it
	# ran untamed): not run, by every route, as the command, from a
	# pledged shell
	loaded() {	# what, profile, command...
		what=$1 prof=$2; shift 2
		err=$($X --profile "$prof" -- "$@" 2>&1); st=$?
		[ $st -eq 126 ] || no "$what: status $st, expected 126 ($err)"
		case $err in *"tame-exec: $BB is listed in $dir/$prof but is statically linked: the dynamic loader would run it untamed; not run"*) ;;
		    *) no "$what said '$err'" ;; esac
	}
	loaded "a static program by the loader" static.prof \
	    sh -c "$LDSO $BB true"
	loaded "a static program by the loader, as the command" static.prof \
	    "$LDSO" "$BB" true
	for r in $routes; do
		loaded "a static program by the loader by $r" static.prof \
		    "$L" $r "$LDSO" "$BB"
	done
	printf '%s pledge:stdio,rpath,proc,exec\n%s stdio\n' "$SH" "$BB" \
	    > static-sh.prof
	loaded "a static program by the loader from a pledged shell" \
	    static-sh.prof sh -c "$LDSO $BB true"
	# as the command itself: refused as tame-exec -f refuses it
	err=$($X --profile static.prof -- "$BB" true 2>&1); st=$?
	[ $st -eq 1 ] || no "a static command: status $st, expected 1"
	case $err in *"statically linked"*) ;;
	    *) no "a static command said '$err'" ;; esac
	# an unlisted static program runs as it would
	cp "$BB" echo
	out=$($X --profile static.prof -- sh -c './echo unlisted' 2>&1)
	[ "$out" = unlisted ] || no "an unlisted static program said '$out'"
else
	echo "n/a: a static program (no static /bin/busybox: busybox-static)"
fi
cp "$(readlink -f "$(command -v id)")" suid
chmod u+s suid
printf '%s stdio\n' "$dir/suid" > suid.prof	# $dir: no symbolic link
refused "a set-user-ID program" suid.prof "is set-user-ID" sh -c ./suid
err=$($X --profile suid.prof -- ./suid 2>&1); st=$?
[ $st -eq 126 ] || no "a set-user-ID command: status $st, expected 126"
case $err in *"is listed in $dir/suid.prof but is set-user-ID"*) ;;
    *) no "a set-user-ID command said '$err'" ;; esac
chmod u-s,g+s suid
refused "a set-group-ID program" suid.prof "is set-group-ID" sh -c ./suid
$X --profile pipe.prof -- ./suid >/dev/null ||
    no "an unlisted set-group-ID program did not run"
if [ "$(id -u)" -eq 0 ] && command -v setcap >/dev/null; then
	cp "$(readlink -f "$(command -v id)")" cap
	setcap cap_net_raw+ep cap
	printf '%s stdio\n' "$dir/cap" > cap.prof
	refused "a file-capability program" cap.prof "has file capabilities" \
	    sh -c ./cap
else
	echo "n/a: file capabilities (setcap, as root)"
fi
# an ELF header of another machine (x86-64's 62 or aarch64's 183)
case $(uname -m) in x86_64) m='\267\000' ;; *) m='\076\000' ;; esac
printf "\\177ELF\\002\\001\\001\\000\\000\\000\\000\\000\\000\\000\\000\\000\\002\\000$m" > other
head -c 100 /dev/zero >> other
chmod +x other
printf '%s stdio\n' "$dir/other" > other.prof
refused "another machine's program" other.prof \
    "is built for another architecture" sh -c ./other

# tame-audit's tree: tame-exec --tree -f; under a tracer with
# TAME_AUDIT=permissive-cold every program names itself,
# write(-1, "tame-exe:PATH"), then tame() writes its marker, in the same
# pid, and the tree goes on (nothing is installed)
printf 'one\ntwo\n' > f
out=$(TAME_AUDIT=permissive-cold strace -f -s 256 \
    -o tree.log $X --tree -f $ALL -- sh -c 'cat f | wc -l')
[ "$out" = 2 ] || no "the tree's output was '$out'"
# each pid's program, printed when its tame() marker follows
named() {
	awk '/write\(-1, "tame-exe:/ {
		s = $0; sub(/.*"tame-exe:/, "", s); sub(/".*/, "", s)
		exe[$1] = s; next }
	    /write\(-1, "tame:0x/ && ($1 in exe) { print exe[$1]; delete exe[$1] }' \
	    "$1" | sort | tr '\n' ' '
}
want=$(printf '%s\n' "$SH" "$(readlink -f "$(command -v cat)")" \
    "$(readlink -f "$(command -v wc)")" | sort | tr '\n' ' ')
got=$(named tree.log)
[ "$got" = "$want" ] || no "tree markers: '$got', expected '$want'"
# the variables go on past env -i, TAME_AUDIT with them
out=$(TAME_AUDIT=permissive-cold strace -f -s 256 \
    -o tree2.log $X --tree -f $ALL -- env -i sh -c 'cat f')
[ "$out" = "one
two" ] || no "the tree through env -i said '$out'"
want=$(printf '%s\n' "$(readlink -f "$(command -v env)")" "$SH" \
    "$(readlink -f "$(command -v cat)")" | sort | tr '\n' ' ')
got=$(named tree2.log)
[ "$got" = "$want" ] || no "tree markers through env -i: '$got', expected '$want'"
# the tree is tame-exec's own option: TAME_EXEC_TREE=1 in the caller's
# environment (which once made the shim drop -v) is not taken
TAME_AUDIT=permissive-cold TAME_EXEC_TREE=1 strace -f -s 256 -o tree3.log \
    $X -f $ALL -- sh -c 'cat f' >/dev/null
grep -q 'tame-exe:' tree3.log &&
    no "TAME_EXEC_TREE=1 in the caller's environment made a tree"

# load=: the modules a line's program loads before tame(), refused before
# anything runs where one is relative, missing, or more follows
for bad in "load=UTF-16.so:is not a module's absolute path" \
    "load=$dir/nosuch.so:No such file or directory" \
    "load=$dir/in x:more than PATH FLAGS load=MODULES"; do
	printf '%s stdio %s\n' "$SORT" "${bad%%:*}" > load.prof
	err=$("$X" --profile load.prof -- touch ran 2>&1)
	[ $? -eq 1 ] || no "a profile with ${bad%%:*}: status not 1"
	case $err in *"${bad#*:}"*) ;; *) no "${bad%%:*}: '$err'" ;; esac
	[ -e ran ] && no "the command ran under a profile with ${bad%%:*}"
done

exit $fail
