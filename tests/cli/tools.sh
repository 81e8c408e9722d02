#!/bin/sh
# SPDX-License-Identifier: ISC
# Real GNU tools under tame-exec, each with the flags its work needs, give
# the same output, exit status and files (names, types, modes, sizes,
# contents, dates, extended attributes) as the same command untamed; and
# without one of those flags they die naming it.  Exit 0 when every check
# holds; each failure prints what differed.
B=${B:-build}
X=$PWD/$B/tame-exec
T=$PWD/$B/tests/tools
top=$(mktemp -d /var/tmp/tame-tools.XXXXXX)
trap 'rm -rf "$top"' EXIT
fail=0
no() { echo "tools.sh: $*"; fail=1; }
export LC_ALL=C TZ=UTC

for tool in getfattr setfattr curl tar gzip; do
	command -v $tool >/dev/null || { no "$tool is missing (make deps)"; exit 1; }
done

# One archive for every run, so that extracted dates match.
mkdir "$top/src" && (cd "$top/src" && mkdir -p d/e && echo x > d/e/f &&
    ln -s e/f d/l && touch -d '2002-03-04 05:06:07' d/e/f &&
    tar -cf "$top/ar.tar" d) || { no "cannot build the archive"; exit 1; }

# User xattrs, where the file system keeps them (tmpfs before 6.6, and
# an overlay above it as in make check-kernels' guests, keeps none):
# otherwise the comparisons below cover every other property, and say so.
xattr=1
touch "$top/probe"
if ! err=$(setfattr -n user.probe -v 1 "$top/probe" 2>&1); then
	case $err in
	*"Operation not supported"*)
		echo "n/a: user xattrs (none on the file system of /var/tmp)"
		xattr= ;;
	*)	no "setfattr on $top: $err"; exit 1 ;;
	esac
fi

# A fresh copy of the same files in $1.
fixture() {
	mkdir -p "$1" && cd "$1" || return 1
	printf 'pear\napple\nfig\n' > a
	chmod 640 a
	[ -z "$xattr" ] || setfattr -n user.origin -v tame a || return 1
	touch -d '2001-02-03 04:05:06' a
	mkdir -p d/e && echo x > d/e/f && ln -s e/f d/l
	cp "$top/ar.tar" .
	cd - >/dev/null
}

# Everything about the tree that a tool could change.
snap() {
	(cd "$1" && find . -printf '%p %y %m %s %TF %l\n' | sort &&
	    find . -type f -exec md5sum {} + | sort -k 2 &&
	    getfattr -R -h -d -m - . 2>/dev/null)
}

# same FLAGS CMD...: run CMD untamed in u/ and tamed in t/, compare.
same() {
	flags=$1
	shift
	rm -rf "$top/u" "$top/t"
	fixture "$top/u" && fixture "$top/t" || { no "fixture"; return; }
	(cd "$top/u" && "$@" >"$top/u.out" 2>"$top/u.err"; echo $? >"$top/u.st")
	(cd "$top/t" && "$X" -f "$flags" -- "$@" >"$top/t.out" 2>"$top/t.err";
	    echo $? >"$top/t.st")
	what="'$*' under $flags"
	cmp -s "$top/u.st" "$top/t.st" ||
	    no "$what: status $(cat "$top/t.st"), untamed $(cat "$top/u.st")"
	cmp -s "$top/u.out" "$top/t.out" || no "$what: output differs"
	[ -s "$top/t.err" ] && cmp -s "$top/u.err" "$top/t.err" ||
	    [ ! -s "$top/t.err" ] || no "$what said: $(cat "$top/t.err")"
	snap "$top/u" >"$top/u.snap"
	snap "$top/t" >"$top/t.snap"
	cmp -s "$top/u.snap" "$top/t.snap" || {
		no "$what: files differ"
		diff "$top/u.snap" "$top/t.snap" | head -10
	}
}

# dies FLAGS WORD CMD...: tamed, CMD dies of SIGSYS naming WORD's flag.
dies() {
	flags=$1 word=$2
	shift 2
	rm -rf "$top/t"
	fixture "$top/t" || return
	err=$(cd "$top/t" && "$X" -f "$flags" -- "$@" 2>&1 >/dev/null)
	status=$?
	[ $status -eq 159 ] || no "'$*' under $flags: status $status, expected 159"
	case $err in *": tame: "*" needs "*"$word"*) ;;
	    *) no "'$*' under $flags said '$err', expected it to need $word" ;;
	esac
}

FS=stdio,rpath,wpath,cpath

same $FS cp a b
same $FS cp -p a b
same $FS cp -a a b			# keeps user.* (fsetxattr, checked)
same $FS cp -r d d2
same stdio,cpath mv a b
same stdio,rpath,cpath mv a d/e
same $FS install -m 755 a inst
same stdio,wpath,cpath touch new
same stdio,wpath,cpath touch -d '2020-01-01 00:00' a
same $FS,getpw tar -xf ar.tar -C d/e	# as root: owners by name
same $FS gzip a
same $FS gzip -c a
same $FS sort -o s a
same $FS sort -r -o a a
same stdio,rpath,wpath "$T/lockprog" a

# curl from a server on loopback: a socketpair turns the message checks
# on, and the window-size query of its standard input gets ENOTTY.  The
# server's port comes through a FIFO: the read ends when httpd has
# written it (or has died).
printf 'served by httpd\n' >"$top/page"
mkfifo "$top/port"
"$T/httpd" "$top/page" 2 >"$top/port" &
httpd=$!
read -r port <"$top/port"
if [ -n "$port" ]; then
	same $FS,inet,dnspath curl -s -o page "http://127.0.0.1:$port/page"
	cmp -s "$top/t/page" "$top/page" || no "curl did not fetch the page"
else
	no "httpd did not start"
fi
kill $httpd 2>/dev/null
wait $httpd 2>/dev/null

# A lock a tamed lockprog holds is seen by another tamed one.  It says
# so through a FIFO once it holds the lock, and holds it until its
# standard input (another FIFO, held open here) ends.
rm -rf "$top/t" && fixture "$top/t"
mkfifo "$top/hold" "$top/held"
"$X" -f stdio,rpath,wpath -- "$T/lockprog" -w "$top/t/a" <"$top/hold" \
    >"$top/held" &
holder=$!
exec 7>"$top/hold"
read -r line <"$top/held"
[ "$line" = "locked $top/t/a" ] || no "the tamed lock holder said '$line'"
out=$("$X" -f stdio,rpath,wpath -- "$T/lockprog" -n "$top/t/a")
status=$?
[ "$out" = busy ] && [ $status -eq 1 ] ||
    no "a held lock looked '$out' ($status) to another tamed lockprog"
exec 7>&-
wait $holder || no "the tamed lock holder failed"
out=$("$X" -f stdio,rpath,wpath -- "$T/lockprog" -n "$top/t/a")
[ "$out" = free ] || no "a released lock looked '$out'"

# Each flag above is needed: without it, death naming it.
dies stdio,rpath,cpath wpath cp a b
dies stdio,rpath,wpath cpath cp a b
dies stdio,rpath,wpath cpath mv a b
dies $FS getpw tar -xf ar.tar -C d/e
dies $FS,inet dnspath curl -s -o page "http://127.0.0.1:1/"
dies stdio,rpath wpath "$T/lockprog" a

exit $fail
