#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-exec -p (pledge's promises) and -v (unveil) on real, unmodified
# programs.  Exit 0 when every check holds; each failure prints what was
# expected.
B=${B:-build}
X=$B/tame-exec
dir=$(mktemp -d /var/tmp/tame-exec-pledge.XXXXXX)
trap 'rm -rf "$dir"' EXIT
fail=0
no() { echo "tame-exec-pledge.sh: $*"; fail=1; }

printf 'pledged\n' > "$dir/in"

# -p: the promises a command needs let it work; without rpath its open
# dies after the line that names the promise
out=$($X -p "stdio rpath" -- cat "$dir/in") || no "cat under -p 'stdio rpath' failed"
[ "$out" = pledged ] || no "cat under -p printed '$out'"
err=$($X -p stdio -- cat "$dir/in" 2>&1 >/dev/null)
status=$?
[ $status -eq 159 ] || no "cat under -p stdio: status $status, expected 159"
case $err in *'cat['*']: pledge: openat "'"$dir/in"'" O_RDONLY needs promise rpath') ;;
    *) no "cat under -p stdio said '$err'" ;; esac

# -p holds whatever the caller's environment says (issue 46): beside
# TAME_EXEC_TREE=1 the shim once tamed with the default flags instead,
# and TAME_EXEC_FLAGS is tame-exec's own
for v in TAME_EXEC_TREE=1 TAME_EXEC_FLAGS=0x1fff; do
	err=$(env $v $X -p stdio -- cat "$dir/in" 2>&1 >/dev/null)
	status=$?
	[ $status -eq 159 ] || no "-p stdio beside $v: status $status"
	case $err in *'needs promise rpath'*) ;;
	    *) no "-p stdio beside $v said '$err'" ;; esac
done

# exec with NULL execpromises: the shell is pledged, what it runs is not
# (cat writes a file, which the shell's promises do not allow)
out=$($X -p "stdio rpath proc exec" -- sh -c \
    "cat '$dir/in' | wc -l; cp '$dir/in' '$dir/copy' && cat '$dir/copy'") ||
    no "a pledged shell's pipeline failed"
[ "$out" = "1
pledged" ] || no "a pledged shell's pipeline printed '$out'"
# the shell itself stays pledged: its own redirection needs wpath, cpath
$X -p "stdio rpath proc exec" -- sh -c "echo x > '$dir/shell'" 2>/dev/null
[ $? -eq 159 ] || no "a pledged shell wrote a file itself"
[ -e "$dir/shell" ] && no "a pledged shell created $dir/shell"

# fattr: cp -p gives the copy to its own user and group (xz -k does
# the same), and fails another owner with EPERM, as on OpenBSD: cp says
# so and goes on; chown lets root give it away
$X -p "stdio rpath wpath cpath fattr" -- cp -p "$dir/in" "$dir/kept" ||
    no "cp -p under fattr failed"
[ "$(stat -c %u:%g "$dir/kept")" = "$(id -u):$(id -g)" ] ||
    no "cp -p under fattr: $(stat -c %u:%g "$dir/kept")"
{ $X -p "stdio rpath wpath cpath" -- cp -p "$dir/in" "$dir/nofattr"; } \
    2>/dev/null
[ $? -eq 159 ] || no "cp -p without fattr was not stopped"
if [ "$(id -u)" -eq 0 ]; then
	cp "$dir/in" "$dir/theirs" && chown 4242:4242 "$dir/theirs"
	err=$($X -p "stdio rpath wpath cpath fattr" -- cp -p "$dir/theirs" \
	    "$dir/mine" 2>&1)
	status=$?
	[ $status -eq 1 ] || no "cp -p of another's file under fattr: $status"
	case $err in *'preserve ownership'*'Operation not permitted'*) ;;
	    *) no "cp -p of another's file under fattr said '$err'" ;; esac
	$X -p "stdio rpath wpath cpath fattr chown" -- cp -p "$dir/theirs" \
	    "$dir/given" || no "cp -p under chown failed"
	[ "$(stat -c %u:%g "$dir/given")" = 4242:4242 ] ||
	    no "cp -p under chown: $(stat -c %u:%g "$dir/given")"
else
	echo "n/a: giving a file away (not root); cp -p to itself checked"
fi

# error: the call fails with ENOSYS after the line, the command goes on
err=$($X -p "stdio error" -- cat "$dir/in" 2>&1 >/dev/null)
status=$?
[ $status -eq 1 ] || no "cat under -p 'stdio error': status $status, expected 1"
case $err in *'needs promise rpath: ENOSYS (error)'*) ;;
    *) no "cat under -p 'stdio error' said '$err'" ;; esac

# -v: only the unveiled paths are reachable, even as root
if ! $X --check 2>/dev/null | grep -q '^Landlock: ABI [1-9]'; then
	echo "n/a: -v needs Landlock, which this kernel lacks"
else
	out=$($X -f stdio,rpath -v "r:$dir" -- cat "$dir/in") ||
	    no "cat of an unveiled file failed"
	[ "$out" = pledged ] || no "cat of an unveiled file printed '$out'"
	$X -f stdio,rpath -v "r:$dir" -- cat /etc/hostname >/dev/null 2>&1 &&
	    no "cat read /etc/hostname, which was not unveiled"
	$X -p "stdio rpath" -v "r:$dir/in" -- wc -c /etc/shadow >/dev/null 2>&1 &&
	    no "wc read /etc/shadow beside -v r:$dir/in"
	$X -p "stdio rpath wpath cpath" -v "rwc:$dir" -- cp "$dir/in" "$dir/v" ||
	    no "cp within a rwc unveil failed"
	[ -e "$dir/v" ] || no "cp within a rwc unveil made nothing"
	# -v holds whatever the caller's environment says (issue 46:
	# TAME_EXEC_TREE=1 once switched the shim to tame-audit's tree,
	# which dropped the paths), and in a tree too
	for how in "env TAME_EXEC_TREE=1 $X" "$X --tree"; do
		$how -f stdio,rpath -v "r:$dir/in" -- cat /etc/hostname \
		    >/dev/null 2>&1 &&
		    no "$how -v r:$dir/in: cat read /etc/hostname"
	done
	out=$($X --tree -f stdio,rpath -v "r:$dir" -- cat "$dir/in") ||
	    no "cat of an unveiled file under --tree failed"
	[ "$out" = pledged ] || no "cat under --tree -v printed '$out'"
	# as unveil(): a directory on the path missing is refused; a last
	# name still to be made is unveiled (its directory's rule)
	$X -f stdio,rpath -v "r:$dir/missing/x" -- true 2>"$dir/err"
	[ $? -eq 126 ] || no "-v beneath a missing directory did not refuse"
	grep -q 'tame-exec: unveil .*missing/x: No such file' "$dir/err" ||
	    no "-v beneath a missing directory said '$(cat "$dir/err")'"
	$X -f stdio,rpath,wpath,cpath -v "wc:$dir/made" -- sh -c \
	    "echo x > '$dir/made'" 2>"$dir/err" ||
	    no "-v wc: of a name to be made: $(cat "$dir/err")"
	[ -s "$dir/made" ] || no "-v wc: of a name to be made made nothing"
fi

# a profile line may give promises: the shell pledged with exec, its cat
# pledged stdio alone, ls (not listed) as it is
sh_path=$(readlink -f /bin/sh)
cat_path=$(readlink -f "$(command -v cat)")
printf '%s pledge:stdio,rpath,proc,exec\n%s pledge:stdio\n' "$sh_path" \
    "$cat_path" > "$dir/prof"
out=$($X --profile "$dir/prof" -- sh -c "ls '$dir' >&2 && echo ls-ok; cat '$dir/in'" 2>"$dir/err")
[ "$out" = ls-ok ] || no "under a pledge: profile the tree printed '$out'"
grep -q "cat\[[0-9]*\]: pledge: openat .* needs promise rpath" "$dir/err" ||
    no "the listed cat was not pledged: '$(cat "$dir/err")'"
printf '%s pledge:stdio,bogus\n' "$cat_path" > "$dir/bad"
$X --profile "$dir/bad" -- true 2>"$dir/err"
[ $? -eq 1 ] || no "a profile with an unknown promise ran"
grep -q 'unknown promise "bogus"' "$dir/err" || no "the bad promise is not named"
printf '%s pledge:rpath\n' "$cat_path" > "$dir/bad"
$X --profile "$dir/bad" -- true 2>/dev/null && no "a profile line without stdio ran"
# a program pledged with exec needs rpath: its exec wrappers read each
# program it starts, to refuse a listed one the shim cannot reach
printf '%s pledge:stdio,proc,exec\n' "$sh_path" > "$dir/bad"
$X --profile "$dir/bad" -- true 2>"$dir/err"
[ $? -eq 1 ] || no "a profile line pledging exec without rpath ran"
grep -q "bad:1: $sh_path pledge:stdio proc exec: a program pledged with exec needs rpath too" "$dir/err" ||
    no "a line pledging exec without rpath said '$(cat "$dir/err")'"

# bad input: usage errors, exit 2
for args in "-p 'stdio bogus'" "-p stdio -f stdio" "-v q:/etc" "-v /etc" \
    "-p stdio --profile $dir/p" "-v r:/etc --check"; do
	eval "$X $args -- true" >/dev/null 2>&1
	status=$?
	[ $status -eq 2 ] || no "tame-exec $args: status $status, expected 2"
done
$X -p 'stdio bogus' -- true 2>&1 | grep -q 'unknown promise "bogus"' ||
    no "an unknown promise is not named"

exit $fail
