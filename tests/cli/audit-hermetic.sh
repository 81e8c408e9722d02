#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-audit's hermetic runs (tame-audit(1), HERMETIC RUNS): commands
# that create, overwrite, rename or remove files in their working
# directory and under $HOME, and three that read a pipe, each audited
# twice, by default and with --verify, in fresh copies of one tree.  Both
# ways must give the same answer, and leave the tree as one plain run of
# the command leaves it (the audit's runs each in a view thrown away,
# then the user's run, the only real one, whose run ended as the audited
# one did).  Then the unprivileged view: ls -l shows the real owners
# (the user's run), a run in a view decides what it shows the same in
# every view, and the report says where the user's run went otherwise;
# and where no view can be made, one line says so, the audit is one
# run and the report says "hermetic": false.  The faults (signals,
# concurrent writers, metadata) are audit-faults.sh's.  Prints n/a with
# the reason where this machine cannot make a view.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
AUDIT=$PWD/$B/tame-audit
REFUSE=$PWD/$B/tests/tools/refuse
OWNER=$PWD/$B/tests/tools/owner
PATH=/usr/bin:/bin:/usr/sbin:/sbin
export PATH
W=$(mktemp -d /var/tmp/tame-hermetic.XXXXXX) || exit 1
trap 'rm -rf "$W" ${S:+"$S"}' EXIT
chmod 755 "$W"
fail() {
	echo "audit-hermetic.sh: $*" >&2
	exit 1
}
[ -x "$AUDIT" ] || fail "build first"
command -v jq > /dev/null || fail "jq not installed"

# The tree each command starts from
mkdir -p "$W/fixture/d" "$W/fixture/home"
printf 'alpha\nbeta\n' > "$W/fixture/a.txt"
printf 'bravo\n' > "$W/fixture/b.txt"
printf 'charlie\n' > "$W/fixture/d/c.txt"
printf 'rc\n' > "$W/fixture/home/.rc"

# What a tree holds: kinds, names, modes, link targets, contents.
snapshot() {
	(cd "$1" && find . -printf '%y %p %m %l\n' | sort &&
	    find . -type f -print0 | sort -z | xargs -0 -r md5sum)
}

fresh() {
	rm -rf "$W/$1" && cp -a "$W/fixture" "$W/$1"
}

# $1: what the pipe gives, or "" for none; the rest: the command
n=0
run_case() {
	input=$1
	shift
	n=$((n + 1))
	fresh plain
	if [ -n "$input" ]; then
		(cd "$W/plain" && printf '%s' "$input" | HOME=$W/plain/home \
		    "$@" > /dev/null 2>&1)
	else
		(cd "$W/plain" && HOME=$W/plain/home "$@" < /dev/null \
		    > /dev/null 2>&1)
	fi
	snapshot "$W/plain" > "$W/want"
	for how in default verify; do
		fresh "$how"
		opt=
		[ "$how" = verify ] && opt=--verify
		if [ -n "$input" ]; then
			(cd "$W/$how" && printf '%s' "$input" |
			    HOME=$W/$how/home "$AUDIT" $opt --json \
			    -o "$W/$how.json" -- "$@" > /dev/null 2>&1)
		else
			(cd "$W/$how" && HOME=$W/$how/home "$AUDIT" $opt \
			    --json -o "$W/$how.json" -- "$@" < /dev/null \
			    > /dev/null 2>&1)
		fi
		# the trees were copied to plain/, default/ and verify/
		sed "s|$W/$how|$W/plain|g" "$W/$how.json" > "$W/$how.j"
		snapshot "$W/$how" > "$W/got"
		cmp -s "$W/want" "$W/got" || fail "$*: $how: the tree is not \
as one run leaves it: $(diff "$W/want" "$W/got" | head -5)"
		jq -e '.hermetic and .reproduced' "$W/$how.json" > /dev/null ||
		    fail "$*: $how: not hermetic, or not reproduced: $(jq -c \
		    .warnings "$W/$how.json")"
	done
	jq -c '[.tameable, .flags, (.blockers | map(.kind))]' \
	    "$W/default.json" > "$W/d.answer"
	jq -c '[.tameable, .flags, (.blockers | map(.kind))]' \
	    "$W/verify.json" > "$W/v.answer"
	cmp -s "$W/d.answer" "$W/v.answer" || fail "$*: by default \
$(cat "$W/d.answer"), with --verify $(cat "$W/v.answer")"
	echo "audit-hermetic.sh: $(cat "$W/d.answer") $*"
}

# Can this machine make a view?  Say why not, and stop.
(cd "$W" && "$AUDIT" --json -o "$W/probe.json" -- true 2> "$W/probe.err") ||
    fail "tame-audit -- true: status $?, $(cat "$W/probe.err")"
if ! jq -e '.hermetic' "$W/probe.json" > /dev/null; then
	echo "n/a: no hermetic view here: $(head -1 "$W/probe.err")"
	exit 0
fi

# TAME_CORPUS_QUICK=1 (make check-kernels' guests, where TCG makes each
# audit a minute): all but the ones marked slow, i.e. one command (mv),
# SIGTERM and the fallback.
slow() {
	[ -n "${TAME_CORPUS_QUICK:-}" ] && return 0
	"$@"
}

# 22 that change files: in the working directory and under $HOME
slow run_case "" touch new
slow run_case "" cp a.txt copy
run_case "" mv a.txt moved
slow run_case "" rm b.txt
slow run_case "" mkdir -p x/y
slow run_case "" ln -s a.txt link
slow run_case "" sh -c 'echo more >> a.txt'
slow run_case "" sed -i s/alpha/ALPHA/ a.txt
slow run_case "" gzip -k a.txt
slow run_case "" gzip b.txt
slow run_case "" tar cf t.tar d
slow run_case "" cp -r d d2
slow run_case "" rm -r d
slow run_case "" mv d renamed
slow run_case "" chmod 600 a.txt
slow run_case "" truncate -s 0 a.txt
slow run_case "" split -l 1 a.txt part.
slow run_case "" install -m 640 a.txt installed
slow run_case "" sort -o a.txt a.txt
slow run_case "" sh -c 'echo h >> "$HOME/.rc"'
slow run_case "" sh -c 'rm "$HOME/.rc"; echo new > "$HOME/.rc2"'
slow run_case "" touch home/.cache-stamp
# 3 that read a pipe: recorded in the first run, given to the others
slow run_case "$(printf 'beta\nalpha\n')" sort -o sorted
slow run_case "data" tee out
slow run_case "x" sh -c 'cat > catted'
echo "audit-hermetic.sh: $n commands, both ways, as one run"

# The kept log, named relative to the working directory, is written
# through the view to the real file
(cd "$W" && "$AUDIT" --keep-log kept.log -o /dev/null -- true) ||
    fail "--keep-log kept.log: status $?"
grep -q 'tame:0x' "$W/kept.log" || fail "--keep-log kept.log: no marker"

# What no view holds back is named: a device written (the kernel's log,
# a harmless one), in each of the runs --verify makes
if [ -w /dev/kmsg ]; then
	(cd "$W" && "$AUDIT" --verify -o "$W/kmsg.r" -- \
	    sh -c 'echo tame-audit-hermetic-test > /dev/kmsg') ||
	    fail "/dev/kmsg: status $?"
	grep -q 'so each of its runs did it: writes to /dev/kmsg' "$W/kmsg.r" ||
	    fail "/dev/kmsg: not named: $(cat "$W/kmsg.r")"
else
	echo "n/a: a device that no view holds back: /dev/kmsg is not writable here"
fi

# A server outside the view is reached through the socket it bound
# before the run; a socket the run binds is named in a warning
if command -v python3 > /dev/null; then
	/usr/bin/python3 -c '
import socket, sys
s = socket.socket(socket.AF_UNIX)
s.bind(sys.argv[1]); s.listen(4); print("", flush=True)
for _ in range(4):
    c, _ = s.accept(); c.sendall(b"served\n"); c.close()
' "$W/srv.sock" > "$W/srv.ready" &
	srv=$!
	while [ ! -s "$W/srv.ready" ]; do	# until it listens
		kill -0 "$srv" 2> /dev/null || fail "the socket server died"
	done
	(cd "$W" && "$AUDIT" --json -o "$W/sock.json" -- /usr/bin/python3 -c '
import os, socket, sys
c = socket.socket(socket.AF_UNIX); c.connect(sys.argv[1])
print(c.recv(16).decode(), end="")
s = socket.socket(socket.AF_UNIX); s.bind(sys.argv[2]); os.unlink(sys.argv[2])
' "$W/srv.sock" "$W/own.sock" > "$W/sock.out") ||
	    fail "a client of a server outside: status $?"
	[ "$(cat "$W/sock.out")" = served ] ||
	    fail "a client of a server outside: $(cat "$W/sock.out")"
	jq -e --arg p "$W/own.sock" '.warnings | any(contains($p) and
	    contains("out of reach"))' "$W/sock.json" > /dev/null ||
	    fail "the run's own socket not named: $(jq -c .warnings \
	    "$W/sock.json")"
	kill "$srv" 2> /dev/null
fi

# Asked to stop (SIGTERM; ^C and SIGHUP go the same way) during the
# audit's own runs: the files are untouched, no report, status 130 (the
# command cannot signal tame-audit from its view: the run's processes
# see only each other)
fresh term
(cd "$W/term" && exec "$AUDIT" --verify -o "$W/term.r" -- \
    sh -c 'echo more >> a.txt; sleep 3' 2> "$W/term.err") &
ta=$!
until pgrep -f '^sh -c echo more >> a.txt; sleep 3' > /dev/null; do
	kill -0 "$ta" 2> /dev/null || fail "SIGTERM: the audit ended first"
done
kill -TERM "$ta"
wait "$ta"
st=$?
[ $st -eq 130 ] || fail "SIGTERM: status $st, $(cat "$W/term.err")"
grep -q 'interrupted (SIGTERM) during the audit.s own runs' "$W/term.err" ||
    fail "SIGTERM: $(cat "$W/term.err")"
[ "$(cat "$W/term/a.txt")" = "$(printf 'alpha\nbeta')" ] ||
    fail "SIGTERM: a.txt is $(cat "$W/term/a.txt")"
[ -s "$W/term.r" ] && fail "SIGTERM: a report was written"

# As uid 4242 the views show root's files as nobody's: a run in a view
# decides a soft blocker all the same (owner looks at root's file, and
# prints nothing of it); where the view changes what it prints (owner
# print), the decision stands, and the report says the user's run
# printed otherwise.
unprivileged_later_runs() {
	out=$(as_user -- "$OWNER") || fail "owner: status $?"
	[ "$out" = hello ] || fail "owner: output $out"
	jq -e '.tameable and .decided == ["soft"] and .hermetic and
	    .reproduced' "$W/user/r" > /dev/null ||
	    fail "owner: $(cat "$W/user/r")"
	out=$(as_user -- "$OWNER" print) || fail "owner print: status $?"
	[ "$out" = "owner 0" ] || fail "owner print: output $out"
	jq -e '.tameable and (.reproduced | not) and (.warnings |
	    any(test("did not end as the audited run did .standard output " +
	    "differs.*owned by nobody")))' "$W/user/r" > /dev/null ||
	    fail "owner print: $(cat "$W/user/r")"
}

# As uid 4242, only the caller's own places are layered, and the rest is
# read-only in a view: a write elsewhere (a directory others may write)
# fails in the audit's runs, is named, and is made once, by the user's
# run.
unprivileged_unlayered() {
	if ! S=$(mktemp -d /run/tame-hermetic.XXXXXX 2> /dev/null); then
		echo "n/a: a change outside the layered places: /run is" \
		    "not writable"
		return
	fi
	chmod 777 "$S"
	as_user --verify -- sh -c "echo x >> $S/log" ||
	    fail "outside the places: status $?"
	jq -e '.warnings | any(test("the audited run got EROFS"))' \
	    "$W/user/r" > /dev/null ||
	    fail "outside the places: $(cat "$W/user/r")"
	[ "$(cat "$S/log")" = x ] ||
	    fail "outside the places: $S/log is $(cat "$S/log")"
	rm -rf "$S"
}

# Unprivileged: the view is a user namespace of the caller's ids, where
# root's files would show as nobody's; ls -l must still print root.
if command -v setpriv > /dev/null && [ "$(id -u)" = 0 ]; then
	mkdir "$W/user" && chown 4242:4242 "$W/user"
	out=$(cd "$W/user" && HOME=$W/user setpriv --reuid=4242 \
	    --regid=4242 --clear-groups "$AUDIT" -o "$W/user/r" -- \
	    ls -l /etc/passwd 2> "$W/user.err")
	case $out in
	*" root root "*) ;;
	*) fail "unprivileged ls -l: $out ($(cat "$W/user.err"))" ;;
	esac
	as_user() {
		(cd "$W/user" && HOME=$W/user setpriv --reuid=4242 \
		    --regid=4242 --clear-groups "$AUDIT" --json -o "$W/user/r" \
		    "$@" 2> "$W/user.err")
	}
	# Whether uid 4242 gets a view here at all (not in a guest's chroot,
	# nor where user namespaces are off; ls -l's run said so)
	if grep -q '^tame-audit: one run only, yours' "$W/user.err"; then
		echo "n/a: the unprivileged view's later runs, and the" \
		    "changes it does not hold back: $(head -1 "$W/user.err")"
	else
		unprivileged_later_runs
		unprivileged_unlayered
	fi
	# No namespaces for the caller: the first run finds out before it
	# runs anything, says so in one line, and the audit is one run,
	# the user's, its file made once
	(cd "$W/user" && HOME=$W/user setpriv --reuid=4242 --regid=4242 \
	    --clear-groups "$REFUSE" unshare=EPERM -- \
	    "$AUDIT" --json -o "$W/user/r" -- sh -c "echo x >> $W/user/once" \
	    2> "$W/user.err") || fail "no namespaces: status $?"
	grep -q '^tame-audit: one run only, yours, traced (as with --once): ' \
	    "$W/user.err" || fail "no namespaces: $(cat "$W/user.err")"
	jq -e '.hermetic == false and .tameable' "$W/user/r" > /dev/null ||
	    fail "no namespaces: $(cat "$W/user/r")"
	[ "$(cat "$W/user/once")" = x ] ||
	    fail "no namespaces: once is $(cat "$W/user/once")"
	# root of a user namespace of its own, where the kernel lets no
	# overlay stand over "/" (mounts under it are locked): one line
	# says why, the report "false", and the command runs once
	if unshare --user --map-root-user true 2> /dev/null; then
		(cd "$W/user" && unshare --user --map-root-user "$AUDIT" \
		    --json -o "$W/n.json" -- touch "$W/made" 2> "$W/n.err") ||
		    fail "no view: status $?"
		grep -q '^tame-audit: one run only, yours' "$W/n.err" ||
		    fail "no view: $(cat "$W/n.err")"
		jq -e '.hermetic == false and .tameable' "$W/n.json" \
		    > /dev/null || fail "no view: $(cat "$W/n.json")"
		[ -f "$W/made" ] || fail "no view: the file not made"
		echo "audit-hermetic.sh: without a view: $(head -1 "$W/n.err")"
	else
		why=$(unshare --user --map-root-user true 2>&1 | head -1)
		echo "n/a: the fallback: unshare --user fails here ($why;" \
		    "a chroot, as the kernel matrix's guests, or user" \
		    "namespaces off)"
	fi
else
	echo "n/a: the unprivileged view: needs root and setpriv to test"
fi
echo "audit-hermetic.sh: pass"
