#!/bin/sh
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
count() {
	readelf -rW "$1" | grep -c 'R_[A-Z0-9_]*_RELATIVE' || true
}
for f in build/ports/tame-cat build/ports/cat-untamed build/libtame.so.0; do
	[ -e "$f" ] || fail "$f not built"
done
tamed=$(count build/ports/tame-cat)
bare=$(count build/ports/cat-untamed)
[ $((tamed - bare)) -le 4 ] ||
	fail "linking libtame adds $((tamed - bare)) relative relocations; a pointer went into a table"
lib=$(count build/libtame.so.0)
[ "$lib" -le 8 ] ||
	fail "libtame.so has $lib relative relocations; a pointer went into a table"
