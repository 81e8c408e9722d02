#!/bin/sh
# SPDX-License-Identifier: ISC
# libtame's tables hold no pointers, so linking it adds (almost) no
# relocations to a position-independent program: the dynamic loader
# would otherwise write, and so copy, every page of them before main()
# runs, in every tamed process.  tame-cat and cat-untamed are the same
# source; the difference is libtame's.  Exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
fail() {
	echo "relocs.sh: $*" >&2
	exit 1
}
command -v readelf >/dev/null || fail "readelf not found (binutils)"
# Relative relocations outside the GOT: aarch64's linker keeps a GOT
# slot (one relocation each, all on one page) for the globals the code
# reaches through it, where x86-64's rewrites those loads away; a table
# of pointers is elsewhere (.data.rel.ro, .data).
count() {
	ranges=$(readelf -SW "$1" | awk '{ for (i = 1; i < NF; i++)
	    if ($i == ".got" || $i == ".got.plt") print $(i + 2), $(i + 4) }' |
	    while read -r addr size; do
		printf '%016x %016x ' $((0x$addr)) $((0x$addr + 0x$size))
	    done)
	# readelf's offsets are 16 hex digits: they compare as strings
	readelf -rW "$1" | awk -v ranges="$ranges" '
	    BEGIN { n = split(ranges, r, " ") }
	    /R_[A-Z0-9_]*_RELATIVE/ {
		for (i = 1; i < n; i += 2)
			if (($1 "") >= r[i] && ($1 "") < r[i + 1])
				next
		c++
	    }
	    END { print c + 0 }'
}
# Under make check SANITIZE=1, ASan's descriptors of the globals and
# UBSan's records of source locations hold thousands of pointers, all in
# .data; a const table holding pointers goes to .data.rel.ro, so there
# only that section's relocations are counted.
if [ "${SANITIZE:-}" = 1 ]; then
	count() {
		set -- "$1" $(readelf -SW "$1" | awk '{ for (i = 1; i < NF; i++)
		    if ($i == ".data.rel.ro") print $(i + 2), $(i + 4) }')
		[ $# -eq 3 ] || { echo 0; return; }
		readelf -rW "$1" | awk -v lo="$(printf %016x $((0x$2)))" \
		    -v hi="$(printf %016x $((0x$2 + 0x$3)))" '
		    /R_[A-Z0-9_]*_RELATIVE/ && ($1 "") >= lo && ($1 "") < hi {
			n++
		    }
		    END { print n + 0 }'
	}
fi
B=${B:-build}
for f in "$B"/ports/tame-cat "$B"/ports/cat-untamed "$B"/libtame.so.0; do
	[ -e "$f" ] || fail "$f not built"
done
tamed=$(count "$B"/ports/tame-cat)
bare=$(count "$B"/ports/cat-untamed)
[ $((tamed - bare)) -le 4 ] ||
	fail "linking libtame adds $((tamed - bare)) relative relocations; a pointer went into a table"
lib=$(count "$B"/libtame.so.0)
[ "$lib" -le 8 ] ||
	fail "libtame.so has $lib relative relocations; a pointer went into a table"
