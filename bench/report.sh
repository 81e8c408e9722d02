#!/bin/sh
# SPDX-License-Identifier: ISC
# report.sh: reports/latest.md and its SVG plots, from reports/raw/
# (written by bench/run.sh).  jq reduces the raw JSON to TSV tables
# (bench/report.jq), awk formats them, gnuplot draws them.
set -e
cd "$(dirname "$0")/.."
B=${B:-build}
[ -n "$BENCH_QUICK" ] && : "${BENCH_REPORTS:=$B/bench/quick}"
REPORTS=${BENCH_REPORTS:-reports}
RAW=$REPORTS/raw
W=$B/bench/report
MD=$REPORTS/latest.md
rm -rf "$W"
mkdir -p "$W"

CALLS="getpid read_1B_devzero write_1B_devnull openat_close ioctl_FIONREAD \
socket_close_udp openat_close_granted msg_unix msg_udp"
CONFIGS=""
for c in untamed allow1 allow3 tame1 tame3 libseccomp tame-norpath \
    tame-cmsg tame-nounix; do
	jq -e --arg c "$c" 'any(.[]; .config == $c)' "$RAW/micro.json" \
	    > /dev/null && CONFIGS="$CONFIGS $c"
done
CONFIGS=${CONFIGS# }

q() {
	what=$1
	shift
	jq -r --arg what "$what" --arg configs "$CONFIGS" --arg calls "$CALLS" \
	    -f bench/report.jq "$@"
}
m() {
	jq -r "$1" "$RAW/machine.json"
}

q syscalls "$RAW/micro.json" > "$W/syscalls.tsv"
q latency "$RAW/micro.json" > "$W/latency.tsv"
: > "$W/interleave.tsv"
for f in "$RAW"/interleave-*.json; do
	[ -e "$f" ] && q interleave "$f" >> "$W/interleave.tsv"
done
PORT_ROWS=""
for f in "$RAW"/hf-port-*-1.json; do
	[ -e "$f" ] || continue
	f=${f##*/hf-port-}
	PORT_ROWS="$PORT_ROWS ${f%-1.json}"
done
UPSTREAM_ROWS=""
for f in "$RAW"/hf-upstream-*-1.json; do
	[ -e "$f" ] || continue
	f=${f##*/hf-upstream-}
	case $f in floor-*) continue ;; esac
	UPSTREAM_ROWS="$UPSTREAM_ROWS ${f%-1.json}"
done
for n in cat-4k link-4k floor-4k cat-100m floor-100m tame-exec-4k exec-floor-4k \
    handover-4k audit-100m strace-100m audit-ls strace-ls audit-parse floor-ping \
    tame-exec-ls tame-exec-grep tame-exec-sort tame-exec-sha256sum \
    $(for p in $PORT_ROWS; do echo "port-$p"; done) \
    $(for p in $UPSTREAM_ROWS; do echo "upstream-$p upstream-floor-$p"; done); do
	ls "$RAW"/hf-$n-*.json >/dev/null 2>&1 || continue
	q hyperfine -s "$RAW"/hf-$n-*.json > "$W/hf-$n.tsv"
done

# --- per-call table, targets, plot data -------------------------------
# awk helpers shared by the tables: short names for calls and latencies.
AWKLIB='
function callname(c) {
	if (c == "getpid") return "getpid"
	if (c == "read_1B_devzero") return "read 1 B /dev/zero"
	if (c == "write_1B_devnull") return "write 1 B /dev/null"
	if (c == "openat_close") return "openat+close 4 KiB file"
	if (c == "ioctl_FIONREAD") return "ioctl(FIONREAD) pipe"
	if (c == "socket_close_udp") return "socket+close AF_INET UDP"
	if (c == "openat_close_granted") return "openat+close /etc/localtime"
	if (c == "msg_unix") return "sendmsg+recvmsg AF_UNIX"
	if (c == "msg_udp") return "sendmsg+recvmsg UDP"
	if (c == "tmp_create_remove") return "open O_CREAT+close+unlink beneath /tmp"
	return c
}
function cached(c) {
	return c == "getpid" || c == "read_1B_devzero" || \
	    c == "write_1B_devnull"
}
# calls some configurations trap (the SIGSYS handler checks them): their
# own section, never in the per-call targets
function trapcall(c) {
	return c == "openat_close_granted" || c == "msg_unix" || \
	    c == "msg_udp" || c == "tmp_create_remove"
}
function kindof(c) {
	return cached(c) ? "cached" : trapcall(c) ? "trap-priced" : \
	    "arg-checked"
}
# x with its sign, one decimal ("-0" and -0.04 are "-0.0", never "+-0.0")
function sgn(x,  s) {
	s = sprintf("%.1f", x)
	return (s ~ /^-/ ? "" : "+") s
}
'

syscall_table() {
	awk -F '\t' -v configs="$CONFIGS" "$AWKLIB"'
	{
		key = $1 SUBSEP $2
		med[key] = $3; d[key] = $4; r[key] = $5
		lo[key] = $6; hi[key] = $7
		if (!($1 in seen)) { seen[$1] = 1; calls[++ncalls] = $1 }
	}
	END {
		nc = split(configs, cfg, " ")
		printf "| call | kind |"
		for (i = 1; i <= nc; i++) printf " %s |", cfg[i]
		printf "\n|---|---|"
		for (i = 1; i <= nc; i++) printf "---:|"
		printf "\n"
		for (j = 1; j <= ncalls; j++) {
			c = calls[j]
			printf "| %s | %s |", callname(c), kindof(c)
			for (i = 1; i <= nc; i++) {
				k = c SUBSEP cfg[i]
				if (med[k] == "-" || med[k] == "")
					printf " - |"
				else if (cfg[i] == "untamed")
					printf " %.1f ns |", med[k]
				else
					printf " %s (%.2fx) [%s..%s] |", \
					    sgn(d[k]), r[k], sgn(lo[k]), \
					    sgn(hi[k])
			}
			printf "\n"
		}
	}' "$W/syscalls.tsv"
}

# plot data: call, then the delta of every filtered configuration; the
# trap-priced calls and configurations (microseconds, not nanoseconds)
# have their own section
awk -F '\t' -v configs="$CONFIGS" "$AWKLIB"'
!trapcall($1) {
	d[$1 SUBSEP $2] = $4
	if (!($1 in seen)) { seen[$1] = 1; calls[++ncalls] = $1 }
}
END {
	nc = split(configs, all, " ")
	for (i = 1; i <= nc; i++)
		if (all[i] !~ /^tame-/)
			cfg[++k] = all[i]
	nc = k
	printf "call"
	for (i = 2; i <= nc; i++) printf "\t%s", cfg[i]
	printf "\n"
	for (j = 1; j <= ncalls; j++) {
		s = callname(calls[j])
		sub(/ \/dev\/(zero|null)| 4 KiB file| pipe| AF_INET UDP/, "", s)
		printf "%s", s
		for (i = 2; i <= nc; i++) {
			v = d[calls[j] SUBSEP cfg[i]]
			printf "\t%s", (v == "-" || v == "") ? "NaN" : v
		}
		printf "\n"
	}
}' "$W/syscalls.tsv" > "$W/syscalls-plot.tsv"

# cell CALL CONFIG: "+d ns (r x) [lo..hi]" of one call under one
# configuration, or "-"
cell() {
	awk -F '\t' -v call="$1" -v cfg="$2" "$AWKLIB"'
	$1 == call && $2 == cfg {
		if ($4 == "-") print "-"
		else printf "%s ns (%.2fx) [%s..%s]\n", sgn($4), $5, sgn($6), sgn($7)
		found = 1
	}
	END { if (!found) print "-" }' "$W/syscalls.tsv"
}

# ilcell CALL CFG FLOOR: an interleaved paired difference, "+X ns [lo..hi]";
# ilcell CALL untamed rounds: how many rounds the call ran
ilcell() {
	awk -F '\t' -v call="$1" -v cfg="$2" -v fl="$3" "$AWKLIB"'
	$1 == call && fl == "rounds" && !found { print $9; found = 1 }
	$1 == call && $2 == cfg && $3 == fl {
		printf "%s ns [%s..%s]\n", sgn($4), sgn($5), sgn($6)
		found = 1
	}
	END { if (!found) print "-" }' "$W/interleave.tsv"
}

# worst delta of a kind of call under one configuration
worst() {
	awk -F '\t' -v cfg="$1" -v kind="$2" "$AWKLIB"'
	$2 == cfg && $4 != "-" && !trapcall($1) &&
	    (kind == "cached") == (cached($1) != 0) {
		if (n++ == 0 || $4 > w) { w = $4; wc = callname($1) }
	}
	END { if (n) printf "%.1f\t%s\n", w, wc; else print "-\t-" }' \
	    "$W/syscalls.tsv"
}

# worst (delta under one configuration - delta under allow1) of a kind:
# what libtame adds beyond the cost of having any filter at all
beyond() {
	awk -F '\t' -v cfg="$1" -v kind="$2" "$AWKLIB"'
	($2 == cfg || $2 == "allow1") && $4 != "-" && !trapcall($1) &&
	    (kind == "cached") == (cached($1) != 0) { d[$1, $2] = $4; c[$1] = 1 }
	END {
		for (k in c) {
			if (!((k, cfg) in d) || !((k, "allow1") in d))
				continue
			x = d[k, cfg] - d[k, "allow1"]
			if (n++ == 0 || x > w) { w = x; wc = callname(k) }
		}
		if (n) printf "%.1f\t%s\n", w, wc; else print "-\t-"
	}' "$W/syscalls.tsv"
}

# --- latency ----------------------------------------------------------
lat() {
	awk -F '\t' -v n="$1" -v col="$2" '$1 == n { print $col }' \
	    "$W/latency.tsv"
}
latency_table() {
	awk -F '\t' '
	function what(n) {
		if (n ~ /allow1_load/)
			return "1-instruction filter, prctl+seccomp (floor)"
		if (n ~ /tame_first/)
			return "**tame(STDIO\\|RPATH)**, first call: compile+load"
		if (n ~ /compile_cold/)
			return "tame(STDIO\\|RPATH), its compile alone, first time in the process"
		if (n ~ /load_prebuilt/)
			return "tame(STDIO\\|RPATH), its load alone (prctl+seccomp of the program compiled beforehand)"
		if (n ~ /narrow\/stdio,rpath,inet->/)
			return "later tame(): STDIO\\|RPATH\\|INET -> STDIO\\|RPATH (delta filter)"
		if (n ~ /narrow\/stdio,rpath->stdio/)
			return "later tame(): STDIO\\|RPATH -> STDIO (delta + Landlock layer)"
		if (n ~ /libseccomp_load/)
			return "**libseccomp**: tame_oracle_ctx + seccomp_load, same flags"
		if (n ~ /compile\/tame_delta/)
			return "tame_compile, delta, warm (in-process loop)"
		if (n ~ /compile\/tame\//)
			return "tame_compile " substr(n, 14) ", warm (in-process loop)"
		if (n ~ /compile\/libseccomp/)
			return "libseccomp ctx + BPF generation, warm (in-process loop)"
		return n
	}
	BEGIN {
		print "| operation | median µs | p10..p90 µs (forked) / min..max of rounds (warm) | samples | BPF insns |"
		print "|---|---:|---:|---:|---:|"
	}
	{
		printf "| %s | %.1f | %.1f..%.1f | %d | %s |\n", what($1), $2, \
		    $3, $4, $5, $6
	}' "$W/latency.tsv"
}
sed -e 's|^latency/||' -e 's|/stdio,rpath||' -e 's|stdio,rpath,inet->|+inet->|' \
    -e 's|stdio,rpath->stdio|->stdio|' "$W/latency.tsv" |
    cut -f 1-4 > "$W/latency-plot.tsv"

# --- the first tame() of a freshly exec'd program ----------------------
# fresh NAME COL: of the samples in raw/fresh-NAME.txt, 1 median, 2 p10,
# 3 p90, 4 count; "-" without data
fresh() {
	[ -s "$RAW/fresh-$1.txt" ] || { echo -; return; }
	sort -n "$RAW/fresh-$1.txt" | awk -v col="$2" '{ v[NR] = $1 }
	END {
		if (col == 4) { print NR; exit }
		p = col == 1 ? 0.5 : col == 2 ? 0.1 : 0.9
		printf "%.1f\n", v[int((NR - 1) * p) + 1]
	}'
}
fresh_table() {
	for v in "allow1:a 1-instruction filter, prctl+seccomp (floor)" \
	    "stdio-rpath:**tame(STDIO\\|RPATH)**" \
	    "stdio-rpath-inet-dnspath:tame(STDIO\\|RPATH\\|INET\\|DNSPATH): also warms the resolver, looks for AF_UNIX sockets" \
	    "delta:a second tame(), STDIO\\|RPATH\\|INET -> STDIO\\|RPATH (delta filter)"; do
		n=${v%%:*}
		printf '| %s | %s | %s..%s | %s | %s |\n' "${v#*:}" \
		    "$(fresh "$n" 1)" "$(fresh "$n" 2)" "$(fresh "$n" 3)" \
		    "$(fresh "$n" 4)" "$(awk -v a="$(fresh "$n" 1)" \
		    -v b="$(fresh allow1 1)" 'BEGIN { if (a == "-" || b == "-" ||
		    b == 0) print "-"; else printf "%.1fx\n", a / b }')"
	done
}
FT=$(fresh stdio-rpath 1)
FTLO=$(fresh stdio-rpath 2)
FTHI=$(fresh stdio-rpath 3)
FA1=$(fresh allow1 1)
FTR=$(awk -v a="$FT" -v b="$FA1" 'BEGIN {
	if (a == "-" || b == "-" || b == 0) print "-"
	else printf "%.1f\n", a / b }')
FD=$(fresh delta 1)
FDLO=$(fresh delta 2)
FDHI=$(fresh delta 3)

# --- the first call, phase by phase ---------------------------------------
# raw/phases-NAME.txt (bench/phases) reduced to W/phases-NAME.tsv; ph NAME
# PHASE COL: one number of it (2 median µs, 3 p10, 4 p90, 5 faults), or -
for n in stdio-rpath stdio-rpath-inet-dnspath; do
	if [ -s "$RAW/phases-$n.txt" ]; then
		q phases -s "$RAW/phases-$n.txt" > "$W/phases-$n.tsv"
	else
		: > "$W/phases-$n.tsv"
	fi
done
ph() {
	awk -F '\t' -v p="$2" -v col="$3" '$1 == p { print $col; f = 1 }
	    END { if (!f) print "-" }' "$W/phases-$1.tsv"
}
# fresh_faults NAME: the median page faults of the whole fresh call
fresh_faults() {
	[ -s "$RAW/fresh-$1.txt" ] || { echo -; return; }
	awk 'NF >= 2 { print $2 }' "$RAW/fresh-$1.txt" | sort -n |
	    awk '{ v[NR] = $1 } END { print NR ? v[int((NR + 1) / 2)] : "-" }'
}
# pct A B: A as a percentage of B
pct() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || a == "" || b == "-" || b == "" || b == 0)
			print "-"
		else printf "%.0f\n", 100 * a / b }'
}
phases_table() {
	a=stdio-rpath b=stdio-rpath-inet-dnspath
	for v in "check:checks, state lock, flag expansion" \
	    "acquired:what came before tame(): single-thread probe, io_uring poller (threaded only), personality" \
	    "warm:warming the name services (GETPW, DNSPATH: tame__warm)" \
	    "unix_look:looking for AF_UNIX sockets (INET, DNSPATH: single-thread check, ppoll scan)" \
	    "landlock_create:Landlock: is a layer needed (the paths', or the first call's domain layer); ABI probe" \
	    "landlock_rules:Landlock: ruleset created, path rules added" \
	    "touch:first touch of the precompiled program (or the policy table) and the workspace (page faults)" \
	    "compile:the program: a precompiled one copied and relocated (lib/precompiled.sets), else compiled (tame_compile_fast)" \
	    "handler:SIGSYS handler installed, SIGSYS unblocked" \
	    "no_new_privs:prctl(PR_SET_NO_NEW_PRIVS)" \
	    "landlock_restrict:Landlock: landlock_restrict_self" \
	    "seccomp_attach:audit marker write; seccomp(SET_MODE_FILTER, TSYNC): the kernel checks, JITs and caches the filter"; do
		p=${v%%:*}
		[ "$(ph $a "$p" 2)" = - ] && [ "$(ph $b "$p" 2)" = - ] && continue
		printf '| %s | %s | %s | %s | %s |\n' "${v#*:}" \
		    "$(ph $a "$p" 2)" "$(ph $a "$p" 5)" "$(ph $b "$p" 2)" \
		    "$(ph $b "$p" 5)"
	done
	printf '| **sum of the phases** (median of per-sample sums; p10..p90) | **%s** (%s..%s) | %s | **%s** (%s..%s) | %s |\n' \
	    "$(ph $a sum 2)" "$(ph $a sum 3)" "$(ph $a sum 4)" "$(ph $a sum 5)" \
	    "$(ph $b sum 2)" "$(ph $b sum 3)" "$(ph $b sum 4)" "$(ph $b sum 5)"
	printf '| the whole tame() timed by bench/fresh, same run (median; p10..p90) | %s (%s..%s) | %s | %s (%s..%s) | %s |\n' \
	    "$(fresh $a 1)" "$(fresh $a 2)" "$(fresh $a 3)" "$(fresh_faults $a)" \
	    "$(fresh $b 1)" "$(fresh $b 2)" "$(fresh $b 3)" "$(fresh_faults $b)"
	printf '| sum of the phases / whole call | %s%% | | %s%% | |\n' \
	    "$(pct "$(ph $a sum 2)" "$(fresh $a 1)")" \
	    "$(pct "$(ph $b sum 2)" "$(fresh $b 1)")"
}
# --- the kernel's attach by program shape (bench/attach) -----------------
if [ -s "$RAW/attach.jsonl" ]; then
	q attach -s "$RAW/attach.jsonl" > "$W/attach.tsv"
else
	: > "$W/attach.tsv"
fi
# at COL: the model line's column (2 ns per instruction, 3 ns per replay
# step, 4 the floor's µs, 5 the floor's replay steps), or -
at() {
	awk -F '\t' -v col="$1" '$1 == "model" { print $col; f = 1 }
	    END { if (!f) print "-" }' "$W/attach.tsv"
}
attach_table() {
	awk -F '\t' -v ni="$(at 2)" -v ns="$(at 3)" -v fl="$(at 4)" \
	    -v st="$(at 5)" '
	$1 != "model" {
		pred = "-"
		if (ni != "-" && ns != "-" && fl != "-" && st != "-")
			pred = sprintf("%.1f", \
			    fl + (ni * ($2 - 1) + ns * ($3 - st)) / 1000)
		printf "| %s | %d | %d | %s | %s..%s | %s | %d |\n", \
		    $1, $2, $3, $4, $5, $6, pred, $7
	}' "$W/attach.tsv"
}
[ -s "$W/attach.tsv" ] || attach_table() { echo "| (not measured) | | | | | | |"; }
FL_AT=$(at 4)
PHA=$(ph stdio-rpath seccomp_attach 2)
PHC=$(ph stdio-rpath compile 2)
PHT=$(ph stdio-rpath touch 2)
PHS=$(ph stdio-rpath sum 2)
PHW=$(ph stdio-rpath-inet-dnspath warm 2)
PHU=$(ph stdio-rpath-inet-dnspath unix_look 2)
PHS2=$(ph stdio-rpath-inet-dnspath sum 2)
PHI=$(head -n 1 "$RAW/phases-stdio-rpath.txt" 2>/dev/null | jq -r '.insns // "-"')

# --- whole commands ---------------------------------------------------
# compare NAME BASE TAMED: the median of the per-round ratios (each
# round's two commands ran back to back, so drift of the shared VM
# cancels), then the range of those, the pooled medians and their ratio,
# the ratio of the fastest runs, and the run counts.
compare() {
	awk -F '\t' -v base="$2" -v tamed="$3" '
	{ med[$1] = $2; rounds[$1] = $6; n[$1] = $5; mins[$1] = $7 }
	END {
		nb = split(rounds[base], rb, " ")
		split(rounds[tamed], rt, " ")
		for (i = 1; i <= nb; i++)
			x[i] = rt[i] / rb[i]
		for (i = 2; i <= nb; i++)	# insertion sort
			for (j = i; j > 1 && x[j - 1] > x[j]; j--) {
				t = x[j]; x[j] = x[j - 1]; x[j - 1] = t
			}
		m = nb % 2 ? x[(nb + 1) / 2] : (x[nb / 2] + x[nb / 2 + 1]) / 2
		printf "%.3f\t%.3f\t%.3f\t%.2f\t%.2f\t%d\t%d\t%.3f\t%.3f\n", \
		    med[base], med[tamed], m, x[1], x[nb], n[base], n[tamed], \
		    med[tamed] / med[base], mins[tamed] / mins[base]
	}' "$W/hf-$1.tsv"
}
C4K=$(compare cat-4k cat-untamed tame-cat)
CLINK=$(compare link-4k cat-untamed cat-linked)
CFLOOR=$(compare floor-4k cat-untamed cat-floor)
C100M=$(compare cat-100m cat-untamed tame-cat)
if ls "$RAW"/hf-floor-100m-*.json >/dev/null 2>&1; then
	CF100M=$(compare floor-100m cat-untamed cat-floor)
else
	CF100M=$(printf -- '-\t-\t-\t-\t-')
fi
CEXEC=$(compare tame-exec-4k /bin/cat tame-exec)
CEXECF=$(compare exec-floor-4k /bin/cat exec-floor)
CHAND=$(compare handover-4k shim-compiles handover)
f() {
	echo "$1" | cut -f "$2"
}
# tame-audit: against the bare command, against strace alone, and the
# rate at which it reads a kept log (its lines over the median run)
CA100=$(compare audit-100m cat-untamed tame-audit)
CS100=$(compare strace-100m strace tame-audit)
CAL=$(compare audit-ls ls tame-audit)
CSL=$(compare strace-ls strace tame-audit)
CAP=$(compare audit-parse wc tame-audit)
ratio2() {	# A / B to two places
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || a == "" || b == "-" || b == "" || b == 0)
			print "-"
		else printf "%.2f\n", a / b }'
}
# tame-exec on system tools: the worst of the four
CEX_LS=$(compare tame-exec-ls ls tame-exec)
CEX_GREP=$(compare tame-exec-grep grep tame-exec)
CEX_SORT=$(compare tame-exec-sort sort tame-exec)
CEX_SHA=$(compare tame-exec-sha256sum sha256sum tame-exec)
CEX_WORST=$(printf '%s\n' "$CEX_LS" "$CEX_GREP" "$CEX_SORT" "$CEX_SHA" |
    awk -F '\t' '$3 != "" && $3 != "-" && $3 > w { w = $3 } END {
	if (w == "") print "-"; else print w }')
# the ports: each against its untamed build; ping against its floor too
PORTS_MD=$W/ports.md
: > "$PORTS_MD"
for p in $PORT_ROWS; do
	r=$(compare "port-$p" "$p-untamed" "tame-$p")
	printf '| tame-%s `%s` | %s | %s | **%sx** | %s..%sx | %s + %s |\n' \
	    "$p" "$(awk -F '\t' -v p="$p" '$1 == p {
		print ($2 == "" ? "(no arguments)" : $2); exit }' \
	    "$RAW/port-workloads.tsv")" "$(f "$r" 1)" "$(f "$r" 2)" \
	    "$(f "$r" 3)" "$(f "$r" 4)" "$(f "$r" 5)" "$(f "$r" 6)" \
	    "$(f "$r" 7)" >> "$PORTS_MD"
done
[ -s "$PORTS_MD" ] || echo "| (no port measured) | | | | | |" > "$PORTS_MD"
if ls "$RAW"/hf-port-ping-*.json >/dev/null 2>&1 &&
    ls "$RAW"/hf-floor-ping-*.json >/dev/null 2>&1; then
	CPING=$(compare port-ping ping-untamed tame-ping)
	CPINGF=$(compare floor-ping ping-untamed ping-floor)
else
	CPING=$(printf -- '-\t-\t-\t-\t-')
	CPINGF=$CPING
fi
S100=$(ratio2 "$(f "$CS100" 1)" "$(f "$CA100" 1)")
SLS=$(ratio2 "$(f "$CSL" 1)" "$(f "$CAL" 1)")
LPS=$(awk -v l="$(m .audit_log_lines)" -v ms="$(f "$CAP" 2)" 'BEGIN {
	if (ms == "" || ms == "-" || ms == 0) print "-"
	else printf "%.0f\n", l / (ms / 1000) }')
{
	printf 'comparison\tmeasured\ttarget\n'
	printf 'tame-cat 4 KiB\t%s\t1.10\n' "$(f "$C4K" 3)"
	printf 'tame-cat 100 MB\t%s\t1.05\n' "$(f "$C100M" 3)"
	printf 'tame-exec /bin/cat 4 KiB\t%s\t1.30\n' "$(f "$CEXEC" 3)"
} > "$W/cat-plot.tsv"
for n in cat-4k tame-exec-4k; do
	q hfcdf -s "$RAW"/hf-$n-*.json |
	    awk -F '\t' -v w="$W" -v n="$n" '{
		f = $1; gsub(/[^A-Za-z0-9-]/, "_", f)
		print $2 > (w "/cdf-" n "-" f ".tsv")
	    }'
done

# --- plots ------------------------------------------------------------
gnuplot -e "data='$W/syscalls-plot.tsv'; out='$REPORTS/syscalls.svg'" \
    bench/syscalls.gp
gnuplot -e "data='$W/latency-plot.tsv'; out='$REPORTS/latency.svg'" \
    bench/latency.gp
gnuplot -e "data='$W/cat-plot.tsv'; out='$REPORTS/cat.svg'" bench/cat.gp
gnuplot -e "a='$W/cdf-cat-4k-cat-untamed.tsv'; b='$W/cdf-cat-4k-tame-cat.tsv';
    la='cat-untamed'; lb='tame-cat'; t='cat of a 4 KiB file, every run';
    out='$REPORTS/cat-4k-cdf.svg'" bench/cdf.gp
gnuplot -e "a='$W/cdf-tame-exec-4k-_bin_cat.tsv';
    b='$W/cdf-tame-exec-4k-tame-exec.tsv'; la='/bin/cat';
    lb='tame-exec -f stdio,rpath -- /bin/cat'; t='/bin/cat of a 4 KiB file';
    out='$REPORTS/tame-exec-cdf.svg'" bench/cdf.gp

# --- targets ----------------------------------------------------------
# sgn N: N with its sign and one decimal
sgn() {
	awk -v x="$1" 'BEGIN {
		if (x == "-" || x == "") print "-"
		else {
			s = sprintf("%.1f", x)
			print (s ~ /^-/ ? "" : "+") s
		}
	}'
}
verdict() {
	# verdict VALUE OP LIMIT: "met" or "**not met**"
	awk -v v="$1" -v op="$2" -v l="$3" 'BEGIN {
		if (v == "-" || v == "") { print "not measured"; exit }
		if (op == "<=")
			ok = (v + 0 <= l + 0)
		else
			ok = (v + 0 >= l + 0)
		print ok ? "met" : "**not met**"
	}'
}
# diff A B: A - B to three places, or "-" when either is missing
diff3() {
	awk -v a="$1" -v b="$2" 'BEGIN {
		if (a == "-" || a == "" || b == "-" || b == "") print "-"
		else printf "%+.3f\n", a - b }'
}
# the upstream programs: tamed and floor, each against the untamed build
UPSTREAM_MD=$W/upstream.md
: > "$UPSTREAM_MD"
for p in $UPSTREAM_ROWS; do
	r=$(compare "upstream-$p" "$p-untamed" "$p-tamed")
	fl=$(compare "upstream-floor-$p" "$p-untamed" "$p-floor")
	d=$(diff3 "$(f "$r" 3)" "$(f "$fl" 3)")
	printf '| %s `%s` | %s | %s | **%sx** | %sx | %s | %s |\n' \
	    "$p" "$(awk -F '\t' -v p="$p" '$1 == p { print $2; exit }' \
	    "$RAW/upstream-workloads.tsv")" "$(f "$r" 1)" "$(f "$r" 2)" \
	    "$(f "$r" 3)" "$(f "$fl" 3)" "$d" \
	    "$(verdict "$d" "<=" 0.02)" >> "$UPSTREAM_MD"
done
[ -s "$UPSTREAM_MD" ] ||
    echo "| (none built: make check-upstream) | | | | | | |" > "$UPSTREAM_MD"
# noisy LIMIT MEDIAN LO HI: a verdict that knows the spread: "met" when
# even the worst round is within LIMIT, "not met" when even the best is
# over it, "undecided" when the rounds straddle it
noisy() {
	awk -v l="$1" -v m="$2" -v lo="$3" -v hi="$4" 'BEGIN {
		if (m == "-" || m == "") { print "not measured"; exit }
		if (hi + 0 <= l + 0) print "met"
		else if (lo + 0 > l + 0) print "**not met**"
		else printf "undecided (median %s)\n", \
		    (m + 0 <= l + 0 ? "within" : "over")
	}'
}
# il_worst CFG FLOOR KIND LIMIT: of the interleaved rows, the call of
# KIND whose median paired difference is worst, and the verdict on all
# calls of the kind together (each call's 95% interval against LIMIT:
# any wholly over it, not met; all wholly within, met; else undecided):
# "median lo hi p10 p90 rounds call verdict"
il_worst() {
	awk -F '\t' -v cfg="$1" -v fl="$2" -v kind="$3" -v l="$4" "$AWKLIB"'
	$2 == cfg && $3 == fl && !trapcall($1) &&
	    (kind == "cached") == (cached($1) != 0) {
		if (n++ == 0 || $4 > w) {
			w = $4; lo = $5; hi = $6; p10 = $7; p90 = $8; r = $9
			wc = callname($1)
		}
		if ($5 + 0 > l + 0) over = 1
		else if ($6 + 0 > l + 0) straddle = 1
	}
	END {
		if (!n) { print "-\t-\t-\t-\t-\t-\t-\tnot measured"; exit }
		v = over ? "**not met**" : straddle ? "undecided (median " \
		    (w + 0 <= l + 0 ? "within" : "over") ")" : "met"
		printf "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", w, lo, hi, p10, \
		    p90, r, wc, v
	}' "$W/interleave.tsv"
}
I1C=$(il_worst tame1 allow1 cached 3)
I3C=$(il_worst tame3 allow1 cached 3)
I1A=$(il_worst tame1 allow1 arg 15)
I3A=$(il_worst tame3 allow3 arg 15)
# the same split at the kernel's floor for an argument check (args1,
# args3): what the kernel alone costs for one, and libtame beyond it
K1A=$(il_worst args1 allow1 arg 15)
K3A=$(il_worst args3 allow3 arg 15)
L1A=$(il_worst tame1 args1 arg 15)
L3A=$(il_worst tame3 args3 arg 15)
# irow WORST: the measured cell of a per-call target row
irow() {
	echo "$1" | awk -F '\t' "$AWKLIB"'{
		if ($1 == "-") { print "-"; exit }
		printf "worst %s: %s ns (95%% interval of the median %s..%s; one round %s..%s; %d rounds)\n", \
		    $7, sgn($1), sgn($2), sgn($3), sgn($4), sgn($5), $6 }'
}
# the interleaved per-call table: call, then the paired differences
interleave_table() {
	awk -F '\t' "$AWKLIB"'
	function c(k) {
		if (!(k in med)) return " - |"
		return sprintf(" %s [%s..%s] (%s..%s) |", sgn(med[k]), \
		    sgn(lo[k]), sgn(hi[k]), sgn(p10[k]), sgn(p90[k]))
	}
	{
		k = $1 SUBSEP $2 SUBSEP $3
		med[k] = $4; lo[k] = $5; hi[k] = $6; p10[k] = $7; p90[k] = $8
		if ($3 == "untamed") base[$1] = $11
		if (!($1 in seen) && !trapcall($1)) {
			seen[$1] = 1; calls[++n] = $1; r[$1] = $9
		}
	}
	END {
		print "| call | kind | rounds | untamed ns | allow1 - untamed | tame1 - allow1 | tame3 - allow1 | tame3 - allow3 | args1 - allow1 | tame1 - args1 | args3 - allow3 | tame3 - args3 |"
		print "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"
		for (j = 1; j <= n; j++) {
			x = calls[j]
			printf "| %s | %s | %d | %.1f |", callname(x), kindof(x), \
			    r[x], base[x]
			printf "%s%s%s%s", c(x SUBSEP "allow1" SUBSEP "untamed"), \
			    c(x SUBSEP "tame1" SUBSEP "allow1"), \
			    c(x SUBSEP "tame3" SUBSEP "allow1"), \
			    c(x SUBSEP "tame3" SUBSEP "allow3")
			printf "%s%s%s%s\n", c(x SUBSEP "args1" SUBSEP "allow1"), \
			    c(x SUBSEP "tame1" SUBSEP "args1"), \
			    c(x SUBSEP "args3" SUBSEP "allow3"), \
			    c(x SUBSEP "tame3" SUBSEP "args3")
		}
	}' "$W/interleave.tsv"
}
W1C=$(worst tame1 cached)
W3C=$(worst tame3 cached)
W1A=$(worst tame1 arg)
W3A=$(worst tame3 arg)
WAC=$(worst allow1 cached)
WAA=$(worst allow1 arg)
B1C=$(beyond tame1 cached)
B3C=$(beyond tame3 cached)
B1A=$(beyond tame1 arg)
B3A=$(beyond tame3 arg)
TF=$(lat latency/tame_first/stdio,rpath 2)
TFLO=$(lat latency/tame_first/stdio,rpath 3)
TFHI=$(lat latency/tame_first/stdio,rpath 4)
TD=$(lat "latency/tame_narrow/stdio,rpath,inet->stdio,rpath" 2)
TDLO=$(lat "latency/tame_narrow/stdio,rpath,inet->stdio,rpath" 3)
TDHI=$(lat "latency/tame_narrow/stdio,rpath,inet->stdio,rpath" 4)
LS=$(lat latency/libseccomp_load/stdio,rpath 2)
A1=$(lat latency/allow1_load 2)
LSR=$(awk -v a="$LS" -v b="$TF" 'BEGIN {
	if (a == "" || b == "") print "-"; else printf "%.1f", a / b }')
TFR=$(awk -v a="$TF" -v b="$A1" 'BEGIN {
	if (a == "" || b == "") print "-"; else printf "%.1f", a / b }')
BUILD=$(jq -r '.[0].context.library_build_type' "$RAW/micro.json")
OPT=$(jq -r '[.[].results[] | select(.name | startswith("compile/libseccomp"))
    | .optimize] | first // "-"' "$RAW/micro.json")

# --- the report -------------------------------------------------------
{
cat <<EOT
# libtame benchmark report

Generated by \`make bench\` ($(m .date)). Raw data: \`reports/raw/\`
(\`micro.json\`: every micro-benchmark process; \`hf-*.json\`: hyperfine
exports; \`machine.json\`). Every ratio and delta compares runs of the same
\`make bench\` invocation; absolute numbers are for this machine only.

## Machine

| | |
|---|---|
| CPU | $(m .cpu), $(m .nproc) CPUs (nproc) |
| memory | $(m '.mem_kib / 1024 / 1024 * 10 | round / 10') GiB |
| kernel | $(m .kernel) (BPF JIT: $(m .bpf_jit_enable), Landlock ABI $(m .landlock_abi)) |
| gcc | $(m .gcc) |
| google-benchmark | $(m .benchmark) (Debian's build, reports itself as a **$BUILD** build: fine for ratios within one run) |
| libseccomp | $(m .libseccomp) |
| hyperfine | $(m .hyperfine) |
| pinning | micro-benchmarks: \`sched_setaffinity\` to CPU $(m .cpu_pinned); hyperfine and its commands: \`taskset -c $(m .cpu_pinned)\` |
| load average | $(m .loadavg_start) at start, $(m .loadavg_end) at end (the VM is shared with other work) |

## Targets (DESIGN.md)

The targets are libtame's cost beyond this host's floor, a one-instruction
RET ALLOW filter measured in the same run (allow1; allow3 is three of them
stacked, the floor of three tame() calls). A per-call row comes from
the interleaved runs (next-but-one section): one process per
configuration, quarter-millisecond batches taking turns in shuffled
order, $(m .il_rounds) rounds; each round's tamed batch minus the floor's
batch of the same round, so that the host's drift cancels. Its value is
the median of those paired differences with a 95% interval of that
median (order statistics), for the worst call of the kind; the verdict
takes every call of the kind: "met" when every interval lies within the
target, "not met" when one lies wholly over it, "undecided" otherwise.
The other rows' verdicts know the spread of their rounds: "met" when even
the worst round is within the target, "not met" when even the best round
is over it, "undecided" when the rounds straddle it.

| target | measured | |
|---|---|---|
| cached syscall (getpid, read, write) <= +3 ns beyond allow1, one tame() | $(irow "$I1C") | $(f "$I1C" 8) |
| cached syscall <= +3 ns beyond allow1, three tame() | $(irow "$I3C") | $(f "$I3C" 8) |
| argument-checked (openat, ioctl, socket) <= +15 ns beyond allow1, one tame() | $(irow "$I1A") | $(f "$I1A" 8) |
| argument-checked <= +15 ns beyond allow3, three tame() | $(irow "$I3A") | $(f "$I3A" 8) |
| ... of which the kernel's own, at one tame(): the least filter that checks an argument (args1) beyond allow1 | $(irow "$K1A") | the kernel's |
| ... and libtame's: tame1 beyond args1 (target +15 ns) | $(irow "$L1A") | $(f "$L1A" 8) |
| ... of which the kernel's own, at three: three such filters in tame3's Landlock domain (args3) beyond allow3 | $(irow "$K3A") | the kernel's |
| ... and libtame's: tame3 beyond args3 (target +15 ns) | $(irow "$L3A") | $(f "$L3A" 8) |
| first tame(STDIO\|RPATH) in a freshly exec'd program <= 90 µs | median ${FT} µs (p10..p90 ${FTLO}..${FTHI}) | $(noisy 90 "$FT" "$FTLO" "$FTHI") |
| ... and <= 4x a 1-insn filter in the same kind of process | ${FTR}x (${FT} / ${FA1} µs) | $(verdict "$FTR" "<=" 4) |
| later tame(), delta without a new Landlock layer, <= 25 µs | median ${FD} µs in a fresh program (p10..p90 ${FDLO}..${FDHI}) | $(noisy 25 "$FD" "$FDLO" "$FDHI") |
| well under libseccomp's compile+load (taken as >= 5x) | libseccomp ${LS:--} µs = ${LSR}x tame()'s | $(verdict "$LSR" ">=" 5) |
| tamed cat, 4 KiB file, <= its floor's ratio + 0.08 | $(f "$C4K" 3)x (rounds $(f "$C4K" 4)..$(f "$C4K" 5)x); floor $(f "$CFLOOR" 3)x (rounds $(f "$CFLOOR" 4)..$(f "$CFLOOR" 5)x): $(diff3 "$(f "$C4K" 3)" "$(f "$CFLOOR" 3)") | $(verdict "$(diff3 "$(f "$C4K" 3)" "$(f "$CFLOOR" 3)")" "<=" 0.08) (medians) |
| tamed cat, 100 MB in $(($(m .cat_read_size) / 1024)) KiB reads, <= its floor's ratio + 0.01 | $(f "$C100M" 3)x (rounds $(f "$C100M" 4)..$(f "$C100M" 5)x); floor $(f "$CF100M" 3)x (rounds $(f "$CF100M" 4)..$(f "$CF100M" 5)x): $(diff3 "$(f "$C100M" 3)" "$(f "$CF100M" 3)") | $(verdict "$(diff3 "$(f "$C100M" 3)" "$(f "$CF100M" 3)")" "<=" 0.01) (medians) |
| tamed ping -c 5000 -i 0 on loopback, <= its floor's ratio + 0.01 | $(f "$CPING" 3)x (rounds $(f "$CPING" 4)..$(f "$CPING" 5)x); floor $(f "$CPINGF" 3)x (rounds $(f "$CPINGF" 4)..$(f "$CPINGF" 5)x): $(diff3 "$(f "$CPING" 3)" "$(f "$CPINGF" 3)") | $(verdict "$(diff3 "$(f "$CPING" 3)" "$(f "$CPINGF" 3)")" "<=" 0.01) (medians) |
| \`tame-exec -f stdio,rpath -- /bin/cat\` 4 KiB <= 1.30x bare | $(f "$CEXEC" 3)x (rounds $(f "$CEXEC" 4)..$(f "$CEXEC" 5)x) | $(verdict "$(f "$CEXEC" 3)" "<=" 1.30) (median) |
| ... and <= tame-exec's floor's ratio + 0.10 (launcher and shim, a 1-instruction filter) | $(f "$CEXEC" 3)x; floor $(f "$CEXECF" 3)x (rounds $(f "$CEXECF" 4)..$(f "$CEXECF" 5)x): $(diff3 "$(f "$CEXEC" 3)" "$(f "$CEXECF" 3)") | $(verdict "$(diff3 "$(f "$CEXEC" 3)" "$(f "$CEXECF" 3)")" "<=" 0.10) (medians) |
| tame-exec on ls -l, grep, sort, sha256sum <= 1.30x bare each | ls -l $(f "$CEX_LS" 3)x, grep $(f "$CEX_GREP" 3)x, sort $(f "$CEX_SORT" 3)x, sha256sum $(f "$CEX_SHA" 3)x (medians of rounds; worst ${CEX_WORST}x) | $(verdict "$CEX_WORST" "<=" 1.30) (worst) |
| \`tame-audit\` on a syscall-heavy command (cat-untamed, 100 MB in 4 KiB reads) <= 25x bare | $(f "$CA100" 3)x (rounds $(f "$CA100" 4)..$(f "$CA100" 5)x); strace alone is ${S100}x bare | $(noisy 25 "$(f "$CA100" 3)" "$(f "$CA100" 4)" "$(f "$CA100" 5)") |
| ... and <= 1.2x strace alone | $(f "$CS100" 3)x (rounds $(f "$CS100" 4)..$(f "$CS100" 5)x) | $(noisy 1.2 "$(f "$CS100" 3)" "$(f "$CS100" 4)" "$(f "$CS100" 5)") |
| \`tame-audit\` on a typical command (ls -l /usr/bin) <= 1.2x strace alone | $(f "$CSL" 3)x (rounds $(f "$CSL" 4)..$(f "$CSL" 5)x); $(f "$CAL" 3)x bare, strace alone ${SLS}x | $(noisy 1.2 "$(f "$CSL" 3)" "$(f "$CSL" 4)" "$(f "$CSL" 5)") |
| tame-audit log reading >= 10^6 lines/s | ${LPS} lines/s ($(m .audit_log_lines) lines, $(($(m .audit_log_bytes) / 1048576)) MiB of \`ls -lR\`, in $(f "$CAP" 2) ms, median) | $(verdict "$LPS" ">=" 1000000) |

The per-call targets were set on an Intel host whose 1-instruction filter
costs +14..20 ns (performance.md). What the physical limit is on this
host, and what libtame adds beyond it (its delta minus allow1's, worst
call of the kind), so that the two can be told apart, from the
per-configuration processes of "Cost per system call" (the interleaved
table below has the same split, far tighter):

| | allow1 (any filter at all) | libtame beyond allow1, depth 1 | beyond allow1, depth 3 |
|---|---:|---:|---:|
| cached calls | $(sgn "$(f "$WAC" 1)") ns ($(f "$WAC" 2)) | $(sgn "$(f "$B1C" 1)") ns ($(f "$B1C" 2)) | $(sgn "$(f "$B3C" 1)") ns ($(f "$B3C" 2)) |
| argument-checked calls | $(sgn "$(f "$WAA" 1)") ns ($(f "$WAA" 2)) | $(sgn "$(f "$B1A" 1)") ns ($(f "$B1A" 2)) | $(sgn "$(f "$B3A" 1)") ns ($(f "$B3A" 2)) |

These deltas are medians of processes run seconds apart; the per-round
ranges in "Cost per system call" show how far one process's result can
stray on this VM.

## Per call, interleaved

Each configuration (untamed, allow1, allow3, tame1, tame3 as below, and
for the argument-checked calls args1 and args3: the least filter that
reads an argument of openat, ioctl and socket, which the kernel's cache
therefore cannot answer, one or three of them, in the Landlock domain
tame1's or tame3's first call enters) runs in a process of its own, forked by \`micro --interleave\`
(bench/interleave.c) and pinned to the same CPU; the processes take
turns running one batch of a call (about 0.25 ms of it), in an order
shuffled anew for every call and round. Cell: the median over rounds of
(configuration's ns per call - floor's ns per call in the same round),
CPU time, then [a 95% interval of that median] and (the 10th..90th
percentile of one round's difference: the spread a single pair of
batches shows). The argument-checked calls ran $(m .il_rounds) rounds, the
cached ones a sixth of that.

EOT
interleave_table
cat <<EOT

## Cost per system call

Each configuration runs in its own process (filters cannot be removed),
installed on the first benchmark call; the processes run $(m .rounds) rounds,
the order of configurations rotating per round; each process reports
$(m .reps) repetitions of at least $(m .min_time) s per call, the calls'
repetitions in random order (google-benchmark's random interleaving).
These rounds are seconds apart, so their spread is far wider than the
interleaved one above; they price the configurations the interleaved
runs leave out. Cell: median
over rounds of each process's median, as ns over untamed (ratio)
[smallest..largest per-round delta against the untamed process of the
same round]. Times are CPU time per call (google-benchmark's cpu_time,
which here is mostly system time): unlike real time it leaves out the
moments another tenant of the VM holds the CPU, which only ever add
noise. Real-time medians are in the raw data.

Configurations: **allow1** a 1-instruction RET ALLOW filter (the physical
limit); **tame1** \`tame(STDIO|RPATH|INET|IOCTL)\`; **tame3** three narrowing
calls \`tame(STDIO|RPATH|INET|IOCTL|WPATH|CPATH|UNIX|PROC)\`,
\`tame(...|WPATH|UNIX)\`, \`tame(STDIO|RPATH|INET|IOCTL)\`, each keeping the
benchmarked calls; **libseccomp** the same policy built by libseccomp
(\`tame_oracle_ctx\`, TSYNC, \`seccomp_load\`); **tame-norpath**, **tame-cmsg**
and **tame-nounix** price the traps (next section). "cached" calls are allowed
unconditionally and served by the kernel's constant-action bitmap;
"arg-checked" ones run every filter's BPF. openat+close and socket+close
add one cached close to the checked call.

EOT
syscall_table
cat <<EOT

![per-call overhead](syscalls.svg)

## What the traps cost

Where the filter cannot see enough it traps, and libtame's \`SIGSYS\`
handler checks the call and makes it: a signal per call. Deltas against
the untamed process of the same round, as in the table above.

| call | trapped | not trapped |
|---|---|---|
| open of a granted file (the time zone) without rpath: the handler checks the path, makes the open | tame-norpath: $(cell openat_close_granted tame-norpath) | with rpath (tame1): $(cell openat_close_granted tame1) |
| sendmsg + recvmsg on AF_UNIX without cmsg: two traps, \`SCM_RIGHTS\` checked and scrubbed | tame1: $(cell msg_unix tame1) | with cmsg: $(cell msg_unix tame-cmsg) |
| sendmsg + recvmsg on UDP, process holding an AF_UNIX socket | tame1: $(cell msg_udp tame1) | the same process holding none (NOUNIX): $(cell msg_udp tame-nounix); any filter (allow1): $(cell msg_udp allow1) |
| a file made and removed beneath /tmp under tmppath (open O_CREAT, close, unlink: mkstemp's calls), interleaved, $(ilcell tmp_create_remove untamed rounds) rounds | with Landlock (tame-tmp: the open and the unlink trap, the handler checks their paths and makes them, the layer confines them too): $(ilcell tmp_create_remove tame-tmp untamed); without Landlock (tame-tmp-openat2: the handler makes them with openat2 beneath a /tmp descriptor, which alone confines them): $(ilcell tmp_create_remove tame-tmp-openat2 untamed), $(ilcell tmp_create_remove tame-tmp-openat2 tame-tmp) beyond the Landlock way | - |

A process that holds no AF_UNIX socket (an INET-only server) pays no trap
for its messages: compare the NOUNIX cell with allow1's.

## The first tame(), as programs pay it

Each sample is \`bench/fresh\`, a dynamically linked PIE with libtame.a
as a port is, exec'd anew, timing one call inside itself: nothing of
libtame is paged in, compiled or warmed before it. The four variants
take turns. The forked rows of the next section are the warm case.

| operation | median µs | p10..p90 µs | samples | x floor |
|---|---:|---:|---:|---:|
$(fresh_table)

### Where the first call goes

\`bench/phases\`, exec'd fresh like \`bench/fresh\` and taking turns with
it, makes the steps of a first \`tame()\` (lib/tame.c, \`tame_locked\`)
one by one through libtame's own internal functions, reading the clock
and \`getrusage(RUSAGE_SELF).ru_minflt\` between them (the reading itself
is left out). Median µs and median minor page faults per phase; the last
rows check the sum against the whole call timed in the same run.

| phase | STDIO\|RPATH µs | faults | STDIO\|RPATH\|INET\|DNSPATH µs | faults |
|---|---:|---:|---:|---:|
$(phases_table)

Reading it: attaching the filter is the largest part of a first
STDIO|RPATH call (${PHA} µs of ${PHS}, $(pct "$PHA" "$PHS")%; the
one-instruction filter's whole load is ${FA1} µs in the same kind of
process): the kernel validates the ${PHI}-instruction program, JITs it and
replays it for every system call number to fill its constant-action
cache (TSYNC has only this one thread to synchronise). Both sets are
among those the build compiles ahead (lib/precompiled.sets), so the
program costs ${PHC} µs: a copy and the rewrite of its gate and pid
(lib/prebuilt.c), against $(lat compile/tame/stdio,rpath 2) µs for compiling
it warm in a loop (next section), and about 40 µs cold before the
programs were precompiled; the first touch of the program and workspace
${PHT} µs. Under
INET|DNSPATH the name-service warm-up (${PHW} µs: glibc reading
nsswitch.conf and resolving localhost) and the AF_UNIX look (${PHU} µs)
come on top, for ${PHS2} µs in all; the warm-up is glibc's own first
lookup (its configuration files and NSS modules), which a program that
resolves names pays anyway, only earlier. What would move the rest:
a shorter program (the kernel converts and JITs every instruction) and
fewer and shorter paths for its per-number replay (attach time follows
the summed path lengths, performance.md 1.4).

### What the kernel's attach costs, by program shape

\`bench/attach\` times the \`seccomp(SET_MODE_FILTER, TSYNC)\` call alone in
forked children, the shapes taking turns: synthetic programs that every
walk of the cache replay jumps over at once (skip-N: the cost of length,
the kernel validating, converting and JITting each instruction) or walks
whole for every native number (walk-N: the cost of the replay), and
tame()'s own first filters. Replay steps are the instructions the
kernel's constant-action check visits over every number of both
architectures (tests/replay.c, the walk t_cache checks).

| program | instructions | replay steps | median µs | p10..p90 µs | model µs | samples |
|---|---:|---:|---:|---:|---:|---:|
$(attach_table)

The model: ${FL_AT} µs for any filter at all (allow1), $(at 2) ns
per instruction and $(at 3) ns per replay step beyond allow1's. What it
leaves to a real program beyond the synthetic ones (measured minus
model) is the conversion and JIT of its loads and many-target compares,
which cost more than a skipped compare. So the kernel's share of tame()'s
attach is allow1's ${FL_AT} µs, and the rest follows the program: a
shorter program and shorter walks are what the compiler can still give.

## tame() latency

Forked samples: each a fresh child of the (untamed) benchmark process;
the child reads the monotonic clock immediately before and after the call
and reports the difference through a pipe (google-benchmark manual time,
one sample per repetition), pooled over all rounds. "Warm" rows loop in
the benchmark process itself, with libtame's tables already in memory.

EOT
latency_table
cat <<EOT

![tame() latency](latency.svg)

## The ports

Each port (\`ports/NAME/NAME.c\`) tamed against its untamed build, the same
source with -DNO_TAME, in rounds whose order alternates (hyperfine -N; a
command reading its standard input runs through \`sh -c\` on both sides,
and the ports that need a peer or a terminal run through
\`bench/pair.sh\`, whose shell, fifo and \`script\` both sides share).

| port and workload | untamed median ms | tamed median ms | ratio (median of rounds) | per-round ratios | runs |
|---|---:|---:|---:|---:|---:|
$(cat "$PORTS_MD")

## The upstream programs

Each program of \`ports/upstream/\` built from its Debian source three
ways: untamed, tamed by our patch, and its floor (the same patched
build with tame() a one-instruction filter); tamed and floor each
against the untamed build on the recipe's work (hyperfine -N, one round
of 5 runs). Target: tamed <= the floor's ratio + 0.02.

| program and work | untamed median ms | tamed median ms | tamed ratio | floor ratio | beyond the floor | target |
|---|---:|---:|---:|---:|---:|---|
$(cat "$UPSTREAM_MD")

## Whole commands (hyperfine)

\`hyperfine -N --warmup 3\`, $(m .hf_rounds) rounds per comparison with the
command order alternating (fewer for tame-exec on ls, sort and sha256sum
and for tame-audit: the runs column counts them), all runs pooled. tame-cat and cat-untamed are
the same source (\`ports/cat/cat.c\`, -DNO_TAME for the latter), both linked
with libtame.a. tame-cat reads and writes in blocks of its standard
output's \`st_blksize\`; under hyperfine that is /dev/null, which says
$(m .cat_block) bytes, and strace confirms reads of $(m .cat_read_size)
bytes.

| comparison | untamed median ms | tamed median ms | ratio (median of rounds) | per-round ratios | pooled medians' ratio | fastest runs' ratio | runs |
|---|---:|---:|---:|---:|---:|---:|---:|
| cat 4 KiB file: cat-untamed vs tame-cat | $(f "$C4K" 1) | $(f "$C4K" 2) | **$(f "$C4K" 3)x** | $(f "$C4K" 4)..$(f "$C4K" 5)x | $(f "$C4K" 8)x | $(f "$C4K" 9)x | $(f "$C4K" 6) + $(f "$C4K" 7) |
| (attribution) cat 4 KiB file: cat-untamed vs cat-linked | $(f "$CLINK" 1) | $(f "$CLINK" 2) | $(f "$CLINK" 3)x | $(f "$CLINK" 4)..$(f "$CLINK" 5)x | $(f "$CLINK" 8)x | $(f "$CLINK" 9)x | $(f "$CLINK" 6) + $(f "$CLINK" 7) |
| (floor) cat 4 KiB file: cat-untamed vs cat-floor | $(f "$CFLOOR" 1) | $(f "$CFLOOR" 2) | $(f "$CFLOOR" 3)x | $(f "$CFLOOR" 4)..$(f "$CFLOOR" 5)x | $(f "$CFLOOR" 8)x | $(f "$CFLOOR" 9)x | $(f "$CFLOOR" 6) + $(f "$CFLOOR" 7) |
| cat 100 MB file: cat-untamed vs tame-cat | $(f "$C100M" 1) | $(f "$C100M" 2) | **$(f "$C100M" 3)x** | $(f "$C100M" 4)..$(f "$C100M" 5)x | $(f "$C100M" 8)x | $(f "$C100M" 9)x | $(f "$C100M" 6) + $(f "$C100M" 7) |
| 4 KiB file: /bin/cat vs tame-exec -f stdio,rpath -- /bin/cat | $(f "$CEXEC" 1) | $(f "$CEXEC" 2) | **$(f "$CEXEC" 3)x** | $(f "$CEXEC" 4)..$(f "$CEXEC" 5)x | $(f "$CEXEC" 8)x | $(f "$CEXEC" 9)x | $(f "$CEXEC" 6) + $(f "$CEXEC" 7) |
| (floor) 4 KiB file: /bin/cat vs tame-exec's launcher and shim with a 1-instruction filter | $(f "$CEXECF" 1) | $(f "$CEXECF" 2) | $(f "$CEXECF" 3)x | $(f "$CEXECF" 4)..$(f "$CEXECF" 5)x | $(f "$CEXECF" 8)x | $(f "$CEXECF" 9)x | $(f "$CEXECF" 6) + $(f "$CEXECF" 7) |
| (handover) 4 KiB file, tame-exec -f stdio,rpath,inet (not precompiled): the shim compiling vs the launcher handing over | $(f "$CHAND" 1) | $(f "$CHAND" 2) | $(f "$CHAND" 3)x | $(f "$CHAND" 4)..$(f "$CHAND" 5)x | $(f "$CHAND" 8)x | $(f "$CHAND" 9)x | $(f "$CHAND" 6) + $(f "$CHAND" 7) |
| cat-untamed 100 MB: bare vs tame-audit | $(f "$CA100" 1) | $(f "$CA100" 2) | **$(f "$CA100" 3)x** | $(f "$CA100" 4)..$(f "$CA100" 5)x | $(f "$CA100" 8)x | $(f "$CA100" 9)x | $(f "$CA100" 6) + $(f "$CA100" 7) |
| cat-untamed 100 MB: strace alone vs tame-audit | $(f "$CS100" 1) | $(f "$CS100" 2) | **$(f "$CS100" 3)x** | $(f "$CS100" 4)..$(f "$CS100" 5)x | $(f "$CS100" 8)x | $(f "$CS100" 9)x | $(f "$CS100" 6) + $(f "$CS100" 7) |
| ls -l /usr/bin: bare vs tame-audit | $(f "$CAL" 1) | $(f "$CAL" 2) | **$(f "$CAL" 3)x** | $(f "$CAL" 4)..$(f "$CAL" 5)x | $(f "$CAL" 8)x | $(f "$CAL" 9)x | $(f "$CAL" 6) + $(f "$CAL" 7) |
| ls -l /usr/bin: strace alone vs tame-audit | $(f "$CSL" 1) | $(f "$CSL" 2) | **$(f "$CSL" 3)x** | $(f "$CSL" 4)..$(f "$CSL" 5)x | $(f "$CSL" 8)x | $(f "$CSL" 9)x | $(f "$CSL" 6) + $(f "$CSL" 7) |
| ls -l /usr/bin: bare vs tame-exec -f stdio,rpath,getpw | $(f "$CEX_LS" 1) | $(f "$CEX_LS" 2) | **$(f "$CEX_LS" 3)x** | $(f "$CEX_LS" 4)..$(f "$CEX_LS" 5)x | $(f "$CEX_LS" 8)x | $(f "$CEX_LS" 9)x | $(f "$CEX_LS" 6) + $(f "$CEX_LS" 7) |
| grep -c 99 (1 MB): bare vs tame-exec -f stdio,rpath | $(f "$CEX_GREP" 1) | $(f "$CEX_GREP" 2) | **$(f "$CEX_GREP" 3)x** | $(f "$CEX_GREP" 4)..$(f "$CEX_GREP" 5)x | $(f "$CEX_GREP" 8)x | $(f "$CEX_GREP" 9)x | $(f "$CEX_GREP" 6) + $(f "$CEX_GREP" 7) |
| sort (1 MB): bare vs tame-exec -f stdio,rpath | $(f "$CEX_SORT" 1) | $(f "$CEX_SORT" 2) | **$(f "$CEX_SORT" 3)x** | $(f "$CEX_SORT" 4)..$(f "$CEX_SORT" 5)x | $(f "$CEX_SORT" 8)x | $(f "$CEX_SORT" 9)x | $(f "$CEX_SORT" 6) + $(f "$CEX_SORT" 7) |
| sha256sum (1 MB): bare vs tame-exec -f stdio,rpath | $(f "$CEX_SHA" 1) | $(f "$CEX_SHA" 2) | **$(f "$CEX_SHA" 3)x** | $(f "$CEX_SHA" 4)..$(f "$CEX_SHA" 5)x | $(f "$CEX_SHA" 8)x | $(f "$CEX_SHA" 9)x | $(f "$CEX_SHA" 6) + $(f "$CEX_SHA" 7) |
| kept log of ls -lR: wc -l vs tame-audit --from-log | $(f "$CAP" 1) | $(f "$CAP" 2) | $(f "$CAP" 3)x | $(f "$CAP" 4)..$(f "$CAP" 5)x | $(f "$CAP" 8)x | $(f "$CAP" 9)x | $(f "$CAP" 6) + $(f "$CAP" 7) |

cat-linked is cat-untamed linked with \`-Wl,-u,tame\`: the same libtame
objects as tame-cat are in the binary, but tame() is never called, so it
shows how much of tame-cat's extra time the bigger binary costs
(start-up relocations, page faults) before tame() runs.  cat-floor is
tame-cat's own object with tame() replaced by a 1-instruction RET ALLOW
filter (\`bench/floor.c\`): what attaching any filter at all, and running
and exiting under one, costs a whole cat on this machine, the floor that
tame-cat's ratio is to be read against.

The headline ratio is the median over rounds of each round's ratio of
medians: the two commands of a round ran back to back, so slow phases of
the shared VM mostly cancel. Pooled medians mix rounds and can mislead
when the load changes between them; the fastest runs are the least
disturbed ones.

![whole-command ratios](cat.svg)

![cat 4 KiB CDF](cat-4k-cdf.svg)

![tame-exec CDF](tame-exec-cdf.svg)

## Notes

- The libseccomp configuration is \`tests/oracle.c\`'s context for the same
  flags (SCMP_FLTATR_CTL_OPTIMIZE = $OPT), loaded as it is with TSYNC: the
  oracle's stand-in for the table's trap-and-emulate rows
  (SCMP_ACT_TRACE) stays in, so with no tracer those calls would fail
  with ENOSYS; none of the benchmarked calls is such a row.
- tame-exec beyond its own floor: $(awk -v a="$(f "$CEXEC" 2)" \
  -v b="$(f "$CEXECF" 2)" 'BEGIN { if (a == "" || b == "") print "-";
  else printf "%.0f", (a - b) * 1000 }') µs a run (the medians of the 4 KiB
  cat under each); the first tame(STDIO|RPATH) beyond a 1-instruction
  filter, in a freshly exec'd program of the same run: $(awk -v a="$FT" \
  -v b="$FA1" 'BEGIN { if (a == "" || b == "") print "-";
  else printf "%.0f", a - b }') µs. The one is about the other: what the
  shim's tame() adds is the first call's phases ("The first tame(), as
  programs pay it"), most of it the kernel's attach.
- The handover, for a flag set the build did not precompile
  (stdio,rpath,inet): $(awk -v a="$(f "$CHAND" 2)" -v b="$(f "$CHAND" 1)" \
  'BEGIN { if (a == "" || b == "" || a == "-") print "-";
  else printf "%+.0f", (a - b) * 1000 }') µs a run (medians; the ratio
  $(f "$CHAND" 3)x, rounds $(f "$CHAND" 4)..$(f "$CHAND" 5)x). The launcher
  and the program are one process (it execs the command), so the
  handover moves the compile out of the shim's tame() into the launcher
  rather than saving it; what it can save is the shim's first touch of
  the table and the planner's workspace, and it costs a memfd, a write
  and a read. Sets the build precompiled (stdio,rpath above) are copied
  by the shim itself and never handed over.
- tame-cat is $(m .size_tame_cat) bytes (libtame linked statically, with
  debug information), cat-untamed $(m .size_cat_untamed) bytes; both are
  dynamically linked against libc.
- Forked latency samples include the first-touch page faults of the
  child (libtame's static tables and buffers), as a program's first
  tame() would; the warm in-process rows show the same work without them.
- Re-run with \`make bench\`; \`BENCH_ROUNDS\`, \`BENCH_REPS\`,
  \`BENCH_MIN_TIME\`, \`BENCH_HF_ROUNDS\`, \`BENCH_IL_ROUNDS\`,
  \`BENCH_FRESH\` and \`BENCH_CPU\` trade time for precision (see
  bench/run.sh); \`BENCH_REPORTS=DIR\` writes the run elsewhere, and
  \`make bench-compare OLD=reports NEW=DIR\` says what changed, row by row.
EOT
} > "$MD"
echo "bench: wrote $MD"
