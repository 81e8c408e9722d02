#!/bin/sh
# SPDX-License-Identifier: ISC
# pair.sh KIND PROGRAM INPUT: one exchange between two processes of the
# same port build, for the benchmarks of the ports that need a peer.
#
#	echo	PROGRAM -l -n 1 0 serves one connection on a loopback port
#		it picks and names on stderr; PROGRAM 127.0.0.1 PORT sends
#		INPUT through it
#	fdpass	PROGRAM recv SOCKET prints the file PROGRAM send SOCKET
#		INPUT passes it by descriptor
#	stty	PROGRAM size on a new pseudo-terminal (script(1))
#
# Everything the two sides share (this shell, the fifo, script) is the
# same for the tamed and the untamed build.
kind=$1 prog=$2 input=$3
dir=$(mktemp -d "${TMPDIR:-/tmp}/pair.XXXXXX") || exit 1
peer=
# a peer left waiting (the other side failed) must not outlive us
trap '[ -n "$peer" ] && kill "$peer" 2>/dev/null; rm -rf "$dir"' EXIT
[ -r "$input" ] || [ "$kind" = stty ] || { echo "pair.sh: no $input" >&2; exit 1; }
case $kind in
echo)
	mkfifo "$dir/err" || exit 1
	"$prog" -l -n 1 0 2> "$dir/err" &
	peer=$!
	exec 3< "$dir/err"
	read -r line <&3 || exit 1	# "listening on PORT"
	"$prog" 127.0.0.1 "${line##* }" < "$input" > /dev/null || exit 1
	wait
	peer=
	;;
fdpass)
	"$prog" recv "$dir/s" > /dev/null &
	peer=$!
	n=0
	while [ ! -S "$dir/s" ]; do
		n=$((n + 1))
		[ "$n" -lt 100000 ] || exit 1
	done
	# the socket's file appears at bind(), before listen(): a connect
	# in between is refused, and only that is tried again
	n=0
	until "$prog" send "$dir/s" "$input" 2> "$dir/err"; do
		n=$((n + 1))
		if ! grep -q 'Connection refused' "$dir/err" || [ "$n" -ge 1000 ]
		then
			cat "$dir/err" >&2
			exit 1
		fi
	done
	wait
	peer=
	;;
stty)
	script -qec "$prog size" /dev/null > /dev/null
	;;
*)
	echo "pair.sh: unknown kind $kind" >&2
	exit 2
	;;
esac
