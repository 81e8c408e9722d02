#!/bin/sh
# SPDX-License-Identifier: ISC
# tame-audit's central promise, on real commands (the corpus rows of
# shared/reference/auditor.md section 6 and issue 16's real-work corpus,
# as far as this machine has the programs): either its suggestion passed
# to tame-exec -f runs the command to the same output, exit status and
# files, and removing any one suggested flag beyond stdio makes it fail;
# or it says the run cannot be tamed (exit 5, no flags, the blocker kind
# expected), and indeed the run under every flag fails or differs.  A
# command that is neither fails the test.  The corpus lives outside /tmp,
# or every create would look like TMPPATH's.  Prints one line per
# command; exit 0 = pass.
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
AUDIT=$PWD/$B/tame-audit
cd "$(dirname "$0")/../.." || exit 1
B=${B:-build}
AUDIT=$PWD/$B/tame-audit
TEXEC=$PWD/$B/tame-exec
ALL=stdio,rpath,wpath,cpath,tmppath,inet,unix,dnspath,getpw,cmsg,ioctl,proc
# Debian's programs, not a user's shims: a pyenv or similar python3 is a
# bash script that execs the real one, and would be "not tameable".
PATH=/usr/bin:/bin:/usr/sbin:/sbin
export PATH
# git: no user or system configuration, and commits and tags made at one
# time, so that their objects are the same in every run.
GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null
GIT_AUTHOR_DATE=@1000000000 GIT_COMMITTER_DATE=@1000000000
export GIT_CONFIG_NOSYSTEM GIT_CONFIG_GLOBAL GIT_AUTHOR_DATE GIT_COMMITTER_DATE
GITID="-c user.name=corpus -c user.email=corpus@example.org"
base=${TAME_CORPUS_DIR:-/var/tmp}
W=$(mktemp -d "$base/tame-corpus.XXXXXX") || exit 1
srv=
trap '[ -n "$srv" ] && kill "$srv" 2> /dev/null; rm -rf "$W"' EXIT
fail() {
	echo "audit_corpus.sh: $*" >&2
	exit 1
}
[ -x "$AUDIT" ] && [ -x "$TEXEC" ] || fail "build first"
command -v strace > /dev/null || fail "strace not installed"
command -v jq > /dev/null || fail "jq not installed"
has() { command -v "$1" > /dev/null; }

# The corpus, made once: every run starts from a copy of it.
template() {
	T=$W/t
	mkdir -p "$T/src/sub" "$T/out" "$T/z"
	printf 'one\ntwo\nthree\nfour\nfive\n' > "$T/in.txt"
	printf 'five\nfour\none\nsix\n' > "$T/other.txt"
	printf 'five 5\nfour 4\none 1\n' > "$T/s1.txt"
	printf 'five V\none I\nsix VI\n' > "$T/s2.txt"
	printf 'a file\n' > "$T/src/a.txt"
	printf 'another file\n' > "$T/src/sub/b.txt"
	seq 1 20000 | sed 's/$/ line of text to sort/' | sort -R --random-source="$T/in.txt" > "$T/big.txt"
	printf 'x\n' > "$T/out/a.txt"
	printf '{"name": "tame", "flags": ["stdio", "rpath"], "n": 3}\n' > "$T/data.json"
	printf 'secret\n' > "$T/pass.txt"
	printf 'scale=3\n2*21/5\n' > "$T/calc.bc"
	printf 'int main(void) { return 0; }\n' > "$T/hello.c"
	printf 'all: out/made.txt\nout/made.txt: in.txt\n\tcp in.txt out/made.txt\n' > "$T/Makefile"
	printf 'n = 0\nwith open("in.txt") as f:\n    n = len(f.readlines())\nwith open("out/count.txt", "w") as f:\n    f.write("%%d lines\\n" %% n)\n' > "$T/count.py"
	(cd "$T" && diff -u in.txt other.txt > in.patch)
	# the compressed inputs (gzip -n: no name or time in the header)
	(cd "$T" && gzip -n -c in.txt > z/in.txt.gz && tar -cf z/src.tar src)
	has bzip2 && bzip2 -c "$T/in.txt" > "$T/z/in.txt.bz2"
	has xz && xz -c "$T/in.txt" > "$T/z/in.txt.xz"
	has zstd && zstd -q -c "$T/in.txt" > "$T/z/in.txt.zst"
	has lz4 && lz4 -q -c "$T/in.txt" > "$T/z/in.txt.lz4"
	has sqlite3 && sqlite3 "$T/db.sqlite" \
	    "create table t(a, b); insert into t values (1, 'x'), (2, 'y');"
	has zip && (cd "$T" && touch -d @1000000000 in.txt other.txt &&
	    zip -q -X z/src.zip in.txt other.txt)
	# a repository with one commit and, in the work tree, a change; its
	# index read from the tree, without the stat data of this copy (the
	# inode and ctime would differ in every copy)
	has git && (cd "$T" && git init -q repo && cp in.txt repo/ &&
	    git -C repo add in.txt && git -C repo $GITID commit -q -m first &&
	    git -C repo read-tree HEAD && echo six >> repo/in.txt) > /dev/null
	# one time for all, or archives differ by the second they were made
	find "$T" -exec touch -h -d @1000000000 {} +
}

# A fresh corpus for every run: commands change it.
setup() {
	rm -rf "$W/c"
	cp -a "$W/t" "$W/c"
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

# Hermetic runs (tame-audit(1)): the audit leaves the corpus as one run
# of the command leaves it, and the same command audited the other way
# (by default, or with --verify) gets the same answer.
HERMETIC=$(cd "$W" && "$AUDIT" --json -o /dev/stdout -- true 2> /dev/null |
    jq -r .hermetic)
[ "$HERMETIC" = true ] || echo "n/a: the checks of hermetic runs: no view here"
as_one_run() {
	[ "$HERMETIC" = true ] || return 0
	(cd "$W/c" && find . -type f | sort | xargs sha256sum) > "$W/audited.files"
	cmp -s "$W/base.files" "$W/audited.files" || fail "$1: the audit \
left the corpus otherwise than one run: $(diff "$W/base.files" \
"$W/audited.files" | head -3)"
}
# $1 the command's text, $2 the flags it got, $3 the status; the rest, it
other_way() {
	oc=$1 of=$2 ost=$3
	shift 3
	[ "$HERMETIC" = true ] || return 0
	if [ -n "$VERIFY" ]; then way=; else way=--verify; fi
	setup
	rm -f "$W/flags2"
	(cd "$W/c" && "$AUDIT" $way --flags-only -o "$W/flags2" -- "$@" \
	    > /dev/null 2> "$W/audit2.err" < /dev/null)
	st2=$?
	[ "$st2" -eq "$ost" ] && [ "$(cat "$W/flags2" 2> /dev/null)" = "$of" ] ||
	    fail "$oc: ${way:-by default}: status $st2, flags \
$(cat "$W/flags2" 2> /dev/null), not $ost, $of: $(cat "$W/audit2.err")"
}

n=0
r=0
u=0
VERIFY=
# TAME_CORPUS_QUICK=1 (make check-kernels' guests, where TCG runs these
# commands some 60 times slower than the host: the whole corpus would
# take hours): only the commands marked "quick", each checked in full as
# below: a file read (cat), a name moved (mv), files made with their
# owners looked up (tar -x), a loopback connection (wget), a blocker of
# each kind a run decides (xargs: exec), a module loaded first (perl's
# POSIX module).
QUICK=${TAME_CORPUS_QUICK:-}
marked=
quick() {
	marked=1
	"$@"
	marked=
}
# Is the command at hand one this run leaves out?
left_out() {
	[ -n "$QUICK" ] && [ -z "$marked" ]
}
# The head of check and check_loaded: the command line in $cmd, its bare
# run (base) and a fresh work tree; false where this run leaves the
# command out or it is not installed.
begin() {
	cmd=$(printf "%s\n" "$*" | paste -sd " " -)
	left_out && return 1
	has "$1" || { echo "skip: $cmd (not installed)"; return 1; }
	run base "$@"
	setup
	return 0
}
# A command tame-audit can tame: its suggestion reproduces the run, and
# every flag of it beyond stdio is needed.
check() {
	begin "$@" || return 0
	# (a run that cannot be tamed leaves -o's file as it was)
	rm -f "$W/flags"
	flags=$(cd "$W/c" && "$AUDIT" $VERIFY --flags-only -o "$W/flags" -- "$@" \
	    > /dev/null 2> "$W/audit.err" < /dev/null; cat "$W/flags" 2> /dev/null) ||
	    fail "$cmd: audit failed: $(cat "$W/audit.err")"
	[ -n "$flags" ] || fail "$cmd: no suggestion: $(cat "$W/audit.err")"
	as_one_run "$cmd"
	other_way "$cmd" "$flags" 0 "$@"
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
	r=$((r + 1))
}

# A command whose blockers (kind $1) a run decides: a module that fails
# to load, and the program goes on without it.  Where tame-audit can make
# hermetic views, a run decides by default, and it is tameable either
# way, as check's; without views, only --verify decides, and without it
# the command is not tameable.
check_verified() {
	kind=$1
	shift
	left_out && return
	has "$1" || { echo "skip: $* (not installed)"; return; }
	setup
	(cd "$W/c" && "$AUDIT" --json -o "$W/report" -- "$@" \
	    > /dev/null 2> "$W/audit.err" < /dev/null)
	st=$?
	if jq -e .hermetic "$W/report" > /dev/null; then
		[ "$st" -eq 0 ] && jq -e '.tameable and .verified' \
		    "$W/report" > /dev/null || fail "$*: by default (a run \
decides): status $st, $(jq -c .blockers "$W/report")"
	else
		[ "$st" -eq 5 ] && jq -e --arg k "$kind" '.tameable == false
		    and (.blockers | map(.kind) | index($k))' "$W/report" \
		    > /dev/null || fail "$*: without --verify: status $st, \
$(jq -c .blockers "$W/report")"
	fi
	VERIFY=--verify
	check "$@"
	VERIFY=
}

# A command that loads native code on demand (a Python or Perl module and
# its library): the suggestion loads those modules before tame()
# (tame-exec -l, JSON "load"); under it the command runs as untamed, and
# under the same flags without them it does not.
check_loaded() {
	begin "$@" || return 0
	(cd "$W/c" && "$AUDIT" --json -o "$W/report" -- "$@" \
	    > /dev/null 2> "$W/audit.err" < /dev/null) ||
	    fail "$cmd: audit exit status $?: $(cat "$W/audit.err")"
	as_one_run "$cmd"
	jq -e '.tameable and (.load | length > 0) and (.decided | index("code"))' \
	    "$W/report" > /dev/null ||
	    fail "$cmd: no modules loaded first: $(jq -c '[.tameable, .load, .blockers]' "$W/report")"
	flags=$(jq -r '.flags | join(",")' "$W/report")
	# module paths hold no white space (tame-audit lists no other)
	loads=$(jq -r '.load[] | "-l " + .' "$W/report")
	# shellcheck disable=SC2086
	run tamed "$TEXEC" -f "$flags" $loads -- "$@"
	same base tamed || fail "$cmd: under -f $flags $loads it differs:
	    status $(cat "$W/base.status") -> $(cat "$W/tamed.status"): $(cat "$W/tamed.err")"
	run bare "$TEXEC" -f "$flags" -- "$@"
	same base bare && fail "$cmd: runs the same without its modules loaded first"
	echo "ok: $cmd -> $flags $loads"
	n=$((n + 1))
	r=$((r + 1))
}

# A command tame-audit says cannot be tamed as run, for a blocker of kind
# $1 (exec, code, call, soft, verify, static): it exits 5, suggests no
# flags (--flags-only prints nothing, the JSON report has no tame-exec or
# tame() line), and indeed the run under every flag fails or differs.
check_untameable() {
	kind=$1
	shift
	left_out && return
	cmd=$(printf "%s\n" "$*" | paste -sd " " -)
	has "$1" || { echo "skip: $cmd (not installed)"; return; }
	run base "$@"
	setup
	(cd "$W/c" && "$AUDIT" --json -o "$W/report" -- "$@" \
	    > /dev/null 2> "$W/audit.err" < /dev/null)
	st=$?
	[ "$st" -eq 5 ] || fail "$cmd: audit exit status $st, not 5: $(cat "$W/audit.err")"
	as_one_run "$cmd"
	other_way "$cmd" "" 5 "$@"
	jq -e '.tameable == false and .tame_exec == null and .c == null' \
	    "$W/report" > /dev/null || fail "$cmd: the report suggests flags"
	kinds=$(jq -r '[.blockers[].kind] | unique | join(",")' "$W/report")
	echo ",$kinds," | grep -q ",$kind," ||
	    fail "$cmd: blockers $kinds, not $kind: $(jq -c .blockers "$W/report")"
	setup
	rm -f "$W/flags"
	(cd "$W/c" && "$AUDIT" --flags-only -o "$W/flags" -- "$@" \
	    > /dev/null 2> "$W/audit.err" < /dev/null)
	st=$?
	[ "$st" -eq 5 ] && [ ! -s "$W/flags" ] ||
	    fail "$cmd: --flags-only: status $st, printed $(cat "$W/flags")"
	run all "$TEXEC" -f "$ALL" -- "$@"
	same base all && fail "$cmd: says not tameable ($kinds) but runs the same under every flag"
	echo "ok: $cmd -> not tameable ($kinds)"
	n=$((n + 1))
	u=$((u + 1))
}

template

# files
quick check cat in.txt
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
quick check mv out/a.txt out/b.txt
check rm out/a.txt
check mkdir out/newdir
check tar -cf out/src.tar src
check gzip -k in.txt
check tar -tvf z/src.tar
quick check tar -xf z/src.tar -C out
check cp -r src out/src2

# compressors: compress, decompress, test, to standard output
check gzip -dc z/in.txt.gz
check gzip -t z/in.txt.gz
check gzip -d -k -c z/in.txt.gz
check bzip2 -k in.txt
check bzip2 -dc z/in.txt.bz2
check bzip2 -t z/in.txt.bz2
check xz -k in.txt
check xz -dc z/in.txt.xz
check xz -t z/in.txt.xz
check zstd -q -k in.txt
check zstd -dc z/in.txt.zst
check zstd -q -t z/in.txt.zst
check lz4 -q in.txt out/in.txt.lz4
check lz4 -dc z/in.txt.lz4
check lz4 -q -t z/in.txt.lz4

# text and file tools
check sort -u in.txt other.txt
check uniq -c in.txt
check cut -c 1-3 in.txt
check comm -12 s1.txt s2.txt
check join s1.txt s2.txt
check paste in.txt other.txt
check md5sum in.txt other.txt
check cksum in.txt
check od -c in.txt
check split -l 2 in.txt out/part.
check tac in.txt
check nl in.txt
check fold -w 2 in.txt
check cmp in.txt other.txt
check diff -u in.txt other.txt
check patch -s -o out/patched.txt in.txt in.patch
check jq -c .flags data.json
check sqlite3 db.sqlite 'select a, b from t order by a'
check sqlite3 db.sqlite "insert into t values (3, 'z')"
check openssl dgst -sha256 in.txt
# a salt given, or the output would differ in every run
check openssl enc -aes-256-cbc -pbkdf2 -S 0102030405060708 \
    -pass file:pass.txt -in in.txt -out out/in.enc
check file in.txt data.json z/in.txt.gz
check zip -q -X out/src.zip in.txt other.txt
check unzip -l z/src.zip
check unzip -q z/src.zip -d out
check dd if=in.txt of=out/dd.txt bs=4 status=none
check truncate -s 3 in.txt
check touch -d @0 out/new
check ln -s in.txt out/link
check chmod 600 in.txt
check readlink -f in.txt
check realpath src/sub
# (df . would show the free space, which other programs change)
check df --output=fstype,target .
check bc -q calc.bc
check awk '{ n += length($0) } END { print n }' in.txt
check sed -n 2p in.txt
check sed -i.bak s/one/1/ in.txt
# both start a program for each batch of names
check_untameable exec find src -name '*.txt' -exec cat {} +
quick check_untameable exec xargs -a in.txt echo

# scripting languages: file and pipe work in the interpreter itself is
# tameable; a native module is code loaded after tame()
check python3 count.py
check python3 -c 'print(sum(1 for _ in open("in.txt")))'
check python3 -c 'import os
r, w = os.pipe()
if os.fork() == 0:
    os.close(r)
    os.write(w, open("in.txt", "rb").read())
    os._exit(0)
os.close(w)
print(os.read(r, 100).decode().upper())
os.wait()'
check python3 -c 'import socket
a, b = socket.socketpair()
a.sendall(open("in.txt", "rb").read())
print(b.recv(100).decode())'
# (bz2 and sqlite3 have no pure Python fallback, as json has)
# optional native modules: Python falls back to its own code
check_verified code python3 -c 'import json; print(json.load(open("data.json"))["n"])'
check_verified code python3 -c 'import hashlib
print(hashlib.sha256(open("in.txt", "rb").read()).hexdigest())'
# native modules with no fallback: loaded before tame() (tame-exec -l)
check_loaded python3 -c 'import bz2
print(bz2.decompress(open("z/in.txt.bz2", "rb").read()).decode())'
check_loaded python3 -c 'import sqlite3
print(sqlite3.connect("db.sqlite").execute("select count(*) from t").fetchone()[0])'
# code made in memory (a ctypes callback's trampoline): no module stands
# in for it
check_untameable code python3 -c 'import ctypes
print(ctypes.CFUNCTYPE(ctypes.c_int)(lambda: 7)())'
check perl -ne 'print uc' in.txt
check perl -i.bak -pe 's/one/1/' in.txt
quick check_loaded perl -MPOSIX -e 'print floor(3.7), "\n"'
check_loaded perl -MJSON::PP -e \
    'open F, "<", "data.json"; local $/; print decode_json(<F>)->{n}, "\n"'

# version control, on the repository made by template()
check git -C repo log --oneline
# (without optional locks, or status writes the index with this copy's
# stat data)
check git -C repo --no-optional-locks status --short
check git -C repo diff
check git -C repo show HEAD:in.txt
check git -C repo cat-file -p HEAD
check git -C repo hash-object -w ../other.txt
check git -C repo $GITID tag -a -m v1 v1
check git init -q out/repo2
check_untameable exec git -C repo gc -q

# build tools
check make -n
check_untameable exec make -s
check_untameable exec cc -c hello.c -o out/hello.o

# network clients, against a server on loopback that lives at most as
# long as this test could; its first line ("Serving HTTP on 127.0.0.1
# port N ...") comes through a FIFO, read once the server listens
if has python3; then
	mkdir "$W/www" && cp "$W/t/in.txt" "$W/www/"
	mkfifo "$W/srv.out"
	timeout 600 python3 -u -m http.server -b 127.0.0.1 -d "$W/www" 0 \
	    > "$W/srv.out" 2> /dev/null &
	srv=$!
	read -r line < "$W/srv.out"
	port=$(echo "$line" | sed -n 's/.* port \([0-9]*\) .*/\1/p')
	[ -n "$port" ] || fail "the loopback server did not start: '$line'"
	url=http://127.0.0.1:$port/in.txt
	quick check wget -q -O - "$url"
	check wget -q -O out/page.txt "$url"
	check curl -s "$url"
	check curl -s -o out/page.txt "$url"
	# (the body only: the headers have the date)
	check python3 -c 'import socket, sys
s = socket.create_connection(("127.0.0.1", int(sys.argv[1])))
s.sendall(b"GET /in.txt HTTP/1.0\r\n\r\n")
r = b""
while True:
    d = s.recv(4096)
    if not d:
        break
    r += d
print(r.split(b"\r\n\r\n", 1)[1].decode())' "$port"
fi

if [ -n "$QUICK" ]; then
	[ "$n" -ge 6 ] || fail "quick: only $n corpus commands ran"
	echo "audit_corpus.sh: quick (TAME_CORPUS_QUICK): the marked commands alone"
else
	[ "$n" -ge 60 ] || fail "only $n corpus commands ran"
fi
echo "audit_corpus.sh: $n commands: $r reproduced and minimal, $u declared not tameable"
exit 0
