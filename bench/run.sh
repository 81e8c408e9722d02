#!/bin/sh
# SPDX-License-Identifier: ISC
# run.sh: run every benchmark of `make bench`; raw results go to
# reports/raw/ and bench/report/ turns them into reports/latest.md.
#
# Micro-benchmarks: each configuration (bench/config.c) and the latency
# set run in a process of their own, BENCH_ROUNDS times, the order of
# the configurations rotating from round to round so that drift of the
# machine does not always favour the same one.  The benchmark process
# pins itself to one CPU (the last; BENCH_CPU=N or none to change).
# Whole commands: hyperfine, in BENCH_HF_ROUNDS short rounds whose
# command order alternates, pinned to the same CPU with taskset: the
# noise of this VM drifts within seconds, and each round's ratio only
# compares runs made close together.
# Per call, interleaved: the targets' per-call rows come from one
# process per configuration taking turns in short batches
# (bench/interleave.c), BENCH_IL_ROUNDS rounds.
# First call: bench/fresh and bench/phases, exec'd anew per sample.
#
# Environment: B (build dir), BENCH_ROUNDS (5), BENCH_REPS (5),
# BENCH_MIN_TIME (0.1 s), BENCH_HF_ROUNDS (25), BENCH_EXEC_ROUNDS (13),
# BENCH_TREE_ROUNDS (5), BENCH_SUITE_ROUNDS (3), BENCH_AUDIT_ROUNDS (2),
# BENCH_LONG_CASES (250), BENCH_LONG_ROUNDS (2),
# BENCH_IL_ROUNDS (6000), BENCH_FRESH (201), BENCH_ATTACH (101), BENCH_CPU,
# BENCH_REPORTS (reports: where raw/ goes).  BENCH_QUICK=1 runs every
# benchmark once, briefly, on a 4 MiB "big" file, into $B/bench/quick
# unless BENCH_REPORTS says otherwise: the report is made and well
# formed, its numbers mean little (the smoke test in make check).
set -e
cd "$(dirname "$0")/.."
B=${B:-build}
if [ -n "$BENCH_QUICK" ]; then
	: "${BENCH_ROUNDS:=1}" "${BENCH_REPS:=2}" "${BENCH_MIN_TIME:=0.01}"
	: "${BENCH_HF_ROUNDS:=1}"
	HF_RUNS=3
	BIG_SIZE=4194304
fi
ROUNDS=${BENCH_ROUNDS:-5}
REPS=${BENCH_REPS:-5}
MIN_TIME=${BENCH_MIN_TIME:-0.1}
HF_ROUNDS=${BENCH_HF_ROUNDS:-25}
IL_ROUNDS=${BENCH_IL_ROUNDS:-6000}
[ -n "$BENCH_QUICK" ] && IL_ROUNDS=${BENCH_IL_ROUNDS:-60}
CPU=${BENCH_CPU:-$(($(nproc) - 1))}
# a quick run never replaces the committed reference report
[ -n "$BENCH_QUICK" ] && : "${BENCH_REPORTS:=$B/bench/quick}"
RAW=${BENCH_REPORTS:-reports}/raw
OUT=$B/bench/out
DATA=$B/bench/data
MICRO=$B/bench/micro

rm -rf "$OUT" "$RAW"
mkdir -p "$OUT" "$RAW" "$DATA"

# Inputs: a 4 KiB file and a 100 MiB one, page cached by the warm-ups.
make_file() {
	[ -f "$1" ] && [ "$(stat -c %s "$1")" -eq "$2" ] && return 0
	head -c "$2" /dev/urandom > "$1"
}
make_file "$DATA/small-4k" 4096
make_file "$DATA/big-100m" "${BIG_SIZE:-104857600}"
SMALL=$DATA/small-4k
BIG=$DATA/big-100m

# The run's facts, for the report's header.
{
	printf '{"date":"%s",' "$(date -u +%Y-%m-%dT%H:%M:%SZ)"
	printf '"nproc":%s,' "$(nproc)"
	printf '"cpu":"%s",' "$(sed -n 's/^model name[^:]*: *//p' /proc/cpuinfo |
	    head -n 1)"
	printf '"mem_kib":%s,' "$(sed -n 's/^MemTotal: *\([0-9]*\).*/\1/p' \
	    /proc/meminfo)"
	printf '"kernel":"%s",' "$(uname -r)"
	printf '"gcc":"%s",' "$(${CC:-cc} -dumpfullversion 2>/dev/null ||
	    ${CC:-cc} -dumpversion)"
	printf '"benchmark":"%s",' "$(pkg-config --modversion benchmark)"
	printf '"libseccomp":"%s",' "$(pkg-config --modversion libseccomp)"
	printf '"hyperfine":"%s",' "$(hyperfine --version | cut -d' ' -f2)"
	printf '"bpf_jit_enable":"%s",' "$(cat /proc/sys/net/core/bpf_jit_enable \
	    2>/dev/null)"
	printf '"landlock_abi":%s,' "$($MICRO --landlock-abi \
	    2>/dev/null || echo null)"
	printf '"cpu_pinned":"%s","rounds":%s,"reps":%s,"min_time":%s,' \
	    "$CPU" "$ROUNDS" "$REPS" "$MIN_TIME"
	printf '"hf_rounds":%s,' "$HF_ROUNDS"
	printf '"il_rounds":%s,' "$IL_ROUNDS"
	printf '"cat_block":%s,' "$(stat -L -c %o /dev/null)"
	printf '"size_tame_cat":%s,"size_cat_untamed":%s,' \
	    "$(stat -c %s "$B/ports/tame-cat")" \
	    "$(stat -c %s "$B/ports/cat-untamed")"
	printf '"loadavg_start":"%s"}\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
} > "$OUT/machine.json"

# --- micro-benchmarks -------------------------------------------------
# args1 and args3, the kernel's floors for the argument checks,
# tame-tmp and tame-tmp-openat2, tmppath's two ways, and tame1-unveiled,
# unveil's stat, only serve the interleaved runs below, which alone tell
# such deltas apart.
CONFIGS="$($MICRO --list | grep -vx 'args[13]\|tame-tmp.*\|tame1-unveiled') latency"
n=$(echo $CONFIGS | wc -w)
r=1
while [ "$r" -le "$ROUNDS" ]; do
	# rotate: round r starts at configuration r mod n
	set -- $CONFIGS
	i=0
	while [ "$i" -lt $(((r - 1) % n)) ]; do
		first=$1
		shift
		set -- "$@" "$first"
		i=$((i + 1))
	done
	for c in "$@"; do
		echo "bench: round $r/$ROUNDS: $c"
		# the calls' repetitions in random order within the process
		# (not the latency set: its forked children must not inherit
		# what the in-process compile benchmarks touched)
		il=true
		[ "$c" = latency ] && il=false
		"$MICRO" --config="$c" --file="$SMALL" --cpu="$CPU" \
		    --benchmark_enable_random_interleaving=$il \
		    --benchmark_repetitions="$REPS" \
		    --benchmark_min_time="$MIN_TIME" \
		    --benchmark_display_aggregates_only=true \
		    --benchmark_out="$OUT/micro-$c-$r.json" \
		    --benchmark_out_format=json \
		    --benchmark_context=config="$c" \
		    --benchmark_context=round="$r" \
		    > "$OUT/micro-$c-$r.log" 2>&1 || {
			cat "$OUT/micro-$c-$r.log" >&2
			exit 1
		}
	done
	r=$((r + 1))
done

# One file: per process (configuration and round) and benchmark, the
# median (real and CPU time) and cv of its repetitions and every repetition's time (for the
# latency set, every forked sample), plus google-benchmark's context.
jq -c -s 'def r1: . * 10 | floor / 10;
    map({config: .context.config, round: (.context.round | tonumber),
    context: (.context | del(.caches)),
    results: (.benchmarks | group_by(.run_name) | map({
	name: (.[0].run_name | sub("/iterations:.*$"; "")),
	unit: .[0].time_unit,
	median: ([.[] | select(.aggregate_name == "median") |
	    .real_time | r1][0]),
	cpu_median: ([.[] | select(.aggregate_name == "median") |
	    .cpu_time | r1][0]),
	cv: ([.[] | select(.aggregate_name == "cv") | .real_time][0]),
	samples: [.[] | select(.run_type == "iteration") | .real_time | r1],
	cpu_samples: [.[] | select(.run_type == "iteration") | .cpu_time | r1],
	insns: .[0].insns, optimize: .[0].optimize,
	error: ([.[] | .error_message // empty][0])}
	| with_entries(select(.value != null))))})' \
    "$OUT"/micro-*.json > "$RAW/micro.json"

# --- per call, interleaved --------------------------------------------------
# The targets' per-call rows: one process per configuration, batches of
# a quarter millisecond taking turns (bench/interleave.c), judged on the
# median of the paired differences within a round.  The cached calls
# differ by a few tenths of a nanosecond at most and need fewer rounds
# than the argument-checked ones (openat+close and socket+close take
# microseconds and spread most); those are also set against args1 and
# args3, the least filters that check an argument, in tame()'s Landlock
# domain: what the kernel alone costs for any check of them.
IL_CONFIGS=untamed,allow1,allow3,tame1,tame3
echo "bench: interleaved, argument-checked calls, $IL_ROUNDS rounds"
"$MICRO" --interleave="$IL_CONFIGS,args1,args3" --file="$SMALL" \
    --cpu="$CPU" \
    --calls=openat_close,ioctl_FIONREAD,socket_close_udp \
    --rounds="$IL_ROUNDS" --batch-ms=0.25 \
    --out="$RAW/interleave-checked.json"
echo "bench: interleaved, cached calls, $((IL_ROUNDS / 6)) rounds"
"$MICRO" --interleave="$IL_CONFIGS" --file="$SMALL" --cpu="$CPU" \
    --calls=getpid,read_1B_devzero,write_1B_devnull \
    --rounds="$((IL_ROUNDS / 6))" --batch-ms=0.25 \
    --out="$RAW/interleave-cached.json"
# tmppath's two ways: a file made and removed beneath /tmp, the layer
# letting it through against the handler's openat2 on a kernel without
# Landlock (the tame-tmp configurations)
echo "bench: interleaved, tmppath with and without Landlock, $((IL_ROUNDS / 6)) rounds"
"$MICRO" --interleave=untamed,tame-tmp,tame-tmp-openat2 --cpu="$CPU" \
    --calls=tmp_create_remove --rounds="$((IL_ROUNDS / 6))" \
    --batch-ms=0.25 --out="$RAW/interleave-tmp.json"

# The supervisor (lib/supervisor.h): a granted open it makes where no
# Landlock layer confines paths, trapped by the handler (pledge-norpath)
# or sent by an exec tree's first filter (pledge-exec-norpath), against
# the same open bare and under Landlock (tame-norpath: the handler's
# marked open); the calls a filter allows outright (getpid) stay the
# kernel's.  Then a stat under unveil, which the supervisor checks and
# makes (tame1-unveiled), against the same stat bare and under tame1.
echo "bench: interleaved, the supervisor's opens, $((IL_ROUNDS / 6)) rounds"
"$MICRO" --interleave=untamed,tame-norpath,pledge-norpath,pledge-exec-norpath \
    --cpu="$CPU" --calls=getpid,openat_close_granted,sigmask_block \
    --rounds="$((IL_ROUNDS / 6))" --batch-ms=0.25 \
    --out="$RAW/interleave-pledge.json"
echo "bench: interleaved, stat under unveil, $((IL_ROUNDS / 6)) rounds"
"$MICRO" --interleave=untamed,tame1,tame1-unveiled --file="$SMALL" \
    --cpu="$CPU" --calls=stat \
    --rounds="$((IL_ROUNDS / 6))" --batch-ms=0.25 \
    --out="$RAW/interleave-unveil.json"

# --- the first tame() of a freshly exec'd program ------------------------
# bench/fresh, exec'd anew per sample, times one call inside itself (and
# counts its page faults); bench/phases makes the same first call step by
# step and times each step.  The variants take turns, so that drift of
# the host hits them alike; each writes raw/NAME.txt, one line a sample.
FRESH_N=${BENCH_FRESH:-201}
[ -n "$BENCH_QUICK" ] && FRESH_N=${BENCH_FRESH:-11}
set -- fresh-allow1:"fresh allow1" fresh-stdio-rpath:"fresh tame stdio,rpath" \
    fresh-stdio-rpath-inet-dnspath:"fresh tame stdio,rpath,inet,dnspath" \
    fresh-delta:"fresh again stdio,rpath,inet stdio,rpath" \
    phases-stdio-rpath:"phases stdio,rpath" \
    phases-stdio-rpath-inet-dnspath:"phases stdio,rpath,inet,dnspath"
for v in "$@"; do
	: > "$RAW/${v%%:*}.txt"
done
i=1
while [ "$i" -le "$FRESH_N" ]; do
	[ $((i % 50)) -eq 1 ] && echo "bench: fresh tame() sample $i/$FRESH_N"
	for v in "$@"; do
		# shellcheck disable=SC2086
		taskset -c "$CPU" "$B/bench/"${v#*:} \
		    >> "$RAW/${v%%:*}.txt" || exit 1
	done
	i=$((i + 1))
done

# The kernel's attach alone, by program shape (bench/attach.c): forked
# children, the shapes taking turns.
ATTACH_N=${BENCH_ATTACH:-101}
[ -n "$BENCH_QUICK" ] && ATTACH_N=${BENCH_ATTACH:-5}
echo "bench: attach by program shape, $ATTACH_N samples"
taskset -c "$CPU" "$B/bench/attach" "$ATTACH_N" > "$RAW/attach.jsonl"

# --- whole commands ---------------------------------------------------
# hf NAME RUNS LABEL1 CMD1 LABEL2 CMD2 [WARMUPS [PREPARE]]:
# BENCH_HF_ROUNDS rounds, the order of the two commands alternating.
# The first is the untamed side, the base of the report's ratios: round
# 1 runs it first, which is how the report and bench-compare tell it.
# WARMUPS (3) runs of each come first; PREPARE, a command, runs before
# every run of either (hyperfine --prepare, untimed).
hf() {
	name=$1 runs=${HF_RUNS:-$2} l1=$3 c1=$4 l2=$5 c2=$6 warm=${7:-3}
	prep=$8
	k=1
	while [ "$k" -le "$HF_ROUNDS" ]; do
		echo "bench: hyperfine $name round $k/$HF_ROUNDS"
		if [ $((k % 2)) -eq 1 ]; then
			set -- -n "$l1" "$c1" -n "$l2" "$c2"
		else
			set -- -n "$l2" "$c2" -n "$l1" "$c1"
		fi
		[ -z "$prep" ] || set -- --prepare "$prep" "$@"
		hf_round "$RAW/hf-$name-$k.json" "$OUT/hf-$name-$k.log" "$@"
		k=$((k + 1))
	done
}

# hf_round JSON LOG ARGS...: one round of hyperfine ARGS (the commands
# and their prepares), pinned to $CPU: $warm warm-ups and $runs runs of
# each command (hf's and hf3's variables); the export to JSON, the
# output to LOG, shown and fatal where hyperfine fails.
hf_round() {
	json=$1 log=$2
	shift 2
	taskset -c "$CPU" hyperfine -N --warmup "$warm" --runs "$runs" \
	    --style basic --export-json "$json" "$@" > "$log" 2>&1 || {
		cat "$log" >&2
		exit 1
	}
}

# hf3 NAME1 NAME2 RUNS LABEL1 CMD1 LABEL2 CMD2 LABEL CMD [WARMUPS [PREPARE]]:
# two comparisons that share their second side (the auditor against the
# bare command and against strace alone) in one hyperfine a round, so
# that the shared command runs once for both: each round writes
# hf-NAME1-K.json (LABEL1 against LABEL) and hf-NAME2-K.json (LABEL2
# against LABEL) as hf() would, base first.  The three run in turn, the
# order reversed every other round.  PREPARE runs before CMD's runs only
# (what CMD writes, the profile, is there after the round whichever
# command ran last).
hf3() {
	n1=$1 n2=$2 runs=${HF_RUNS:-$3} l1=$4 c1=$5 l2=$6 c2=$7 lt=$8 ct=$9
	shift 9
	warm=${1:-3} tprep=${2:-}
	k=1
	while [ "$k" -le "$HF_ROUNDS" ]; do
		echo "bench: hyperfine $n1 and $n2 round $k/$HF_ROUNDS"
		if [ $((k % 2)) -eq 1 ]; then
			set -- -n "$l1" "$c1" -n "$l2" "$c2" -n "$lt" "$ct"
			[ -z "$tprep" ] || set -- --prepare true \
			    --prepare true --prepare "$tprep" "$@"
		else
			set -- -n "$lt" "$ct" -n "$l2" "$c2" -n "$l1" "$c1"
			[ -z "$tprep" ] || set -- --prepare "$tprep" \
			    --prepare true --prepare true "$@"
		fi
		hf_round "$OUT/hf3-$n1-$k.json" "$OUT/hf-$n1-$k.log" "$@"
		for pair in "$n1:$l1" "$n2:$l2"; do
			jq --arg b "${pair#*:}" --arg t "$lt" '.results |=
			    ([.[] | select(.command == $b)] +
			     [.[] | select(.command == $t)])' \
			    "$OUT/hf3-$n1-$k.json" > "$RAW/hf-${pair%%:*}-$k.json"
		done
		k=$((k + 1))
	done
}

hf cat-4k 60 cat-untamed "$B/ports/cat-untamed $SMALL" \
    tame-cat "$B/ports/tame-cat $SMALL"
hf link-4k 60 cat-untamed "$B/ports/cat-untamed $SMALL" \
    cat-linked "$B/bench/cat-linked $SMALL"
hf floor-4k 60 cat-untamed "$B/ports/cat-untamed $SMALL" \
    cat-floor "$B/bench/cat-floor $SMALL"
hf cat-100m 4 cat-untamed "$B/ports/cat-untamed $BIG" \
    tame-cat "$B/ports/tame-cat $BIG"
hf floor-100m 4 cat-untamed "$B/ports/cat-untamed $BIG" \
    cat-floor "$B/bench/cat-floor $BIG"
hf tame-exec-4k 60 /bin/cat "/bin/cat $SMALL" \
    tame-exec "$B/tame-exec -f stdio,rpath -- /bin/cat $SMALL"
# tame-exec's floor: the same launcher and shim with a 1-instruction
# filter for tame() (bench/bench.mk: EXEC_FLOOR)
hf exec-floor-4k 60 /bin/cat "/bin/cat $SMALL" \
    exec-floor "$B/bench/exec-floor/tame-exec -f stdio,rpath -- /bin/cat $SMALL"
# tame-exec on more system tools, each under the flags tame-audit
# suggests for it, against the bare tool
TEXT=$DATA/text-1m
[ -s "$TEXT" ] || seq 1 60000 | awk '{ printf "%d some words of text %d\n", \
    ($1 * 7919) % 60000, $1 }' > "$TEXT"
hf tame-exec-grep 40 grep "grep -c 99 $TEXT" \
    tame-exec "$B/tame-exec -f stdio,rpath -- grep -c 99 $TEXT"
# ls, sort and sha256sum run long enough, and their ratios sat far from
# the 1.30 target (reference run of 2026-12-03: medians 1.03..1.11):
# about half the rounds (BENCH_EXEC_ROUNDS) leave time for the
# interleaved per-call runs
saved_rounds=$HF_ROUNDS
HF_ROUNDS=${BENCH_EXEC_ROUNDS:-13}
[ -n "$BENCH_QUICK" ] && HF_ROUNDS=1
hf tame-exec-ls 40 ls "ls -l /usr/bin" \
    tame-exec "$B/tame-exec -f stdio,rpath,getpw -- ls -l /usr/bin"
hf tame-exec-sort 20 sort "sort $TEXT" \
    tame-exec "$B/tame-exec -f stdio,rpath -- sort $TEXT"
hf tame-exec-sha256sum 40 sha256sum "sha256sum $TEXT" \
    tame-exec "$B/tame-exec -f stdio,rpath -- sha256sum $TEXT"
HF_ROUNDS=$saved_rounds

# --- process trees: tame-exec --profile ---------------------------------
# A profile that tame-audit --profile writes from a run of the command
# line tames each program of the tree with its own flags as it starts
# (the shim reads the profile in every program).  A pipeline and a small
# test suite (bench/suite.sh: some twenty commands and a make) under
# their profiles against bare, the pipeline also under tame-exec's floor
# (its shim loads a 1-instruction filter for each listed program); then
# what the profile itself costs a start: /bin/cat under -f stdio,rpath
# against the same under a profile whose one line gives cat those flags
# (tame-exec reads and checks the profile, the shim reads it again and
# looks the program up).  The pipeline and the suite take tenths of a
# second a run, so fewer rounds of a few runs: the pipeline's
# BENCH_TREE_ROUNDS (5), the suite's BENCH_SUITE_ROUNDS (3); cat's
# BENCH_EXEC_ROUNDS of 30.
PIPE="sort $TEXT | uniq -c | sort -rn | head -n 5"
SUITE_DIR=$OUT/suite
mkdir -p "$SUITE_DIR"
SUITE="sh bench/suite.sh $TEXT $SUITE_DIR"
# profile NAME CMD...: tame-audit --profile writes $OUT/NAME.prof from a
# run of CMD, kept in raw/ as profile-NAME.txt; it must list sort
profile() {
	name=$1 prof=$OUT/$1.prof
	shift
	echo "bench: tame-audit --profile $prof"
	"$B/tame-audit" --profile "$prof" -o "$prof.audit" -- "$@" \
	    > /dev/null || {
		echo "bench: tame-audit --profile failed: $*" >&2
		exit 1
	}
	grep -q "^$(readlink -f "$(command -v sort)") " "$prof" || {
		echo "bench: $prof lists no sort" >&2
		exit 1
	}
	cp "$prof" "$RAW/profile-$name.txt"
}
profile pipeline sh -c "$PIPE"
profile suite sh bench/suite.sh "$TEXT" "$SUITE_DIR"
saved_rounds=$HF_ROUNDS
HF_ROUNDS=${BENCH_TREE_ROUNDS:-5}
[ -n "$BENCH_QUICK" ] && HF_ROUNDS=1
hf tame-exec-pipeline 4 pipeline "sh -c '$PIPE'" \
    tame-exec "$B/tame-exec --profile $OUT/pipeline.prof -- sh -c '$PIPE'" 1
hf exec-floor-pipeline 4 pipeline "sh -c '$PIPE'" \
    exec-floor "$B/bench/exec-floor/tame-exec --profile $OUT/pipeline.prof \
    -- sh -c '$PIPE'" 1
HF_ROUNDS=${BENCH_SUITE_ROUNDS:-3}
[ -n "$BENCH_QUICK" ] && HF_ROUNDS=1
hf tame-exec-suite 3 suite "$SUITE" \
    tame-exec "$B/tame-exec --profile $OUT/suite.prof -- $SUITE" 1
# pledge's exec (issues Q, 46): a shell pledged "stdio rpath proc exec"
# with NULL execpromises runs 20 commands, each unpledged (the
# supervisor sees each fork and exec, and answers the calls the shell's
# promises and the commands' differ on by which image makes them);
# against the same bare, and against tame-exec's floor running it (its
# launcher and shim with a 1-instruction filter), BENCH_SUITE_ROUNDS.
SHELL20="i=0; while [ \$i -lt 20 ]; do cat $SMALL; i=\$((i+1)); done"
hf pledge-shell 10 shell "sh -c '$SHELL20'" \
    pledged "$B/tame-exec -p 'stdio rpath proc exec' -- sh -c '$SHELL20'" 1
hf exec-floor-shell 10 shell "sh -c '$SHELL20'" \
    exec-floor "$B/bench/exec-floor/tame-exec -f stdio,rpath,proc -- \
    sh -c '$SHELL20'" 1
# find /usr -type f (some hundred thousand stats and opens) under
# pledge("stdio rpath"): with Landlock, and as on a kernel without it
# (tests/tools/refuse: the paths the supervisor's), where rpath's calls
# stay the filter's alone; then under unveil (-v r:/usr, and the working
# directory find returns to), where every stat by path is the
# supervisor's (lib/sup_unveil.c).
FIND="find /usr -type f"
hf find-usr 3 find "$FIND" \
    pledged "$B/tame-exec -p 'stdio rpath' -- $FIND" 1
hf find-usr-nolandlock 3 find "$FIND" \
    pledged "$B/tests/tools/refuse landlock=ENOSYS -- \
    $B/tame-exec -p 'stdio rpath' -- $FIND" 1
hf find-usr-unveil 3 find "$FIND" \
    unveiled "$B/tame-exec -p 'stdio rpath' -v r:/usr -v r:$(pwd -P) -- \
    $FIND" 1
HF_ROUNDS=${BENCH_EXEC_ROUNDS:-13}
[ -n "$BENCH_QUICK" ] && HF_ROUNDS=1
printf '%s stdio,rpath\n' "$(readlink -f /bin/cat)" > "$OUT/cat.prof"
hf profile-4k 30 tame-exec-f "$B/tame-exec -f stdio,rpath -- /bin/cat $SMALL" \
    tame-exec-prof "$B/tame-exec --profile $OUT/cat.prof -- /bin/cat $SMALL"
HF_ROUNDS=$saved_rounds

# --- the ports --------------------------------------------------------
# Each port tamed against its untamed build (the same source, -DNO_TAME)
# on a workload of realistic size; ping also against its floor (tame()
# replaced by a 1-instruction filter).  A port not built is left out,
# and the report says so.  Fewer rounds than cat's (BENCH_PORT_ROUNDS).
saved_rounds=$HF_ROUNDS
HF_ROUNDS=${BENCH_PORT_ROUNDS:-7}
[ -n "$BENCH_QUICK" ] && HF_ROUNDS=1
seq 1 1000 > "$DATA/items"
# hfp NAME RUNS ARG...: NAME-untamed against tame-NAME
hfp() {
	p=$1 r=$2
	shift 2
	[ -x "$B/ports/tame-$p" ] || { echo "bench: no tame-$p, skipped"; return; }
	printf '%s\t%s\n' "$p" "$*" | sed "s|$DATA/||g" \
	    >> "$RAW/port-workloads.tsv"
	hf "port-$p" "$r" "$p-untamed" "$B/ports/$p-untamed $*" \
	    "tame-$p" "$B/ports/tame-$p $*"
}
# hfs NAME RUNS SHELLCMD: the same through sh -c, for standard input
hfs() {
	p=$1 r=$2 c=$3
	[ -x "$B/ports/tame-$p" ] || { echo "bench: no tame-$p, skipped"; return; }
	printf '%s\t%s\n' "$p" "$c" | sed -e "s|$DATA/||g" -e "s|$OUT/||g" \
	    >> "$RAW/port-workloads.tsv"
	hf "port-$p" "$r" "$p-untamed" "sh -c '$B/ports/$p-untamed $c'" \
	    "tame-$p" "sh -c '$B/ports/tame-$p $c'"
}
hfp wc 20 "$TEXT"
hfp head 40 -n 1000 "$TEXT"
hfp sort 10 -S 256K "$TEXT"
hfp id 40
hfp xargs 20 -a "$DATA/items" -n 50 true
hfp host 40 localhost
hfs tee 20 "$OUT/tee.out < $TEXT > /dev/null"
# hfpair KIND RUNS WORKLOAD: the ports that need a peer, through
# bench/pair.sh on both sides
hfpair() {
	p=$1 r=$2
	[ -x "$B/ports/tame-$p" ] || { echo "bench: no tame-$p, skipped"; return; }
	printf '%s\t%s\n' "$p" "$3" >> "$RAW/port-workloads.tsv"
	hf "port-$p" "$r" "$p-untamed" \
	    "sh bench/pair.sh $p $B/ports/$p-untamed $TEXT" \
	    "tame-$p" "sh bench/pair.sh $p $B/ports/tame-$p $TEXT"
}
hfpair echo 20 "1 MB through a loopback server and client, both the build"
hfpair fdpass 20 "a 1 MB file passed by descriptor and printed"
hfpair stty 20 "size, on a new pseudo-terminal (script -qec)"
PING_ARGS="-c 5000 -i 0 -q 127.0.0.1"
[ -n "$BENCH_QUICK" ] && PING_ARGS="-c 50 -i 0 -q 127.0.0.1"
# shellcheck disable=SC2086
hfp ping 3 $PING_ARGS
if [ -x "$B/bench/ping-floor" ]; then
	hf floor-ping 3 ping-untamed "$B/ports/ping-untamed $PING_ARGS" \
	    ping-floor "$B/bench/ping-floor $PING_ARGS"
fi
HF_ROUNDS=$saved_rounds

# --- upstream programs (ports/upstream, built by make check-upstream) ---
# Each tamed build and its floor (tame() a 1-instruction filter) against
# the untamed build of the same Debian source, on real work (the
# recipe's bench = and bench_size =: about a second each, compressing
# or filtering to standard output); one round of 5 runs, about 2
# minutes for all.  A program not built is left out, and says so.
saved_rounds=$HF_ROUNDS
HF_ROUNDS=${BENCH_UPSTREAM_ROUNDS:-1}
UP_RUNS=5
PLEDGED_RUNS=3
[ -n "$BENCH_QUICK" ] && UP_RUNS=2
# the network client's server, on loopback, for the whole section; its
# port file appears once it listens (waited for while it lives: two
# minutes only end a wait for one that hangs)
rm -f "$OUT/upstream-port"
python3 -B ports/upstream/upstream.py serve "$OUT/upstream-port" &
UP_SERVER=$!
k=0
while [ ! -s "$OUT/upstream-port" ] && kill -0 "$UP_SERVER" 2>/dev/null &&
    [ $k -lt 1200 ]; do
	sleep 0.1
	k=$((k + 1))
done
UPSTREAM_SERVE_PORT=$(cat "$OUT/upstream-port" 2>/dev/null) \
    python3 -B ports/upstream/upstream.py bench > "$OUT/upstream-rows.tsv"
while IFS="$(printf '\t')" read -r p u t f; do
	# the arguments, the input's directory left out, | escaped for
	# the report's table
	printf '%s\t%s\n' "$p" "${u#* }" |
	    sed -e 's|[^ ]*/upstream/data/||g' -e 's/|/\\|/g' \
	    >> "$RAW/upstream-workloads.tsv"
	hf "upstream-$p" "$UP_RUNS" "$p-untamed" "$u" "$p-tamed" "$t" 1
	hf "upstream-floor-$p" "$UP_RUNS" "$p-untamed" "$u" "$p-floor" "$f" 1
done < "$OUT/upstream-rows.tsv"
kill "$UP_SERVER" 2>/dev/null || true
wait "$UP_SERVER" 2>/dev/null || true	# its status is SIGTERM's

# --- programs that pledge themselves (ports/pledged, built by make
# check-pledged): each pledged build against its untamed build on the
# recipe's real work; one round of 3 runs each (5, and tmux with 30
# windows, took 5 of the bench's minutes, already past its 15; in that
# run the runs' standard deviation was under 1% of their mean for xz,
# mandoc and signify, 3% for tmux, 5 to 13% for lowdown's short runs).
# Not built: left out; left out of the quick run too.
if [ -n "$BENCH_QUICK" ]; then
	echo "bench: the programs that pledge themselves are left out of the quick run" >&2
	: > "$OUT/pledged-rows.tsv"
else
	python3 -B ports/pledged/pledged.py bench > "$OUT/pledged-rows.tsv"
fi
while IFS="$(printf '\t')" read -r p u s; do
	printf '%s\t%s\n' "$p" "${u#* }" |
	    sed -e 's|[^ ]*/pledged/data/||g' \
	    -e 's|[^ ]*/pledged/[^/ ]*/untamed/||g' -e 's/|/\\|/g' \
	    >> "$RAW/pledged-workloads.tsv"
	hf "pledged-$p" "$PLEDGED_RUNS" "$p-untamed" "$u" "$p-pledged" "$s" 1
done < "$OUT/pledged-rows.tsv"
HF_ROUNDS=$saved_rounds

# --- tame-audit ---------------------------------------------------------
# The auditor on a syscall-heavy command (cat-untamed, 100 MB in 4 KiB
# reads: 50,000 calls) and a typical one (ls -l /usr/bin), against the
# bare command and against strace alone, run as tame-audit runs it but
# writing nowhere: what tracing costs before any auditing.  Seconds a
# run, so fewer rounds (BENCH_AUDIT_ROUNDS, 2: 5 took the run of
# 2026-12-05 past its 15 minutes, 15.4, on a host whose system calls
# cost 5x the reference's, and 3 the run of 2026-12-06, 16.2, with the
# long suite's rows; their rounds spread by 0.04x at most) and one
# warm-up.
AUDIT_ROUNDS=${BENCH_AUDIT_ROUNDS:-2}
[ -n "$BENCH_QUICK" ] && AUDIT_ROUNDS=1
ST="strace -f -yy -X verbose -s 256 -o /dev/null --"
TA="$B/tame-audit -o /dev/null --"
saved_rounds=$HF_ROUNDS
HF_ROUNDS=$AUDIT_ROUNDS
hf3 audit-100m strace-100m 2 cat-untamed "$B/ports/cat-untamed $BIG" \
    strace "$ST $B/ports/cat-untamed $BIG" \
    tame-audit "$TA $B/ports/cat-untamed $BIG" 1
hf3 audit-ls strace-ls 10 ls "ls -l /usr/bin" strace "$ST ls -l /usr/bin" \
    tame-audit "$TA ls -l /usr/bin" 1
# What the hermetic runs cost an audit (tame-audit(1), HERMETIC RUNS):
# the audited run in a view of its own and then the user's run, plainly,
# against --once, whose one traced run is the user's: on true (the view
# and a plain run of nothing), and on sort of 1 MB, a tameable command
# with no second traced run, where the user's run is a real one.
hf audit-view 10 once "$B/tame-audit --once -o /dev/null -- true" \
    tame-audit "$TA true" 1
hf audit-plain 10 once "$B/tame-audit --once -o /dev/null -- sort $TEXT" \
    tame-audit "$TA sort $TEXT" 1
# A whole test suite (bench/suite.sh, above) audited into a profile,
# against the bare suite and against strace alone: seconds a run, so
# BENCH_SUITE_ROUNDS (3) rounds of 2.  Each run writes the profile anew:
# hyperfine --prepare removes it and its kept log before every run, or
# each would merge every run before it.
HF_ROUNDS=${BENCH_SUITE_ROUNDS:-3}
[ -n "$BENCH_QUICK" ] && HF_ROUNDS=1
TAP="$B/tame-audit -o /dev/null --profile $OUT/suite-audit.prof --"
NOPROF="rm -rf $OUT/suite-audit.prof $OUT/suite-audit.prof.runs"
hf3 audit-suite strace-suite 2 suite "$SUITE" strace "$ST $SUITE" \
    tame-audit "$TAP $SUITE" 1 "$NOPROF"
# A long suite (bench/long-suite.sh: BENCH_LONG_CASES, 250, cases of
# some nine short programs each, about 2,300 processes and a trace of
# 70 MB) audited into a profile, against the bare suite and strace
# alone: what a project's whole `make check` costs to audit, its trace
# read once and attributed to each process.  Half a minute a run, so
# BENCH_LONG_ROUNDS (2) rounds of one run each, no warm-up (the rows
# before have the programs and the text in the page cache): each round's
# three runs close together, their order reversed in the second, where
# one round of two runs each left minutes between a pair.
LONG_DIR=$OUT/long-suite
mkdir -p "$LONG_DIR"
LONG_CASES=${BENCH_LONG_CASES:-250}
[ -n "$BENCH_QUICK" ] && LONG_CASES=${BENCH_LONG_CASES:-10}
LONG="sh bench/long-suite.sh $TEXT $LONG_DIR $LONG_CASES"
LONG_PROF=$OUT/long-suite.prof
HF_ROUNDS=${BENCH_LONG_ROUNDS:-2}
hf3 audit-long strace-long 1 long-suite "$LONG" strace "$ST $LONG" \
    tame-audit "$B/tame-audit -o /dev/null --profile $LONG_PROF -- $LONG" \
    0 "rm -rf $LONG_PROF $LONG_PROF.runs"
cp "$LONG_PROF" "$RAW/profile-long-suite.txt"
HF_ROUNDS=$AUDIT_ROUNDS
# Reading a kept log: the long suite's (its last audited run, kept in
# its profile's runs), read again by tame-audit --from-log, against wc -l
# of the same.  A tree read as one program execs, so the verdict is not
# tameable (5), which the shell turns into success for hyperfine.
gzip -dc "$LONG_PROF.runs/0001.log.gz" > "$DATA/audit.log"
hf audit-parse 5 wc "wc -l $DATA/audit.log" \
    tame-audit "sh -c '$B/tame-audit -o /dev/null --from-log \
    $DATA/audit.log || test \$? -eq 5'" 1
printf '{"audit_log_lines":%s,"audit_log_bytes":%s,"audit_rounds":%s,"long_cases":%s}\n' \
    "$(wc -l < "$DATA/audit.log")" "$(stat -c %s "$DATA/audit.log")" \
    "$AUDIT_ROUNDS" "$LONG_CASES" > "$OUT/audit.json"
HF_ROUNDS=$saved_rounds

# How large a block tame-cat really reads with hyperfine's /dev/null as
# its output, for the report.
strace -o "$OUT/cat-blocks.trace" -e trace=read \
    "$B/ports/tame-cat" "$BIG" > /dev/null 2>&1 || true
sed -n 's/^read(3, .*, \([0-9]*\)) = .*/\1/p' "$OUT/cat-blocks.trace" |
    sort | uniq -c | sort -rn | head -n 1 |
    awk '{ printf "{\"cat_read_size\":%s}\n", $2 }' > "$OUT/blocks.json"
printf '{"loadavg_end":"%s"}\n' "$(cut -d' ' -f1-3 /proc/loadavg)" \
    > "$OUT/end.json"
jq -s add "$OUT/machine.json" "$OUT/blocks.json" "$OUT/audit.json" \
    "$OUT/end.json" \
    > "$RAW/machine.json"
echo "bench: raw results in $RAW/"
