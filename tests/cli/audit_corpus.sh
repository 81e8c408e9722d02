#!/bin/sh
# tame-audit's central promise, on real commands (the corpus rows of
# shared/reference/auditor.md section 6 this machine has): its suggestion
# passed to tame-exec -f runs the command to the same output, exit status
# and files, and removing any one suggested flag beyond stdio makes it
# fail.  The corpus lives outside /tmp, or every create would look like
# TMPPATH's.  Prints one line per command; exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
AUDIT=$PWD/$B/tame-audit
TEXEC=$PWD/$B/tame-exec
base=${TAME_CORPUS_DIR:-/var/tmp}
W=$(mktemp -d "$base/tame-corpus.XXXXXX") || exit 1
trap 'rm -rf "$W"' EXIT
fail() {
	echo "audit_corpus.sh: $*" >&2
	exit 1
}
[ -x "$AUDIT" ] && [ -x "$TEXEC" ] || fail "build first"
command -v strace > /dev/null || fail "strace not installed"

# A fresh corpus for every run: commands change it.
setup() {
	rm -rf "$W/c"
	mkdir -p "$W/c/src/sub" "$W/c/out"
	printf 'one\ntwo\nthree\nfour\nfive\n' > "$W/c/in.txt"
	printf 'a file\n' > "$W/c/src/a.txt"
	printf 'another file\n' > "$W/c/src/sub/b.txt"
	seq 1 20000 | sed 's/$/ line of text to sort/' | sort -R --random-source="$W/c/in.txt" > "$W/c/big.txt"
	printf 'x\n' > "$W/c/out/a.txt"
	# one time for all, or archives differ by the second they were made
	find "$W/c" -exec touch -h -d @1000000000 {} +
}

# Run "$@" in the corpus; leave stdout, status and a listing of the
# corpus (names, sizes, contents' sums) in $1.
run() {
	tag=$1
	shift
	setup
	# (the subshell's own "Bad system call" line is not the command's)
	(cd "$W/c" && "$@" > "$W/$tag.out" 2> "$W/$tag.err" < /dev/null
	    echo $? > "$W/$tag.status") 2> /dev/null
	(cd "$W/c" && find . -type f | sort | xargs sha256sum) > "$W/$tag.files"
}

same() {
	cmp -s "$W/$1.out" "$W/$2.out" && cmp -s "$W/$1.status" "$W/$2.status" &&
	    cmp -s "$W/$1.files" "$W/$2.files"
}

n=0
check() {
	cmd=$*
	command -v "$1" > /dev/null || { echo "skip: $cmd (not installed)"; return; }
	run base "$@"
	setup
	flags=$(cd "$W/c" && "$AUDIT" --flags-only -o "$W/flags" -- "$@" \
	    > /dev/null 2> "$W/audit.err" < /dev/null; cat "$W/flags") ||
	    fail "$cmd: audit failed: $(cat "$W/audit.err")"
	[ -n "$flags" ] || fail "$cmd: no suggestion: $(cat "$W/audit.err")"
	run tamed "$TEXEC" -f "$flags" -- "$@"
	same base tamed || fail "$cmd: under -f $flags it differs:
	    status $(cat "$W/base.status") -> $(cat "$W/tamed.status"): $(cat "$W/tamed.err")"
	# every flag beyond stdio is needed
	for f in $(echo "$flags" | tr ',' ' '); do
		[ "$f" = stdio ] && continue
		less=$(echo "$flags" | tr ',' '\n' | grep -vx "$f" | paste -sd, -)
		run less "$TEXEC" -f "$less" -- "$@"
		same base less && fail "$cmd: works without $f (-f $less)"
	done
	echo "ok: $cmd -> $flags"
	n=$((n + 1))
}

check cat in.txt
check wc -l in.txt
check head -n 3 in.txt
check sha256sum in.txt
check base64 in.txt
check grep -r file src
check find src -name '*.txt'
check ls
check ls -l
check stat -c '%n %U %s' in.txt
check du -s src
check date -u -d @0
check sort in.txt -o out/sorted.txt
check sort -S 64K -T /tmp big.txt -o out/big.sorted
check cp in.txt out/copy.txt
check mv out/a.txt out/b.txt
check rm out/a.txt
check mkdir out/newdir
check tar -cf out/src.tar src
check gzip -k in.txt
[ "$n" -ge 15 ] || fail "only $n corpus commands ran"
echo "audit_corpus.sh: $n commands reproduced and minimal"
exit 0
