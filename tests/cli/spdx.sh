#!/bin/sh
# SPDX-License-Identifier: ISC
# Every source file carries "SPDX-License-Identifier: ISC" on its first
# line, or its second after a #! line (doc/packaging.md, Licence): C,
# headers, C++, shell, Python, make, gnuplot, jq, the man pages, the
# linker map, the .in files, and any other file that starts with #!.
# Documentation and data carry none.  In a checkout the files are git's
# (tracked, and untracked but not ignored); in a tarball, or where git is
# not installed (the arm64 guests' root), every file outside .git and the
# build directories.
if command -v git >/dev/null 2>&1 && git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -co --exclude-standard
else
	find . \( -path ./.git -o -path ./build -o -path './build-*' \) \
	    -prune -o -type f -print |
	    sed 's|^\./||'
fi | {
	bad=
	while read -r f; do
		[ -f "$f" ] || continue
		case $f in
		*.c|*.h|*.cc|*.sh|*.py|*.mk|*.gp|*.jq|*.in|*.map) ;;
		Makefile|*/Makefile|man/*.[1-9]) ;;
		*) [ "$(head -c 2 "$f")" = '#!' ] || continue ;;
		esac
		if [ "$(head -c 2 "$f")" = '#!' ]; then
			first=$(sed -n 2p "$f")
		else
			first=$(sed -n 1p "$f")
		fi
		case $first in
		*'SPDX-License-Identifier: ISC'*) ;;
		*) bad="$bad $f" ;;
		esac
	done
	[ -z "$bad" ] && exit 0
	echo "spdx.sh: no SPDX-License-Identifier: ISC line at the top of:"
	for f in $bad; do
		echo "    $f"
	done
	exit 1
}
